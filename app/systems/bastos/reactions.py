"""The tables read on 2, 1 or 0 successes (L82-88, L97-107, L154-164, L173-248), exactly.

Each table maps a number of successes, and the figure's situation, to what it does.
Lnnn = line of shared/rules/pour-quelques-bastos-de-plus.fr.txt.
"""

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from app.systems.bastos.dice import rep_test

TableId = Literal[
    "fast_move",
    "in_sight",
    "received_fire",
    "charge",
    "charged",
    "stunned_recovery",
    "rally",
    "end_of_game_recovery",
]


@dataclass(frozen=True)
class Situation:
    """What the tables ask about the figure at the moment it tests."""

    in_cover: bool = False  # « A couvert » / « A découvert »
    outgunned: bool = False  # « surclassé » (L73)
    fast_moving: bool = False  # « en mouvement rapide »
    cover_within_7_5cm: bool = False  # L156 « un couvert à moins de 7,5cm »
    flank_or_rear: bool = False  # « visé / chargé depuis le flanc ou l'arrière »
    in_building: bool = False  # L232 « dans un bâtiment »
    fled: bool = False  # L248: the figure fled rather than fell Hors de Combat


Row = Callable[[int, Situation], str]


def is_outgunned(own_class: int | None, enemy_class: int | None) -> bool:
    """L73: « Quand une figurine a une arme d'une classe inférieure à celle de son adversaire,
    on dit qu'elle est surclassée. » No class (« - », L67, or no weapon) is below every class."""
    if enemy_class is None:
        return False
    return own_class is None or own_class < enemy_class


def _fast_move(n: int, s: Situation) -> str:  # L82-88
    return ("moves_20cm_counts_as_fast", "moves_30cm", "moves_40cm")[n]


def _cover_decides(two: str, covered: str, in_the_open: str, none: str) -> Row:
    """A table that asks one thing, on 1 success only: whether the figure is in cover."""

    def row(n: int, s: Situation) -> str:
        if n == 2:
            return two
        if n == 1:
            return covered if s.in_cover else in_the_open
        return none

    return row


# L97-107
_in_sight = _cover_decides("fires", "fires_hastily", "dives_for_cover", "stays_cannot_fire")


def _received_fire(n: int, s: Situation) -> str:  # L154-164; first clause that applies
    if n == 2:
        if s.in_cover:
            return "returns_fire_rep_minus_1" if s.outgunned else "returns_fire"
        if s.outgunned and (not s.fast_moving or s.cover_within_7_5cm):
            return "dives_for_cover"
        return "finishes_move_and_fires"
    if n == 1:
        if s.outgunned:
            return "dives_for_cover" if s.in_cover else "goes_prone"
        if s.flank_or_rear:
            return "flees"
        return "returns_fire_rep_minus_1" if s.in_cover else "stops_and_returns_fire_rep_minus_1"
    return "flees"


# L185-195
_charge = _cover_decides("charges", "stays_and_fires", "charges", "stays")


def _charged(n: int, s: Situation) -> str:  # L197-207; first clause that applies
    if n == 2:
        return "turns_and_fights_rep_minus_1" if s.flank_or_rear else "fires_and_readies"
    if n == 1:
        if s.in_cover:
            return "fires_and_readies"
        return "flees" if s.flank_or_rear else "readies_cannot_fire"
    return "readies" if s.in_cover else "flees"


def _rally(n: int, s: Situation) -> str:  # L226-236
    if n == 2 or (n == 1 and (s.in_cover or s.in_building)):
        return "back_in_the_fight"
    return "removed"


def _end_of_game(n: int, s: Situation) -> str:  # L238-248
    if n == 2:
        return "full_rep"
    if n == 1:
        return "rep_minus_1"
    return "never_returns" if s.fled else "dies_of_wounds"


@dataclass(frozen=True)
class Table:
    name: str
    source: str
    row: Row | None
    leader_die_table: bool = False  # « (2 dés, DL) »
    stars_choose: bool = False  # « Les stars choisissent leur réaction. »
    star_outcome: str = "star_chooses"


