"""No Limits rules that are not prices: armour modifier, damage track, size, buildings.

Pure functions. Lnnn = line of shared/rules/no-limits.fr.txt; "note N" = the No Limits
section of docs/rules-notes.md.
"""

from collections.abc import Sequence

from pydantic import BaseModel, Field

from app.systems.nolimits.catalogue import Catalogue
from app.systems.nolimits.models import NolimitsUnitBase

# "Tout véhicule possédant 5 PV ou plus doit utiliser un indicateur de dégâts." (L252)
DAMAGE_TRACK_FROM_PV = 5
DAMAGE_TRACK_ROW = 5  # the printed track has rows of five boxes (L236-238, L255-257)
MOVEMENT_EVERY = 4  # "Mv" boxes: 4, 8, 12 in the 15-PV example
WEAPON_EVERY = 5  # "Ar" boxes: 5, 10 in the 15-PV example


def armour_modifier(strength: int) -> int:
    """MA of an attack of strength `strength` (table L173-176: 1 to 4: 0, 5: -1 ... 9: -5).

    Beyond the table the same step continues (10: -6, note 3); strength 0 gives 0."""
    return min(0, 4 - strength)


def damage_box(number: int) -> str:
    """The label of box `number`: every 4th "Mv", every 5th "Ar", both on a 20th (note 4)."""
    movement = number % MOVEMENT_EVERY == 0
    weapon = number % WEAPON_EVERY == 0
    if movement and weapon:
        return "Mv+Ar"
    if movement:
        return "Mv"
    if weapon:
        return "Ar"
    return str(number)


def damage_track(pv: int) -> list[list[str]] | None:
    """The damage indicator of a model of `pv` PV, as printed for the 15-PV Titan (L254-257).

    Boxes 1 to PV-1 (the 15-PV track has 14 boxes: the last PV destroys the model), in rows
    of five; None under 5 PV (L252)."""
    if pv < DAMAGE_TRACK_FROM_PV:
        return None
    boxes = [damage_box(number) for number in range(1, pv)]
    return [boxes[i : i + DAMAGE_TRACK_ROW] for i in range(0, len(boxes), DAMAGE_TRACK_ROW)]


class SizeBand(BaseModel):
    """The heights (or lengths) of one size category, in whole millimetres (L73-84)."""

    id: str
    min_mm: int
    max_mm: int | None


def size_from_mm(size_mm: int, bands: Sequence[SizeBand]) -> str:
    """The size category of a model `size_mm` high or long (its larger dimension, L81, L83)."""
    for band in bands:
        if size_mm >= band.min_mm and (band.max_mm is None or size_mm <= band.max_mm):
            return band.id
    raise ValueError(f"no size category for {size_mm} mm")


def effective_size(catalogue: Catalogue, unit: NolimitsUnitBase) -> tuple[str, str | None]:
    """The declared size, else the one size_mm gives, else moyenne (note 7); and the one
    size_mm gives, if given."""
    from_mm = None
    if unit.size_mm is not None:
        bands = [SizeBand(id=s.id, min_mm=s.min_mm, max_mm=s.max_mm) for s in catalogue.sizes]
        from_mm = size_from_mm(unit.size_mm, bands)
    return unit.size or from_mm or "moyenne", from_mm


class NolimitsBuildingProfile(BaseModel):
    """What a building of one material and size has (table L277-282)."""

    material: str
    name: str
    size_in: int = Field(description="The building's measure in inches (pouces).")
    EN: int
    SV: int | None = Field(description="None where the table prints '-' (bois).")
    PV: int


def building_pv(size_in: int, pv: int, per_inches: int) -> int:
    """PV of a building: `pv` per `per_inches` inches, rounded down, at least 1 (note 9)."""
    return max(1, size_in * pv // per_inches)


def building_profile(
    catalogue: Catalogue, material_id: str, size_in: int
) -> NolimitsBuildingProfile:
    """EN, SV and PV of a building of `size_in` inches in one material (L273-282, note 9)."""
    material = catalogue.material(material_id)
    return NolimitsBuildingProfile(
        material=material.id,
        name=material.name,
        size_in=size_in,
        EN=material.EN,
        SV=material.SV,
        PV=building_pv(size_in, material.pv, material.per_inches),
    )
