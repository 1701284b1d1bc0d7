"""Bastos dice odds, each checked against the text's words and a brute-force count of the dice.

The brute-force counts below are written again from the rule text, apart from the engine.
Lnnn = line of shared/rules/pour-quelques-bastos-de-plus.fr.txt.
"""

import tomllib
from collections import Counter
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any, Literal

import pytest
from pydantic import TypeAdapter, ValidationError

from app.systems.bastos import Catalogue, OddsQuery, load_catalogue, odds
from app.systems.bastos.dice import (
    activation,
    activation_chance,
    activation_many_players,
    can_activate,
    decimal,
    fraction_text,
    one_die_test,
    rep_test,
    successes,
)
from app.systems.bastos.melee import Fighter, Margin, melee, melee_effects
from app.systems.bastos.reactions import TABLES, Situation, TableId, is_outgunned, reaction
from app.systems.bastos.shooting import (
    Target,
    hit_chance,
    jam_chance,
    jams,
    shot_hits,
    shot_outcome,
    volley,
    wound,
    wound_result,
)
from app.systems.bastos.zombies import zombie_appears, zombie_melee, zombie_wound

D6 = range(1, 7)
CATALOGUE = Path(__file__).resolve().parents[2] / "data" / "systems" / "bastos" / "catalogue.toml"
QUERY: TypeAdapter[Any] = TypeAdapter(OddsQuery)


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    loaded = load_catalogue(tomllib.loads(CATALOGUE.read_text(encoding="utf-8")))
    assert not isinstance(loaded, list), loaded
    return loaded


def share(hits: int, rolls: int) -> Fraction:
    return Fraction(hits, rolls)


def brute_successes(rep: int, dice: int) -> Counter[int]:
    """L80 counted by hand: every roll of `dice` d6, dice at most Rep, 2 at most."""
    counts: Counter[int] = Counter()
    for roll in product(D6, repeat=dice):
        counts[min(2, len([d for d in roll if d <= rep]))] += 1
    return counts


def brute_rep_test(rep: int, dice: int) -> dict[int, Fraction]:
    counts = brute_successes(rep, dice)
    return {n: share(counts[n], 6**dice) for n in (2, 1, 0)}


# ------------------------------------------------------------------ fractions


@pytest.mark.parametrize(
    ("value", "text"),
    [(Fraction(0), "0"), (Fraction(1), "1"), (Fraction(50, 72), "25/36"), (Fraction(2, 6), "1/3")],
)
def test_fraction_text(value: Fraction, text: str) -> None:
    # api-v1.md: « exact fractions written as strings in lowest terms », "0" and "1" at the ends.
    assert fraction_text(value) == text


def test_fraction_text_refuses_non_probabilities() -> None:
    with pytest.raises(ValueError):
        fraction_text(Fraction(7, 6))
    assert decimal(Fraction(25, 36)) == 0.6944


# ------------------------------------------------------------------ Rep tests (L80)


@pytest.mark.parametrize("rep", range(-1, 8))
@pytest.mark.parametrize("leader_die", [False, True])
def test_rep_test_brute_force(rep: int, leader_die: bool) -> None:
    # L80 « On teste généralement la réputation en lançant deux dés »; with the DL « une
    # figurine lance 3 dés au lieu de 2. Cependant, on ne peut obtenir que 2 réussites ».
    assert rep_test(rep, leader_die=leader_die) == brute_rep_test(rep, 3 if leader_die else 2)


@pytest.mark.parametrize(
    ("rep", "two_dice", "leader_die"),
    [
        # shared/design/rules/bastos.md §3.3, checked: p = Rep/6, P(2) = p², P(0) = (1-p)².
        (1, ("1/36", "5/18", "25/36"), ("2/27", "25/72", "125/216")),
        (2, ("1/9", "4/9", "4/9"), ("7/27", "4/9", "8/27")),
        (3, ("1/4", "1/2", "1/4"), ("1/2", "3/8", "1/8")),
        (4, ("4/9", "4/9", "1/9"), ("20/27", "2/9", "1/27")),
        (5, ("25/36", "5/18", "1/36"), ("25/27", "5/72", "1/216")),
        (6, ("1", "0", "0"), ("1", "0", "0")),
    ],
)
def test_rep_test_table(rep: int, two_dice: tuple[str, ...], leader_die: tuple[str, ...]) -> None:
    assert tuple(map(fraction_text, rep_test(rep).values())) == two_dice
    assert tuple(map(fraction_text, rep_test(rep, leader_die=True).values())) == leader_die