TABLES: dict[TableId, Table] = {
    "fast_move": Table("Test de Mouvement Rapide", "L82-88", _fast_move, leader_die_table=True),
    "in_sight": Table("Test Ennemi en Vue", "L97-107", _in_sight),
    "received_fire": Table("Test Pris pour Cible", "L154-166", _received_fire, stars_choose=True),
    "charge": Table(
        "Test de Charge", "L185-195", _charge, leader_die_table=True, stars_choose=True
    ),
    "charged": Table("Test de Réception de Charge", "L197-207", _charged, stars_choose=True),
    "stunned_recovery": Table("Test de Récupération des Figurines Sonnées", "L166-183", None),
    "rally": Table(
        "Test de Ralliement",
        "L226-236",
        _rally,
        stars_choose=True,
        star_outcome="back_in_the_fight",
    ),
    "end_of_game_recovery": Table(
        "Test de Récupération des Figurines Hors de Combat ou Enfuies",
        "L238-248",
        _end_of_game,
        stars_choose=True,
        star_outcome="full_rep",
    ),
}

LABELS: dict[str, str] = {
    "moves_40cm": "Mouvement de 40cm",
    "moves_30cm": "Mouvement de 30cm",
    "moves_20cm_counts_as_fast": "Mouvement de 20cm, compté comme mouvement rapide pour le tir",
    "fires": "Tire",
    "fires_hastily": "Tire précipitamment, au taux maximum et à Rep -1",
    "dives_for_cover": "Plonge à couvert",
    "stays_cannot_fire": "Reste en place et ne peut pas tirer",
    "returns_fire": "Riposte normalement",
    "returns_fire_rep_minus_1": "Riposte à Rep -1",
    "finishes_move_and_fires": "Termine le mouvement et tire normalement",
    "goes_prone": "Se met à plat-ventre",
    "stops_and_returns_fire_rep_minus_1": "S'immobilise et riposte à Rep -1",
    "flees": "S'enfuit",
    "charges": "Charge au corps à corps",
    "stays_and_fires": "Reste en place et tire si c'est possible",
    "stays": "Reste sur place",
    "turns_and_fights_rep_minus_1": "Se tourne face à la menace, combat à Rep -1 au premier tour",
    "fires_and_readies": "Tire si possible et se prépare au corps à corps",
    "readies_cannot_fire": "Ne peut pas tirer mais se prépare au corps à corps",
    "readies": "Se prépare au corps à corps",
    "back_in_the_fight": "De retour dans la mêlée",
    "out_of_action": "Hors de Combat",
    "removed": "Retiré du jeu",
    "full_rep": "Revient avec sa Rep normale",
    "rep_minus_1": "Revient avec Rep -1",
    "dies_of_wounds": "Meurt de ses blessures",
    "never_returns": "Ne revient jamais",
    "star_chooses": "La star choisit sa réaction",
}


def uses_leader_die(table: TableId, *, leader: bool, activated_by_leader: bool) -> bool:
    """L80: « Les leaders utilisent un dé de leader pour tous leurs tests personnels »; other
    figures on the tables marked DL, « si elle est activée par un leader »."""
    return leader or (TABLES[table].leader_die_table and activated_by_leader)


def stunned_recovery(rep: int, *, leader_die: bool = False) -> dict[str, Fraction]:
    """L173-183: 2 successes come back; 1 means « Repasser le test, mais en comptant 1 réussite
    comme aucune réussite », so only 2 successes on the retest come back."""
    odds = rep_test(rep, leader_die=leader_die)
    back = odds[2] + odds[1] * odds[2]
    return {"back_in_the_fight": back, "out_of_action": 1 - back}


def reaction(
    table_id: TableId,
    rep: int,
    situation: Situation | None = None,
    *,
    leader: bool = False,
    star: bool = False,
    activated_by_leader: bool = False,
) -> dict[str, Fraction]:
    """What the figure does on one table, each outcome with its exact chance."""
    table = TABLES[table_id]
    situation = situation or Situation()
    if star and table.stars_choose:
        return {table.star_outcome: Fraction(1)}
    leader_die = uses_leader_die(table_id, leader=leader, activated_by_leader=activated_by_leader)
    if table.row is None:
        return stunned_recovery(rep, leader_die=leader_die)
    odds: dict[str, Fraction] = {}
    for successes, chance in rep_test(rep, leader_die=leader_die).items():
        outcome = table.row(successes, situation)
        odds[outcome] = odds.get(outcome, Fraction(0)) + chance
    return odds
