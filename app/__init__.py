"""Caserne: army builder and points calculator for skirmish wargames."""