@pytest.mark.parametrize(
    ("rep", "dice", "expected"),
    [
        # L255 « Le premier lance deux dés et obtient 1 et 4. [...] Il a donc deux réussites. »
        (4, (1, 4), 2),
        # L255 « Le second lance deux dés et obtient 2 et 6. [...] Il a donc une réussite. »
        (4, (2, 6), 1),
        # L255 Bob (Rep 3) « obtient 5 et 4. [...] Bob a donc 0 réussite »
        (3, (5, 4), 0),
        # L262 « Le premier obtient 1 et 3 : deux réussites. »
        (4, (1, 3), 2),
        # L282 « un Test de Charge en lançant trois dés en tout : 3, 4 et 6. [...] Le chef et
        # les vétérans ont deux réussites. Les bleus n'ont qu'une seule réussite »
        (5, (3, 4, 6), 2),
        (4, (3, 4, 6), 2),
        (3, (3, 4, 6), 1),
        # L282 « Le test donne 4 et 6. Le vétéran a une réussite. Le bleu aucune réussite. »
        (4, (4, 6), 1),
        (3, (4, 6), 0),
    ],
)
def test_successes_of_the_text(rep: int, dice: tuple[int, ...], expected: int) -> None:
    assert successes(rep, dice) == expected


def test_one_die_test() -> None:
    # L80 « il suffit de lancer un dé. Si le résultat du dé est inférieur ou égal à la Rep »
    assert [one_die_test(rep) for rep in range(0, 8)] == [
        share(min(rep, 6), 6) for rep in range(0, 8)
    ]


# ------------------------------------------------------------------ activation (L73)


@pytest.mark.parametrize(
    ("rep", "die", "can"),
    [
        (4, 4, True),  # L255 « les stormtroopers obtiennent 4 [...] Rooko (Rep 4) peut s'activer »
        (3, 4, False),  # L255 « mais pas le seconde classe » (Rep 3)
        (4, 6, False),  # L255 « ne peuvent activer que des figurines de Rep 6 ou plus »
        (
            4,
            3,
            True,
        ),  # L262 « peuvent s'activer tous les deux (leur Rep étant supérieure [...] 3) »
        (3, 1, True),  # L262 « Avec un dé d'activation de 1, ils peuvent bouger comme ils veulent »
    ],
)
def test_activation_of_the_text(rep: int, die: int, can: bool) -> None:
    assert can_activate(rep, die) is can


@pytest.mark.parametrize("rep", range(0, 8))
def test_activation_brute_force(rep: int) -> None:
    # L73 « En cas d'égalité, relancez les dés immédiatement »: re-rolling until the dice differ
    # is P(unequal and good) / (1 - P(tie)), the geometric series of the re-rolls.
    pairs = list(product(D6, D6))
    tie = share(sum(a == b for a, b in pairs), 36)
    first = share(sum(a != b and a <= rep and a > b for a, b in pairs), 36) / (1 - tie)
    second = share(sum(a != b and a <= rep and a < b for a, b in pairs), 36) / (1 - tie)
    odds_ = activation(rep)
    assert (odds_["acts_first"], odds_["acts_second"]) == (first, second)
    assert activation_chance(rep) == first + second == share(max(0, min(rep, 6)), 6)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_activation_many_players_brute_force(players: int) -> None:
    # L282 « Si plusieurs joueurs font une égalité, ils ne jouent pas ce tour. »
    for rep in (3, 4, 5):
        acts = sum(
            roll[0] <= rep and roll.count(roll[0]) == 1 for roll in product(D6, repeat=players)
        )
        expected = share(acts, 6**players)
        assert activation_many_players(rep, players)["acts"] == expected
        # The figure's die is any of the Rep faces, no other player on it: Rep/6 · (5/6)^(n-1).
        assert expected == share(rep, 6) * Fraction(5, 6) ** (players - 1)


# ------------------------------------------------------------------ shooting (L115-138)


