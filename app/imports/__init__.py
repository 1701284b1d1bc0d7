"""The list import: a pasted text or a dropped file read back into a roster document
(docs/import.md). `formats` reads the text's shape (Caserne's BBCode, Markdown, text or
JSON exports, or lines a player typed), `reading` makes the document with the system's own
reader (`ImportTraits`, app/systems/import_traits.py) and says what each line became,
`service` answers a share link of this site from the share itself."""
