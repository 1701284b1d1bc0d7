"""Stored rosters and shares: SQLModel tables and the few functions that read and write them."""


def no_row_has(*keys: str) -> bool:
    """Whether a key sent by a client can name no row: one holding U+0000, which PostgreSQL
    cannot even compare (the query fails: a 500), and which no key Caserne makes holds. The
    getters answer None for it, on SQLite as on PostgreSQL."""
    return any("\x00" in key for key in keys)