def text_table(total: int, cover: bool, prone: bool, fast: bool, rank: int) -> bool:
    """The Tableau de tir (L115-129) written out again."""
    if total >= 10:  # « 10+ Touché ! »
        return True
    if total == 9:  # « Si cible à couvert, raté ! Troisième cible ou plus, raté ! »
        return not cover and rank <= 2
    if total == 8:  # « Si cible à couvert [...] plat-ventre [...] mouvement rapide [...]
        return not cover and not prone and not fast and rank == 1  # Deuxième cible ou plus »
    return False  # « 3 à 7 Raté ! »


def brute_hit(rep: int, cover: bool, prone: bool, fast: bool, rank: int) -> Fraction:
    hits = 0
    for die, spare in product(D6, D6):
        if text_table(die + rep, cover, prone, fast, rank):
            hits += 1
        # L138 « obtient un 6 à son dé, mais ne touche pas parce que la cible est à couvert,
        # teste immédiatement sa Rep avec 1 dé. Si elle réussit, elle touche sa cible. »
        elif die == 6 and cover and text_table(die + rep, False, prone, fast, rank):
            hits += spare <= rep
    return share(hits, 36)


RANKS: tuple[Literal[1, 2, 3], ...] = (1, 2, 3)
TARGETS = [
    Target(cover, prone, fast, rank)
    for cover, prone, fast, rank in product((False, True), (False, True), (False, True), RANKS)
]


@pytest.mark.parametrize("rep", range(0, 8))
def test_hit_chance_brute_force(rep: int) -> None:
    for target in TARGETS:
        expected = brute_hit(rep, target.cover, target.prone, target.fast_move, target.rank)
        assert hit_chance(rep, target) == expected, target


@pytest.mark.parametrize(
    ("rep", "row"),
    [
        # shared/design/rules/bastos.md §3.3 « Shooting, chance to hit per die », checked:
        # open 1st, open 2nd, open 3rd+, fast move, prone, in cover.
        (1, ("0", "0", "0", "0", "0", "0")),
        (2, ("1/6", "0", "0", "0", "0", "1/18")),
        (3, ("1/3", "1/6", "0", "1/6", "1/6", "1/12")),
        (4, ("1/2", "1/3", "1/6", "1/3", "1/3", "1/6")),
        (5, ("2/3", "1/2", "1/3", "1/2", "1/2", "1/3")),
        (6, ("5/6", "2/3", "1/2", "2/3", "2/3", "1/2")),
    ],
)
def test_hit_chance_table(rep: int, row: tuple[str, ...]) -> None:
    targets = [
        Target(),
        Target(rank=2),
        Target(rank=3),
        Target(fast_move=True),
        Target(prone=True),
        Target(cover=True),
    ]
    assert tuple(fraction_text(hit_chance(rep, t)) for t in targets) == row


def test_shots_of_the_worked_example() -> None:
    # L255 « Il lance le premier dé et obtient 4. Additionné à sa Rep de 4, le résultat est 8.
    # Le tableau de Tir donne un résultat de "Touché !". » (Rooko, first target, in the open)
    assert shot_hits(4, 4, Target(rank=1))
    # L255 « Sur le second dé, celui qui vise Bob, il obtient 4 aussi [...] "Deuxième cible ou
    # plus, raté !" »
    assert not shot_hits(4, 4, Target(rank=2))
    # L255 « Le rebelle lance maintenant un dé pour blesser et obtient 1. Raide Mort ! »
    assert wound_result(1, 2) == "dead"
    # L264 « Il obtient 4 et 4 [...] 8 et 8. Bob étant à couvert, le laser ne fait que brûler
    # le mur. » and, at Rep 3 (« tir à Rep-1 »), « 5 et 2 [...] 8 et 5 »: no hit.
    assert not any(shot_hits(4, die, Target(cover=True)) for die in (4, 4))
    assert not any(shot_hits(3, die, Target(cover=True)) for die in (5, 2))
    # L266 Bob (Rep 3) « 1, 6 et 3, ce qui donne 4, 9 et 6 [...] il bénéficie de la règle "Tir
    # désespéré". Il relance son dé et obtient 5. C'est raté ». The third die is on the
    # second rebel: 6 misses anyway.
    assert not shot_hits(3, 1, Target(cover=True))
    assert not shot_hits(3, 6, Target(cover=True), desperate_die=5)
    assert shot_hits(3, 6, Target(cover=True), desperate_die=3)
    assert not shot_hits(3, 3, Target(cover=True, rank=2))
    # L152: one natural 1 among 1, 6, 3 does not jam.
    assert not jams((1, 6, 3))


