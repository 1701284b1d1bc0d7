"""A No Limits roster as readers see it (the share page, the exports): one line per part
of each entry, with its profile, weapons and damage track written out."""

from app.systems.base import Badge, EntryResult, Issue, SummaryLine
from app.systems.nolimits.catalogue import Catalogue
from app.systems.nolimits.pricing import NolimitsUnitDerived
from app.systems.nolimits.rosters import NolimitsEntryDerived
from app.systems.nolimits.weapons import NolimitsWeaponDerived, band_text, signed


def weapon_text(weapon: NolimitsWeaponDerived) -> str:
    parts = []
    if weapon.CU is not None:
        parts.append(f"CU {weapon.CU}")
    if weapon.melee:
        parts.append(f"corps à corps, FO {weapon.FO} (bonus +{weapon.FO_bonus})")
    else:
        bands = [band for band in (weapon.PC, weapon.PI, weapon.PL) if band]
        parts.append(" ".join(band_text(band) for band in bands))
        parts.append(f"FO {weapon.FO}")
    parts.append(f"MA {signed(weapon.MA) if weapon.MA else 0}")
    parts.append(f"CdA {weapon.CdA}")
    parts.append(f"DG {weapon.DG}")
    if weapon.MPA:
        parts.append(f"MPA {signed(weapon.MPA)}")
    parts += weapon.rules
    return f"{weapon.name} ({', '.join(parts)})"


def unit_details(derived: NolimitsUnitDerived) -> list[str]:
    details = [derived.profile.text()]
    if derived.size != "moyenne":
        details.append(f"Taille {derived.size.replace('tres_', 'très ')}")
    details += [weapon_text(weapon) for weapon in derived.weapons]
    if derived.abilities:
        details.append("Habiletés : " + ", ".join(derived.abilities))
    if derived.unpriced:
        details.append("Non chiffré : " + ", ".join(derived.unpriced))
    if derived.damage_track:
        details.append(
            "Indicateur de dégâts : " + " / ".join(" ".join(row) for row in derived.damage_track)
        )
    return details


PLACEMENTS = {"reserve": "Réserve", "infiltration": "Infiltration"}
ROLES = {"troupe": "", "chef": " (chef d'unité)", "specialiste": " (spécialiste)"}


def summary_lines(
    catalogue: Catalogue, index: int, result: EntryResult[NolimitsEntryDerived]
) -> list[SummaryLine]:
    """One line per part of the entry (troopers, leader, specialists), under one group."""
    derived = result.derived
    badges = [Badge(text=catalogue.category(derived.category).name, kind="category")]
    if derived.general:
        badges.append(Badge(text="Général d'armée", kind="general"))
    if derived.battle_standard:
        badges.append(Badge(text="Bannière d'armée", kind="banner"))
    if derived.placement:
        badges.append(Badge(text=PLACEMENTS[derived.placement], kind="placement"))
    lines = []
    for number, part in enumerate(derived.parts):
        first = number == 0
        lines.append(
            SummaryLine(
                name=part.name + ROLES[part.role],
                count=part.count,
                points_each=part.points_each,
                points=part.points,
                group=f"{index + 1}. {result.name}",
                badges=badges if first else [],
                details=unit_details(part.derived),
                house_rules=part.derived.house_rules,
                issues=result.issues if first else list[Issue](),
            )
        )
    return lines
