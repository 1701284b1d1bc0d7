"""A shared roster as forum BBCode, Markdown and plain text, from its frozen summary."""

from typing import Protocol

from app.exports.bbcode import to_bbcode
from app.exports.common import Origins
from app.exports.markdown import to_markdown
from app.exports.text import to_text
from app.systems.base import RosterSummary


class Exporter(Protocol):
    def __call__(self, summary: RosterSummary, url: str, origins: Origins | None = None) -> str: ...


# suffix of the share URL -> (media type, exporter)
TEXT_EXPORTS: dict[str, tuple[str, Exporter]] = {
    "bbcode": ("text/plain; charset=utf-8", to_bbcode),
    "md": ("text/markdown; charset=utf-8", to_markdown),
    "txt": ("text/plain; charset=utf-8", to_text),
}

__all__ = ["TEXT_EXPORTS", "to_bbcode", "to_markdown", "to_text"]