@pytest.mark.parametrize("impact", range(1, 7))
def test_wound_brute_force(impact: int) -> None:
    # L140-150 « Résultat de “1” Raide Mort ! », « inférieur ou égal à l'Impact de l'arme Hors
    # de Combat ! », « supérieur à l'Impact de l'arme Sonné ! »
    dead = share(1, 6)
    out = share(len([d for d in D6 if 1 < d <= impact]), 6)
    assert wound(impact) == {"dead": dead, "out_of_action": out, "stunned": 1 - dead - out}


def test_wound_by_weapon() -> None:
    # Impact 2 (L27, L37, L47, L65): 1/6, 1/6, 2/3; Impact 3 (L57): 1/6, 1/3, 1/2.
    assert list(map(fraction_text, wound(2).values())) == ["1/6", "1/6", "2/3"]
    assert list(map(fraction_text, wound(3).values())) == ["1/6", "1/3", "1/2"]


@pytest.mark.parametrize("dice", range(1, 5))
def test_jam_brute_force(dice: int) -> None:
    # L152 « deux 1 naturels (ou plus) aux dés »
    rolls = list(product(D6, repeat=dice))
    expected = share(sum(sum(d == 1 for d in roll) >= 2 for roll in rolls), len(rolls))
    assert jam_chance(dice) == expected
    # 1 - (5/6)^n - n·(1/6)·(5/6)^(n-1): 0, 1/36, 2/27 for 1, 2, 3 dice (rates L25, L35, L45).
    closed = 1 - Fraction(5, 6) ** dice - dice * Fraction(1, 6) * Fraction(5, 6) ** (dice - 1)
    assert jam_chance(dice) == closed


def brute_volley(rep: int, dice: int, target: Target) -> dict[int, Fraction]:
    """L115 « On répète la procédure autant de fois que le nombre de dés tiré. »"""
    counts: Counter[int] = Counter()
    for pairs in product(product(D6, D6), repeat=dice):
        counts[sum(shot_hits(rep, die, target, spare) for die, spare in pairs)] += 1
    return {n: share(counts[n], 36**dice) for n in range(dice, -1, -1)}


def test_shot_outcome_and_volley_brute_force() -> None:
    for rep, target, impact in product((2, 3, 4, 5), (Target(), Target(cover=True)), (2, 3)):
        hit = brute_hit(rep, target.cover, target.prone, target.fast_move, target.rank)
        per_die = shot_outcome(rep, target, impact)
        expected: dict[str, Fraction] = {"miss": 1 - hit}
        expected |= {k: hit * p for k, p in wound(impact).items()}
        assert per_die == expected
        for dice in (1, 2):
            assert volley(rep, dice, target) == brute_volley(rep, dice, target)
    # Three dice, the most a weapon of the table rolls (L45, L55).
    assert volley(3, 3, Target(cover=True)) == brute_volley(3, 3, Target(cover=True))


# ------------------------------------------------------------------ melee (L209-222)


def brute_melee(a: Fighter, b: Fighter) -> Counter[int]:
    """Every die of both fighters, as L209 says: « Chaque figurine lance deux dés »."""
    diffs: Counter[int] = Counter()
    dice_a, dice_b = (3 if a.leader_die else 2), (3 if b.leader_die else 2)
    for roll in product(D6, repeat=dice_a + dice_b):
        own = min(2, sum(d <= a.fighting_rep for d in roll[:dice_a]))
        other = min(2, sum(d <= b.fighting_rep for d in roll[dice_a:]))
        diffs[own - other] += 1
    return diffs


MELEE_KEYS = {2: "win_by_2", 1: "win_by_1", 0: "tie", -1: "lose_by_1", -2: "lose_by_2"}


@pytest.mark.parametrize("rep_a", range(1, 7))
@pytest.mark.parametrize("rep_b", range(1, 7))
def test_melee_brute_force(rep_a: int, rep_b: int) -> None:
    for leader_a, leader_b in ((False, False), (True, False)):
        a, b = Fighter(rep_a, leader_die=leader_a), Fighter(rep_b, leader_die=leader_b)
        diffs = brute_melee(a, b)
        total = sum(diffs.values())
        assert melee(a, b) == {MELEE_KEYS[d]: share(diffs[d], total) for d in (2, 1, 0, -1, -2)}


