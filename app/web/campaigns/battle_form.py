"""« Après la bataille »: the form a gang's owner records a battle with (several fighters in
one form, from the phone) read into a record_battle body, and a refusal said back in the
form's terms (each problem led by the fighter it concerns, its controls marked)."""

from collections.abc import Mapping, Sequence
from typing import Any

from app.campaigns.models import MAX_FIGHTERS
from app.systems.inputs import is_digits

STATE_LABELS = {
    "active": "actif",
    "recovering": "convalescent",
    "dead": "mort",
    "retired": "retiré",
}
STALE = (
    "La liste a changé pendant ce temps (un autre appareil ?) : rien n'est enregistré, "
    "vérifiez et recommencez."
)


# The form's names of a battle line's fields (« Après la bataille »).
BATTLE_LABELS = {
    "date": "Date",
    "opponent": "Adversaire",
    "scenario": "Scénario",
    "result": "Résultat",
    "notes": "Notes",
    "corrects": "Corrige la bataille n°",
    "campaign": "Campagne",
    "opponent_roster": "Gang adverse",
    "xp": "XP gagnée",
    "rep": "Nouvelle Rep",
    "state": "État",
    "stat": "Caractéristique",
    "by": "Changement",
    "cause": "Cause",
}
# A fighter's fields in the request, each the suffix of its form control (f{entry}_{field}).
FIGHTER_CONTROLS = frozenset({"xp", "rep", "state", "stat", "by", "cause"})


def figure_prefix(entry: int, figure: int) -> str:
    """The form controls' prefix of figure `figure` (from 1) of entry `entry`: `f{entry}`
    for the first (or only) one, `f{entry}-{figure}` for the others of an entry of several."""
    return f"f{entry}" if figure == 1 else f"f{entry}-{figure}"


def battle_control(body: dict[str, Any], path: Sequence[Any]) -> tuple[str, int | None]:
    """The form control a request path names, and the entry of the fighter it concerns."""
    parts = [str(p) for p in path]
    if len(parts) >= 2 and parts[0] == "fighters" and is_digits(parts[1]):
        fighters = body.get("fighters") or []
        at = int(parts[1])
        entry = fighters[at].get("entry") if at < len(fighters) else None
        field = parts[-1] if parts[-1] in FIGHTER_CONTROLS else ""
        prefixes = body.get("_prefixes") or []
        if isinstance(entry, int):
            prefix = prefixes[at] if at < len(prefixes) else f"f{entry}"
            return (f"{prefix}_{field}" if field else ""), entry
        return "", None
    return (parts[0] if parts else ""), None


def battle_refusal(
    body: dict[str, Any], names: Sequence[str], items: Sequence[tuple[Sequence[Any], str]]
) -> tuple[str, set[str]]:
    """One French line for a refused battle, each problem led by the fighter it concerns,
    and the form controls to mark."""
    said: list[str] = []
    marked: set[str] = set()
    for path, message in items:
        control, entry = battle_control(body, path)
        if control:
            marked.add(control)
        if entry is not None and 0 <= entry < len(names):
            message = f"{names[entry]} — {message}"
        if message not in said:
            said.append(message)
    return " ; ".join(said), marked


def _int(value: Any) -> int | Any:
    text = str(value or "").strip().replace("−", "-")
    if text in ("", "+", "-"):
        return 0
    try:
        return int(text)
    except ValueError:
        return text  # refused by the model, with its field named


def battle_from_form(form: Any, counts: Sequence[int]) -> dict[str, Any]:
    """The « Après la bataille » form as a record_battle body: one row per fighter, and
    for an entry of several figures whose system keeps them apart, one row per figure
    (`counts[i]`: the rows of entry i). The body's `_prefixes` (not sent) name each
    fighter's form controls."""
    fighters = []
    prefixes = []
    rows = 0
    for index, figures in enumerate(counts):
        for figure in range(1, figures + 1):
            rows += 1
            if rows > MAX_FIGHTERS:
                break
            prefix = figure_prefix(index, figure)
            fighter = _fighter_from_form(form, prefix, index)
            if len(fighter) > 1:
                fighters.append(fighter)
                prefixes.append(prefix)
    body: dict[str, Any] = {
        "date": str(form.get("date") or "")[:10],
        "opponent": str(form.get("opponent") or "")[:100],
        "scenario": str(form.get("scenario") or "")[:100],
        "result": str(form.get("result") or "")[:8],
        "notes": str(form.get("notes") or "")[:2000],
        "fighters": fighters,
        "_prefixes": prefixes,
    }
    for key in ("campaign", "opponent_roster"):
        if form.get(key):
            body[key] = str(form.get(key))[:32]
    if form.get("corrects"):
        body["corrects"] = _int(form.get("corrects"))
    return body


def _fighter_from_form(form: Any, prefix: str, index: int) -> dict[str, Any]:
    xp = _int(form.get(f"{prefix}_xp"))
    state = str(form.get(f"{prefix}_state") or "")[:16]
    stat = str(form.get(f"{prefix}_stat") or "").strip()[:16]
    by = _int(form.get(f"{prefix}_by"))
    rep = str(form.get(f"{prefix}_rep") or "").strip()
    fighter: dict[str, Any] = {"entry": index}
    if xp:
        fighter["xp"] = xp
    if state:
        fighter["state"] = state
    if stat and by:
        cause = str(form.get(f"{prefix}_cause") or "")[:100]
        fighter["changes"] = [{"stat": stat, "by": by, "cause": cause}]
    if rep:
        fighter["rep"] = _int(rep)
    return fighter


def figure_rows(document: Mapping[str, Any], apart: bool) -> list[int]:
    """The form's rows for each entry: one per figure when the system keeps figures apart
    (`figures_apart`), else one (bounded: a roster holds at most MAX_FIGHTERS entries)."""
    rows = []
    for entry in list(document.get("entries", []))[:MAX_FIGHTERS]:
        count = entry.get("count", 1) if isinstance(entry, dict) else 1
        many = count if isinstance(count, int) and count > 1 else 1
        rows.append(min(many, MAX_FIGHTERS) if apart else 1)
    return rows
