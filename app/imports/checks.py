"""What an import accepts before anything reads it: its size, its lines, its characters.

Every bound is checked where the text enters, in linear time, before any parsing; a refusal
is an `ImportRefused` with a stable code (docs/api-codes.md) and a French message."""

from collections.abc import Sequence
from typing import Any

from app.systems.inputs import free_json_refusal
from app.validation_text import FRENCH

# A text read by the import: at most this many bytes (UTF-8), lines, characters a line.
# The largest export of a list the models allow (200 entries of No Limits units, each with
# a leader and specialists) weighs about 400 KB; a forum post, a few.
MAX_TEXT_BYTES = 512 * 1024
MAX_LINES = 10_000
MAX_LINE_CHARS = 8_000
# The entries of one list (the roster models' own bound), and the choices one request
# may make among « non reconnu » lines' candidates.
MAX_ENTRIES = 200
# The printed entries read, at most: a No Limits entry prints a line for its troopers, its
# leader and each group of specialists.
MAX_PRINTED = 5 * MAX_ENTRIES
MAX_CHOICES = 200


# What the API says of each refusal (English, for programs; `ImportRefused.message` is the
# players' French).
DETAILS = {
    "import_too_large": f"The text is over {MAX_TEXT_BYTES // 1024} KiB.",
    "too_many_lines": f"The text has more than {MAX_LINES} lines.",
    "line_too_long": f"A line of the text is over {MAX_LINE_CHARS} characters.",
    "file_encoding": "The file is not UTF-8 text.",
    "invalid_text": "The text holds U+0000 or an unpaired surrogate.",
    "empty_import": "The text holds nothing to read.",
    "json_invalid": "The text starts as JSON and is not valid JSON.",
    "json_too_deep": "The JSON is nested too deep.",
    "finite_number": "The JSON holds a number that is not finite.",
    "int_too_large": "The JSON holds an integer beyond 2**53.",
    "not_a_list": "The JSON is neither a Caserne share, roster document nor roster answer.",
    "carnet_file": "The JSON is a whole carnet file: import it into a carnet instead.",
    "format_version": "The file comes from a newer format or catalogue than this server's.",
    "unknown_system": "The system is not one this server serves.",
    "system_mismatch": "The text is a list of another system than the one asked for.",
    "system_unknown": "The text does not say which system it is: send `system`.",
    "import_unsupported": "This system's lists can be imported from JSON and share links only.",
    "invalid": "The list cannot be read as a roster document.",
}


class ImportRefused(Exception):
    """An import that cannot be read: `code` for programs (`detail`, English), `message`
    for players (French)."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        status: int = 422,
        loc: Sequence[str | int] = ("body", "text"),
    ) -> None:
        self.code, self.message, self.status, self.loc = code, message, status, tuple(loc)
        super().__init__(message)

    @property
    def detail(self) -> str:
        return DETAILS.get(self.code, "The text cannot be imported.")


def decoded(data: bytes) -> str:
    """A dropped file's bytes as text: UTF-8 (a leading byte order mark is allowed)."""
    if len(data) > MAX_TEXT_BYTES:
        raise too_large(len(data))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ImportRefused(
            "file_encoding",
            "Ce fichier n'est pas un texte en UTF-8 : enregistrez-le en UTF-8, ou copiez-collez "
            "son contenu.",
            loc=("body", "file"),
        ) from None


def too_large(size: int) -> ImportRefused:
    return ImportRefused(
        "import_too_large",
        f"Ce texte pèse {size // 1024} Ko : l'import en lit {MAX_TEXT_BYTES // 1024} Ko au plus.",
        status=413,
    )


def checked_text(text: str) -> str:
    """`text` once bounded: one kind of line end, no byte order mark, every character a
    page can show (control and format characters become spaces, as the exports write
    them). Refused: too large, too many or too long lines (but JSON's), U+0000, a lone
    surrogate, or nothing to read."""
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError:
        raise invalid_text() from None
    if size > MAX_TEXT_BYTES:
        raise too_large(size)
    if "\x00" in text:
        raise invalid_text()
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if len(lines) > MAX_LINES:
        raise ImportRefused(
            "too_many_lines",
            f"Ce texte a {len(lines)} lignes : l'import en lit {MAX_LINES} au plus.",
            status=413,
        )
    longest = max(len(line) for line in lines)
    # A JSON export is one line (`/s/{code}.json`): json.loads reads it, bounded by size,
    # and its strings are the document's, kept as they are.
    if text.lstrip().startswith("{"):
        return "\n".join(lines)
    if longest > MAX_LINE_CHARS:
        raise ImportRefused(
            "line_too_long",
            f"Une ligne de ce texte a {longest} caractères : l'import en lit "
            f"{MAX_LINE_CHARS} au plus par ligne.",
            status=413,
        )
    shown = [line if line.isprintable() else _printable(line) for line in lines]
    if not any(line.strip() for line in shown):
        raise ImportRefused("empty_import", "Il n'y a rien à lire : collez une liste.")
    return "\n".join(shown)


def _printable(line: str) -> str:
    return "".join(ch if ch.isprintable() or ch == "\t" else " " for ch in line)


def invalid_text() -> ImportRefused:
    return ImportRefused(
        "invalid_text",
        "Ce texte contient un caractère invalide (un caractère nul ou une moitié de caractère) : "
        "il n'a pas été lu.",
    )


def refused_json(value: Any) -> None:
    """A JSON value no model could take (nested too deep, a NaN, a lone surrogate)."""
    refusal = free_json_refusal(value)
    if refusal is not None:
        code = refusal[0]
        raise ImportRefused(code, f"Ce JSON ne peut pas être lu : {FRENCH.get(code, code)}.")


def choices_of(raw: Any) -> dict[int, str]:
    """The candidates a player chose, by line number: `{"12": "jaffa"}` (at most
    `MAX_CHOICES`, each a short id); anything else is left out."""
    if not isinstance(raw, dict):
        return {}
    out: dict[int, str] = {}
    for key, value in list(raw.items())[:MAX_CHOICES]:
        line = str(key)
        number = line.isascii() and line.isdecimal() and len(line) <= 6
        if number and isinstance(value, str) and 0 < len(value) <= 200:
            out[int(line)] = value
    return out