@pytest.mark.parametrize(
    ("rep_a", "rep_b", "row"),
    [
        # shared/design/rules/bastos.md §3.3 « Melee, 2 dice each » (tie, A by 1, A by 2,
        # B by 1, B by 2), checked.
        (3, 3, ("3/8", "1/4", "1/16", "1/4", "1/16")),
        (4, 4, ("11/27", "20/81", "4/81", "20/81", "4/81")),
        (5, 5, ("121/216", "65/324", "25/1296", "65/324", "25/1296")),
        (4, 3, ("13/36", "1/3", "1/9", "1/6", "1/36")),
        (5, 3, ("23/72", "5/12", "25/144", "1/12", "1/144")),
        (5, 4, ("47/108", "55/162", "25/324", "11/81", "1/81")),
    ],
)
def test_melee_table(rep_a: int, rep_b: int, row: tuple[str, ...]) -> None:
    odds_ = melee(Fighter(rep_a), Fighter(rep_b))
    keys: tuple[Margin, ...] = ("tie", "win_by_1", "win_by_2", "lose_by_1", "lose_by_2")
    assert tuple(fraction_text(odds_[k]) for k in keys) == row


def test_melee_penalties() -> None:
    # L209 « Une figurine en contact avec deux ennemis combat à Rep -1 ; contre trois ennemis
    # ou plus elle combat à Rep -2. » L199 « combat à Rep-1 au premier tour ».
    assert Fighter(5, enemies_in_contact=2).fighting_rep == 4
    assert Fighter(5, enemies_in_contact=3).fighting_rep == 3
    assert Fighter(5, enemies_in_contact=4).fighting_rep == 3
    assert Fighter(5, enemies_in_contact=2, flank_first_round=True).fighting_rep == 3
    assert melee(Fighter(5, enemies_in_contact=2), Fighter(4)) == melee(Fighter(4), Fighter(4))


def test_melee_effects_brute_force() -> None:
    # L220 the loser rolls on the Tableau de Blessure against the winner's Impact; L222 « Lancer
    # un dé. Si le résultat est inférieur ou égal à l'impact de l'arme du vainqueur, le perdant
    # est Raide Mort. Sinon le perdant est Hors de Combat ! »
    for a, b in ((Fighter(4, impact=3), Fighter(3)), (Fighter(3, leader_die=True), Fighter(5))):
        counts: Counter[str] = Counter()
        dice_a, dice_b = (3 if a.leader_die else 2), (3 if b.leader_die else 2)
        for roll in product(D6, repeat=dice_a + dice_b + 1):
            own = min(2, sum(d <= a.rep for d in roll[:dice_a]))
            other = min(2, sum(d <= b.rep for d in roll[dice_a:-1]))
            blow = roll[-1]
            winner, loser = (a, "opponent") if own > other else (b, "figure")
            if own == other:
                counts["no_result"] += 1
            elif abs(own - other) == 2:
                counts[f"{loser}_{'dead' if blow <= winner.impact else 'out_of_action'}"] += 1
            elif blow == 1:
                counts[f"{loser}_dead"] += 1
            else:
                counts[f"{loser}_{'out_of_action' if blow <= winner.impact else 'stunned'}"] += 1
        total = sum(counts.values())
        effects = melee_effects(a, b)
        assert effects == {key: share(counts[key], total) for key in effects}
        assert sum(effects.values()) == 1


# ------------------------------------------------------------------ reaction tables

