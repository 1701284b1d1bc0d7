"""Necromunda–Warzone at the table: its play traits (app/systems/play_traits.py).

A figure is standing, down or out of action (L78-80) and keeps count of its lost PV and
light wounds; a quarter of the gang down or out calls for a rout test (L84); the to-hit
panel gives each CT of the gang its roll for each modifier total (L38-49). Numbers come
from the share's frozen roster and validation, never from its labels.
Lnn = line of shared/rules/necromunda-warzone.fr.txt.
"""

from typing import Any

from pydantic import ValidationError

from app.systems.necrowarzone import NecrowarzoneSystem
from app.systems.necrowarzone.catalogue import Catalogue
from app.systems.necrowarzone.models import NecrowarzoneEntryBase, NecrowarzoneFigure
from app.systems.necrowarzone.rosters import entry_figure
from app.systems.necrowarzone.shooting import read_roll
from app.systems.play_traits import (
    Counter,
    FigureState,
    FigureTraits,
    Panel,
    Played,
    PlayTraits,
    RoutTest,
    fraction_text,
)
from app.systems.sheet import SheetEntry

# The modifier totals the to-hit panel shows for each CT of the gang (L41-49).
MODIFIERS = (-3, -2, -1, 0, 1, 2)
# Boxes of the light-wounds counter: 9 bring any CT of the table (1 to 10, L38) down to its
# minimum 1 (L78); docs/rules-notes.md « Light wounds stack ».
MAX_LIGHT_WOUNDS = 9


def catalogue(played: Played) -> Catalogue:
    engine = played.engine
    assert isinstance(engine, NecrowarzoneSystem), "the traits of another system's engine"
    return engine.data


def ganger(played: Played, entry: SheetEntry) -> NecrowarzoneFigure | None:
    """The figure of the frozen roster entry a card shows (None: unknown to the catalogue)."""
    roster = played.snapshot.get("roster")
    entries = roster.get("entries") if isinstance(roster, dict) else None
    if entry.entry is None or not isinstance(entries, list) or entry.entry >= len(entries):
        return None
    try:
        parsed = NecrowarzoneEntryBase.model_validate(entries[entry.entry])
    except ValidationError:
        return None
    try:
        return entry_figure(catalogue(played), parsed)[0]
    except LookupError:
        return None


def figure(played: Played, entry: SheetEntry) -> FigureTraits:
    """L77-78: the PV the figure loses, and its light wounds."""
    found = ganger(played, entry)
    pv = (found.profile.PV if found else 0) or 1
    return FigureTraits(
        counters=(
            Counter("pv", "PV perdus", pv),
            Counter("lw", "Blessures légères", MAX_LIGHT_WOUNDS),
        )
    )


def rout(played: Played) -> int | None:
    """L84: the figures down or out that call for a rout test, as the validation derived."""
    threshold = played.list_derived().get("rout_threshold")
    return threshold if isinstance(threshold, int) and threshold > 0 else None


def to_hit_panel(played: Played) -> dict[str, Any] | None:
    """Each CT of the gang: the roll and chance to hit for each modifier total (L38-49)."""
    scores = dict(catalogue(played).to_hit_scores)
    cts = {
        found.profile.CT
        for entry in played.sheet.entries
        if (found := ganger(played, entry)) is not None and found.profile.CT in scores
    }
    if not cts:
        return None
    rows = []
    for ct in sorted(cts):
        cells = []
        for total in MODIFIERS:
            roll, chance, _ = read_roll(scores[ct] - total)
            cells.append((roll, fraction_text(chance)))
        rows.append({"ct": ct, "cells": cells})
    return {"rows": rows, "modifiers": [f"{m:+d}" if m else "0" for m in MODIFIERS]}


PLAY = PlayTraits(
    # L78-80: a light wound, down, out of action.
    states=(FigureState("Debout"), FigureState("Au tapis"), FigureState("Hors de combat", True)),
    figure=figure,
    rout=RoutTest(rout, "au tapis ou hors de combat", "L84"),
    panels=(Panel("to_hit", "to_hit_table.html", to_hit_panel),),
)
