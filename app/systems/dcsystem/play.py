"""DCSystem at the table: its play traits (app/systems/play_traits.py) and the odds page.

Each fighter loses a red die per PV lost and leaves the game with none left (L234); taking
him out is worth his level to the opponent (L310-312). The odds panel gives each shooting
pool of the list its chance of at least one wound (C.3, L228-238). Numbers are read from the
share's frozen validation (the fighter's derived level and dice), never from its labels.
Lnn = line of shared/rules/dcsystem-stargates-war.fr.txt.
"""

from typing import Any

from pydantic import ValidationError

from app.systems.dcsystem.catalogue import DcsystemDice
from app.systems.dcsystem.odds import (
    MAX_DICE,
    SUCCESS_LABELS,
    SuccessOn,
    at_least_one_wound,
    successes,
    wounds,
)
from app.systems.inputs import is_digits
from app.systems.play_traits import (
    Counter,
    FigureTraits,
    OpponentScore,
    Panel,
    Played,
    PlayTraits,
    fraction_text,
    percent,
)
from app.systems.sheet import SheetEntry

MAX_EACH = 15  # dice of one colour on the odds page (a level-3 fighter has a dozen at most)


def fighter(played: Played, entry: SheetEntry) -> tuple[int, DcsystemDice] | None:
    """The level and dice the frozen validation gives the card's fighter."""
    result = played.entry_result(entry)
    derived = result.get("derived") if result else None
    if not isinstance(derived, dict) or not isinstance(derived.get("level"), int):
        return None
    try:
        return derived["level"], DcsystemDice.model_validate(derived.get("dice"))
    except ValidationError:
        return None


def figure(played: Played, entry: SheetEntry) -> FigureTraits:
    """L234: each PV lost takes a red die off; no red die left: out of the game."""
    found = fighter(played, entry)
    if found is None:
        return FigureTraits()
    level, dice = found
    counters = (Counter("red", "Dés rouges perdus", dice.red, out=True),) if dice.red else ()
    return FigureTraits(counters=counters, worth=level)


def odds_panel(played: Played) -> dict[str, Any] | None:
    """Each shooting pool of the list (red + white dice, then with its blue dice): the chance
    of at least one wound at 5+, 6 and 6 then 4+ (C.3, L228-238)."""
    pools: set[int] = set()
    for entry in played.sheet.entries:
        found = fighter(played, entry)
        if found is not None and found[1].white:
            dice = found[1]
            pools.add(dice.red + dice.white)
            pools.add(dice.red + dice.white + dice.blue)
    if not pools:
        return None
    success_on: list[SuccessOn] = ["5+", "6", "6_then_4+"]
    rows = [
        {
            "dice": dice,
            "chances": [
                (fraction_text(chance), percent(chance))
                for chance in (at_least_one_wound(dice, on) for on in success_on)
            ],
        }
        for dice in sorted(pools)
    ]
    return {"rows": rows, "labels": [SUCCESS_LABELS[on] for on in success_on]}


PLAY = PlayTraits(
    figure=figure,
    panels=(Panel("odds", "odds_table.html", odds_panel),),
    opponent_score=OpponentScore(source="L310-312"),
)


# --- the odds page (/dcsystem/chances) ---------------------------------------------------


def read_pool(form: dict[str, str]) -> tuple[int, dict[str, str]]:
    """The dice the odds form asks for, and the error of each field that is wrong."""
    errors: dict[str, str] = {}
    counts: dict[str, int] = {}
    for field in ("rouges", "bleus", "blancs"):
        value = form[field].strip()
        if not is_digits(value) or int(value) > MAX_EACH:
            errors[field] = f"« {value} » : un nombre de dés de 0 à {MAX_EACH}."
        else:
            counts[field] = int(value)
    if form["reussite"] not in SUCCESS_LABELS:
        errors["reussite"] = "Choisissez 5+, 6 ou 6 puis 4+."
    dice = sum(counts.values())
    if not errors and not 1 <= dice <= MAX_DICE:
        errors["rouges"] = f"Lancez de 1 à {MAX_DICE} dés en tout."
    return dice, errors


def pool_odds(dice: int, reussite: str) -> dict[str, Any]:
    """Odds of a pool of `dice`: k successes and the PV they take off, exact."""
    on: Any = reussite
    chance = at_least_one_wound(dice, on)
    return {
        "dice": dice,
        "label": SUCCESS_LABELS[reussite],
        "at_least_one": fraction_text(chance),
        "at_least_one_pct": percent(chance),
        "successes": [(k, fraction_text(p), percent(p)) for k, p in successes(dice, on).items()],
        "wounds": [(w, fraction_text(p), percent(p)) for w, p in wounds(dice, on).items()],
    }


def chances_context(rouges: str, bleus: str, blancs: str, reussite: str) -> dict[str, Any]:
    """What /dcsystem/chances shows: the form as sent, its errors, the odds when none."""
    form = {"rouges": rouges[:8], "bleus": bleus[:8], "blancs": blancs[:8], "reussite": reussite}
    dice, errors = read_pool(form)
    return {
        "form": form,
        "errors": errors,
        "result": None if errors else pool_odds(dice, reussite),
        "max_each": MAX_EACH,
        "success_choices": list(SUCCESS_LABELS.items()),
    }