OPEN, COVER = Situation(), Situation(in_cover=True)
ROWS: list[tuple[TableId, Situation, tuple[str, str, str]]] = [
    # (table, situation, outcome on 2, 1, 0 successes), from the text
    # L82-88 « 2 réussites Mouvement de 40cm 1 réussite Mouvement de 30cm 0 réussite Mouvement
    # de 20cm, mais la figurine est considérée comme s'étant déplacée rapidement »
    ("fast_move", OPEN, ("moves_40cm", "moves_30cm", "moves_20cm_counts_as_fast")),
    # L97-107 « Tire. » / « A découvert : plonge à couvert. » / « Reste en place »
    ("in_sight", OPEN, ("fires", "dives_for_cover", "stays_cannot_fire")),
    # L103 « A couvert : tire précipitamment, au taux maximum et à Rep -1. »
    ("in_sight", COVER, ("fires", "fires_hastily", "stays_cannot_fire")),
    # L156 « A couvert : [...] sinon riposte normalement »; L160 « sinon riposte à Rep-1 »
    ("received_fire", COVER, ("returns_fire", "returns_fire_rep_minus_1", "flees")),
    # L156 « A couvert : si surclassé, riposte, mais à Rep -1 »; L160 « si surclassé, plonge »
    (
        "received_fire",
        Situation(in_cover=True, outgunned=True),
        ("returns_fire_rep_minus_1", "dives_for_cover", "flees"),
    ),
    # L156 « sinon termine le mouvement et tire normalement »; L160 « sinon s'immobilise et
    # riposte à Rep-1 »; L164 « S'enfuit. »
    (
        "received_fire",
        OPEN,
        ("finishes_move_and_fires", "stops_and_returns_fire_rep_minus_1", "flees"),
    ),
    # L156 « si surclassé et pas en mouvement rapide, plonge à couvert »; L160 « A découvert :
    # si surclassé, se met à plat-ventre »
    ("received_fire", Situation(outgunned=True), ("dives_for_cover", "goes_prone", "flees")),
    # L156 « si surclassé et en mouvement rapide, et qu'il y a un couvert à moins de 7,5cm,
    # plonge à couvert »; without that cover, « sinon termine le mouvement et tire »
    (
        "received_fire",
        Situation(outgunned=True, fast_moving=True, cover_within_7_5cm=True),
        ("dives_for_cover", "goes_prone", "flees"),
    ),
    (
        "received_fire",
        Situation(outgunned=True, fast_moving=True),
        ("finishes_move_and_fires", "goes_prone", "flees"),
    ),
    # L160 « si visé depuis le flanc ou l'arrière, s'enfuit »
    (
        "received_fire",
        Situation(flank_or_rear=True),
        ("finishes_move_and_fires", "flees", "flees"),
    ),
    # L185-195 « Charge au corps à corps. » / « A couvert : reste en place et tire si c'est
    # possible. A découvert : charge. » / « Reste sur place. »
    ("charge", OPEN, ("charges", "charges", "stays")),
    ("charge", COVER, ("charges", "stays_and_fires", "stays")),
    # L199-207
    ("charged", OPEN, ("fires_and_readies", "readies_cannot_fire", "flees")),
    ("charged", COVER, ("fires_and_readies", "fires_and_readies", "readies")),
    ("charged", Situation(flank_or_rear=True), ("turns_and_fights_rep_minus_1", "flees", "flees")),
    # L226-236 « De retour dans la mêlée » / « A couvert ou dans un bâtiment : de retour dans la
    # mêlée. Sinon : retiré du jeu. » / « Retiré du jeu. »
    ("rally", OPEN, ("back_in_the_fight", "removed", "removed")),
    ("rally", Situation(in_building=True), ("back_in_the_fight", "back_in_the_fight", "removed")),
    # L238-248 « Revient avec sa Rep normale. » / « Revient avec Rep -1. » / « Hors de Combat :
    # meurt de ses blessures. Enfuie : ne revient jamais. »
    ("end_of_game_recovery", OPEN, ("full_rep", "rep_minus_1", "dies_of_wounds")),
    ("end_of_game_recovery", Situation(fled=True), ("full_rep", "rep_minus_1", "never_returns")),
]


@pytest.mark.parametrize(("table", "situation", "row"), ROWS)
@pytest.mark.parametrize("rep", [3, 4, 5])
def test_reaction_brute_force(
    table: TableId, situation: Situation, row: tuple[str, str, str], rep: int
) -> None:
    for leader in (False, True):
        counts = brute_successes(rep, 3 if leader else 2)
        expected: dict[str, Fraction] = {}
        for n, outcome in zip((2, 1, 0), row, strict=True):
            chance = share(counts[n], sum(counts.values()))
            expected[outcome] = expected.get(outcome, Fraction(0)) + chance
        assert reaction(table, rep, situation, leader=leader) == expected


def test_outgunned() -> None:
    # L266 « Avec leur pistolets (classe 2) contre la mitraillette (classe 4), ils sont
    # surclassés. »; the Arme de corps à corps has no class (L67).
    assert is_outgunned(2, 4)
    assert not is_outgunned(4, 2)
    assert not is_outgunned(3, 3)
    assert is_outgunned(None, 1)
    assert not is_outgunned(None, None)
    assert not is_outgunned(1, None)


