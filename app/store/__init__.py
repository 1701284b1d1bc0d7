"""Stored rosters and shares: SQLModel tables and the few functions that read and write them."""
