"""Dates as French players read them, in Paris time, with Babel's French locale data (the
month names and their accents come from the CLDR, not from a list of our own)."""

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from babel import Locale
from babel.dates import format_date

PARIS = ZoneInfo("Europe/Paris")
# Parsed once: Babel parses a locale given by name at each call (~33 µs; a gang page wrote
# 60 dates, 2 ms of its 10, issue 29).
LOCALE = Locale.parse("fr_FR")


def as_utc(moment: datetime) -> datetime:
    """A stored time with its zone: SQLite gives naive datetimes, which are UTC here."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def in_paris(moment: datetime) -> datetime:
    return as_utc(moment).astimezone(PARIS)


def french_date(moment: datetime) -> str:
    """« 1er décembre 2026 », « 30 novembre 2026 » (French writes the first day « 1er »)."""
    local = in_paris(moment)
    day = "1er" if local.day == 1 else str(local.day)
    return f"{day} {format_date(local, 'MMMM y', locale=LOCALE)}"


def french_datetime(moment: datetime) -> str:
    """« 30 novembre 2026 à 14 h 05 », in Paris time (a naive time is UTC)."""
    local = in_paris(moment)
    return f"{french_date(local)} à {local.hour} h {local.minute:02d}"