def test_leader_die_tables() -> None:
    # L82 « (2 dés, DL) » and L185 « (2 dés, DL) »: a figure activated by a leader rolls 3
    # dice there, and only there (L80 « si elle est activée par un leader »).
    assert [t for t, table in TABLES.items() if table.leader_die_table] == ["fast_move", "charge"]
    with_leader = reaction("charge", 4, activated_by_leader=True)
    assert with_leader["charges"] == share(20, 27) + share(2, 9)
    assert reaction("in_sight", 4, activated_by_leader=True) == reaction("in_sight", 4)


def test_stars_choose() -> None:
    # « Les stars choisissent leur réaction » on L154, L185, L197, L226, L238; not on L97,
    # L82 nor L173.
    choosing = [t for t, table in TABLES.items() if table.stars_choose]
    assert choosing == ["received_fire", "charge", "charged", "rally", "end_of_game_recovery"]
    assert reaction("received_fire", 3, star=True) == {"star_chooses": 1}
    assert reaction("rally", 3, star=True) == {"back_in_the_fight": 1}
    assert reaction("end_of_game_recovery", 3, star=True) == {"full_rep": 1}
    assert reaction("in_sight", 3, star=True) == reaction("in_sight", 3)


@pytest.mark.parametrize("rep", range(1, 7))
@pytest.mark.parametrize("leader", [False, True])
def test_stunned_recovery_brute_force(rep: int, leader: bool) -> None:
    # L173-183 « 2 réussites De retour dans la mêlée » / « 1 réussite Repasser le test, mais en
    # comptant 1 réussite comme aucune réussite » / « Aucune réussite Hors de Combat ».
    dice = 3 if leader else 2
    back = 0
    for first, retest in product(product(D6, repeat=dice), product(D6, repeat=dice)):
        now = min(2, sum(d <= rep for d in first))
        again = min(2, sum(d <= rep for d in retest))
        back += now == 2 or (now == 1 and again == 2)
    chance = share(back, 6 ** (2 * dice))
    odds_ = reaction("stunned_recovery", rep, leader=leader)
    assert odds_ == {"back_in_the_fight": chance, "out_of_action": 1 - chance}


def test_stunned_recovery_values() -> None:
    # Rep 3: 1/4 + 1/2 · 1/4; Rep 5: 25/36 + 5/18 · 25/36 (shared/design/rules/bastos.md §3.3).
    assert fraction_text(reaction("stunned_recovery", 3)["back_in_the_fight"]) == "3/8"
    assert fraction_text(reaction("stunned_recovery", 5)["back_in_the_fight"]) == "575/648"


# ------------------------------------------------------------------ zombies (L289)


def test_zombies_brute_force() -> None:
    # « Il faut obtenir « 1 » au(x) dé(s) pour blesser. De dos ou à plus de 20cm, il faut faire
    # sa Rep ou moins »; « Impact supérieur ou égal à 2, mais pas tué, il est stoppé net ».
    assert zombie_wound(5, 2, "facing_within_20cm")["killed"] == share(1, 6)
    assert zombie_wound(5, 2, "behind_or_beyond_20cm") == {
        "killed": share(5, 6),
        "knocked_down": share(1, 6),
        "no_effect": 0,
    }
    # « Tuer un zombie au contact à terre avec une arme à feu demande juste un test sous la Rep »
    assert zombie_wound(4, 3, "down_in_contact") == {
        "killed": share(4, 6),
        "knocked_down": 0,
        "no_effect": share(2, 6),
    }
    assert zombie_wound(4, 1, "behind_or_beyond_20cm")["no_effect"] == share(2, 6)
    # « un dé par zombie [...] sous leur Rep moins l'impact de l'arme de leur adversaire. Dans
    # tous les cas, leur adversaire lance deux dés. »
    for rep, zombies, impact in ((4, 1, 2), (3, 3, 1), (5, 2, 3)):
        counts: Counter[str] = Counter()
        for roll in product(D6, repeat=2 + zombies):
            human = min(2, sum(d <= rep for d in roll[:2]))
            horde = sum(d <= 4 - impact for d in roll[2:])
            counts[
                "human_wins" if human > horde else "tie" if human == horde else "zombies_win"
            ] += 1
        total = sum(counts.values())
        expected = {k: share(counts[k], total) for k in ("human_wins", "tie", "zombies_win")}
        assert zombie_melee(rep, zombies, impact) == expected
    # « Sur un 1 ou un 2, un nouveau zombie apparait [...] niveau d'infestation des zombies de 2 »
    assert [zombie_appears(level) for level in (1, 2, 3)] == [share(n, 6) for n in (1, 2, 3)]


