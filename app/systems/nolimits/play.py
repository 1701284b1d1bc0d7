"""No Limits at the table: its play traits (app/systems/play_traits.py).

Each model counts the PV it loses up to its damage track's boxes (L235-238, L252-257), or its
profile's PV when it has no track, and leaves the game when none is left. Both are the
sheet's own data: the track's rows and the profile table it built from the summary.
"""

from app.systems.inputs import is_digits
from app.systems.play_traits import Counter, FigureTraits, Played, PlayTraits
from app.systems.sheet import SheetEntry


def figure(played: Played, entry: SheetEntry) -> FigureTraits:
    boxes = sum(len(row) for rows in entry.tracks for row in rows)
    pv = 0
    if entry.table and "PV" in entry.table.columns:
        value = entry.table.values[entry.table.columns.index("PV")]
        pv = int(value) if is_digits(value) else 0
    return FigureTraits(counters=(Counter("pv", "PV perdus", boxes or pv or 1, out=True),))


PLAY = PlayTraits(figure=figure)
