"""The « Quelles sont mes chances ? » panel: its form, read into an odds query.

A figure travels in one select value, "rep|leader|star|weapon" ("4|1|0|mitraillette"), so
that the panel needs nothing but the form; the situation is one test and its few flags.
"""

from typing import Any

from pydantic import TypeAdapter, ValidationError
from starlette.datastructures import FormData

from app.systems.bastos.catalogue import Catalogue
from app.systems.bastos.engine import TARGET_CASES
from app.systems.bastos.odds import BastosOddsAnswer, odds
from app.systems.bastos.queries import OddsQuery
from app.systems.inputs import is_digits

QUERY: TypeAdapter[Any] = TypeAdapter(OddsQuery)

# The situations the panel offers, as the text names them.
TESTS: dict[str, str] = {
    "rep_test": "Test de Rep (L80)",
    "activation": "Activation (L73)",
    "shooting": "Tir, un dé (L115-138)",
    "wound": "Blessure infligée par son arme (L140-150)",
    "jam": "Enrayage au taux maximum (L152)",
    "melee": "Corps à corps, un tour (L209-222)",
    "in_sight": "Ennemi en vue (L97-107)",
    "received_fire": "Pris pour cible (L154-166)",
    "charge": "Charge (L185-195)",
    "charged": "Réception de charge (L197-207)",
    "fast_move": "Mouvement rapide (L82-88)",
    "stunned_recovery": "Récupération d'une figurine sonnée (L166-183)",
    "rally": "Ralliement (L226-236)",
    "end_of_game_recovery": "Récupération en fin de partie (L238-248)",
}
TARGETS: dict[str, str] = {
    "open": "À découvert",
    "open_second_target": "2e cible, à découvert",
    "open_third_target": "3e cible ou plus",
    "prone": "À plat-ventre",
    "fast_move": "En mouvement rapide",
    "cover": "À couvert",
}
# Which flags each situation asks about (the panel shows only those).
FLAGS: dict[str, tuple[str, ...]] = {
    "shooting": ("target", "minus_one"),
    "melee": ("opponent", "enemies"),
    "in_sight": ("cover",),
    "received_fire": ("cover", "outgunned", "flank"),
    "charge": ("cover", "by_leader"),
    "charged": ("cover", "flank"),
    "fast_move": ("by_leader",),
    "rally": ("cover",),
}


def figure_value(rep: int, leader: bool, star: bool, weapon: str | None) -> str:
    return f"{rep}|{int(leader)}|{int(star)}|{weapon or ''}"


def parse_figure(value: str) -> dict[str, Any] | None:
    parts = value.split("|")
    if len(parts) != 4 or not is_digits(parts[0].removeprefix("-")):
        return None
    return {
        "rep": int(parts[0]),
        "leader": parts[1] == "1",
        "star": parts[2] == "1",
        "weapon": parts[3] or None,
    }


def panel_values(form: FormData | None) -> dict[str, Any]:
    """What the panel's form says (defaults when it was never sent)."""
    get = form.get if form is not None else (lambda _key, default=None: default)
    test = str(get("odds-test") or "rep_test")
    opponent = str(get("odds-opponent") or "4")
    enemies = str(get("odds-enemies") or "1")
    return {
        "figure": str(get("odds-figure") or ""),
        "test": test if test in TESTS else "rep_test",
        "target": str(get("odds-target") or "open"),
        "opponent": int(opponent) if opponent in "123456" and len(opponent) == 1 else 4,
        "enemies": int(enemies) if enemies in ("1", "2", "3") else 1,
        "minus_one": bool(get("odds-minus-one")),
        "cover": bool(get("odds-cover")),
        "outgunned": bool(get("odds-outgunned")),
        "flank": bool(get("odds-flank")),
        "by_leader": bool(get("odds-by-leader")),
    }


def query_of(figure: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """The odds query (api-v1: POST /api/v1/systems/bastos/odds) the panel asks."""
    test, rep = values["test"], figure["rep"]
    weapon = figure["weapon"]
    if test == "rep_test":
        return {"test": test, "rep": rep, "leader_die": figure["leader"]}
    if test == "activation":
        return {"test": test, "rep": rep}
    if test == "shooting":
        target = TARGET_CASES.get(values["target"], TARGET_CASES["open"])
        return {
            "test": test,
            "rep": rep - 1 if values["minus_one"] else rep,
            "weapon": weapon or "corps_a_corps",
            "cover": target.cover,
            "prone": target.prone,
            "fast_move": target.fast_move,
            "target_rank": target.rank,
        }
    if test == "wound":
        return {"test": test, "weapon": weapon or "corps_a_corps"}
    if test == "jam":
        return {"test": test, "dice": 1}  # replaced by the weapon's rate in `answer`
    if test == "melee":
        own = {"rep": rep, "leader": figure["leader"], "weapon": weapon}
        own["enemies_in_contact"] = values["enemies"]
        return {"test": test, "figure": own, "opponent": {"rep": values["opponent"]}}
    return {
        "test": test,
        "rep": rep,
        "leader": figure["leader"],
        "star": figure["star"],
        "in_cover": values["cover"],
        "outgunned": values["outgunned"],
        "flank_or_rear": values["flank"],
        "activated_by_leader": values["by_leader"],
    }


def answer(catalogue: Catalogue, values: dict[str, Any]) -> BastosOddsAnswer | str:
    """The answer for the panel, or what keeps it from being asked (in French)."""
    figure = parse_figure(values["figure"])
    if figure is None:
        return "Choisissez une figurine."
    if figure["weapon"] is not None and not catalogue.has("weapons", figure["weapon"]):
        return "Arme inconnue."
    query = query_of(figure, values)
    if values["test"] == "jam":
        rate = catalogue.weapon(figure["weapon"]).rate if figure["weapon"] else None
        if not rate:
            return "Cette figurine n'a pas d'arme à feu : rien ne s'enraye."
        query["dice"] = rate
    if values["test"] == "shooting" and (
        figure["weapon"] is None or catalogue.weapon(figure["weapon"]).rate is None
    ):
        return "Cette figurine n'a pas d'arme à feu : elle ne tire pas."
    try:
        return odds(catalogue, QUERY.validate_python(query))
    except ValidationError:
        return "Rep hors des valeurs du jeu : corrigez la figurine."