# ------------------------------------------------------------------ the odds query


@pytest.mark.parametrize(
    "body",
    [
        {"test": "rep_test", "rep": 4},
        {"test": "rep_test", "rep": 4, "leader_die": True},
        {"test": "activation", "rep": 4},
        {"test": "activation", "rep": 4, "players": 5},
        *({"test": table, "rep": 4, "in_cover": True} for table in TABLES),
        {"test": "shooting", "rep": 3, "weapon": "mitraillette", "cover": True},
        {"test": "wound", "weapon": "revolver"},
        {"test": "jam", "dice": 3},
        {"test": "melee", "figure": {"rep": 4, "weapon": "mitraillette"}, "opponent": {"rep": 3}},
        {"test": "zombie_wound", "rep": 4, "weapon": "revolver", "case": "facing_within_20cm"},
        {"test": "zombie_melee", "rep": 4, "zombies": 3},
        {"test": "zombie_appears", "infestation": 3},
    ],
)
def test_every_query_adds_up(catalogue: Catalogue, body: dict[str, Any]) -> None:
    answer = odds(catalogue, QUERY.validate_python(body))
    assert answer.test == body["test"]
    assert answer.issues == []
    assert sum(Fraction(o.probability) for o in answer.outcomes) == 1
    assert all(
        o.label and abs(o.decimal - float(Fraction(o.probability))) < 1e-4 for o in answer.outcomes
    )


def test_query_shooting(catalogue: Catalogue) -> None:
    # L264: a Rep 4 rebel fires its pistol's two dice (L35) at Bob in cover.
    body = {"test": "shooting", "rep": 4, "weapon": "pistolet_45", "cover": True}
    answer = odds(catalogue, QUERY.validate_python(body))
    assert {o.id: o.probability for o in answer.outcomes} == {
        "miss": "5/6",
        "dead": "1/36",
        "out_of_action": "1/36",
        "stunned": "1/9",
    }
    details = {o.id: o.probability for o in answer.details}
    assert details == {
        "hit": "1/6",
        "hits_2": "1/36",
        "hits_1": "5/18",
        "hits_0": "25/36",
        "jam": "1/36",
    }


def test_query_melee(catalogue: Catalogue) -> None:
    # Rep 4 with a mitraillette (Impact 3, L57) against an unarmed Rep 4 (Impact 2, rules notes).
    body = {"test": "melee", "figure": {"rep": 4, "weapon": "mitraillette"}, "opponent": {"rep": 4}}
    answer = odds(catalogue, QUERY.validate_python(body))
    got = {o.id: Fraction(o.probability) for o in answer.outcomes}
    by_1, by_2 = Fraction(20, 81), Fraction(4, 81)
    assert got["opponent_dead"] == by_1 / 6 + by_2 * Fraction(3, 6)
    assert got["figure_dead"] == by_1 / 6 + by_2 * Fraction(2, 6)
    assert got["no_result"] == Fraction(11, 27)


def test_query_issues(catalogue: Catalogue) -> None:
    melee_weapon = {"test": "shooting", "rep": 4, "weapon": "corps_a_corps"}
    answer = odds(catalogue, QUERY.validate_python(melee_weapon))
    assert [(i.code, i.path) for i in answer.issues] == [("weapon_cannot_shoot", "weapon")]
    assert answer.outcomes == []
    too_many = {"test": "shooting", "rep": 4, "weapon": "revolver", "dice": 2}
    answer = odds(catalogue, QUERY.validate_python(too_many))
    assert [(i.code, i.path) for i in answer.issues] == [("dice_over_rate", "dice")]


@pytest.mark.parametrize(
    "body",
    [
        {"test": "poker", "rep": 4},
        {"test": "rep_test", "rep": 11},
        {"test": "rep_test", "rep": 4, "cover": True},
        {"test": "shooting", "rep": 4, "weapon": "bazooka"},
        {"test": "activation", "rep": 4, "players": 7},
    ],
)
def test_query_refused(body: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        QUERY.validate_python(body)
