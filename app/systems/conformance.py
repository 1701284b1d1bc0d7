"""`check_system`: what every game system must do, as a tool (like Gymnasium's `check_env`).

Run it while building a system (`python -m app.systems.conformance`), and the conformance
test runs it over every registered spec. It returns problems, one string each; an empty list
means the system conforms.
"""

import re
import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from app.systems.base import AnySystem, ExampleRoster, PublishedProfile
from app.systems.books import UNITS_IN_ENTRIES
from app.systems.campaign_traits import NO_CAMPAIGN_TRAITS, CampaignTraits
from app.systems.import_conformance import import_problems
from app.systems.play_traits import FigureTraits, Played, PlayTraits
from app.systems.sheet import Sheet, SheetData, build_sheet, load_sheet_data
from app.systems.spec import SystemSpec

T = TypeVar("T")
SNAKE = re.compile(r"^[a-z0-9]+(_[a-z0-9]+)*$")


def check_system(system: AnySystem, spec: SystemSpec | None = None) -> list[str]:
    """Every way `system` (and its `spec`, when given) falls short of the seam's contract."""
    problems = _identity(system)
    problems += _catalogue_items(system)
    problems += _published_profiles(system)
    problems += _examples(system)
    if spec is not None:
        problems += _pages(system, spec)
        problems += _example_book(system, spec)
        problems += _campaign(system, spec)
        if spec.play is not None:
            problems += _play_traits(system, spec, spec.play)
        problems += _book_traits(system, spec)
        problems += import_problems(system, spec.imports)
    return problems


def _example_book(system: AnySystem, spec: SystemSpec) -> list[str]:
    """Its example army book (data/systems/<id>/book.toml), every unit valid."""
    from app.example_books import BOOK_FILE, load_example_books

    if not (spec.data / BOOK_FILE).is_file():
        return [f"no example army book {spec.data / BOOK_FILE}"]
    return load_example_books({system.id: system}, [spec])[1]


def _book_traits(system: AnySystem, spec: SystemSpec) -> list[str]:
    """The book traits it declares (`SystemSpec.books`) fit its cost body: a book unit kept
    in `extras.units` is the trooper of a `{"unit", "option"}` body, one kept as an entry
    is the whole body."""
    traits = spec.books or UNITS_IN_ENTRIES
    fields = system.unit_model.model_fields
    optioned = set(fields) == {"unit", "option"}
    if traits.units_at == "entries":
        if optioned:
            return ['books: units kept as entries, but the cost body is {"unit", "option"}']
        return []
    if not optioned:
        return ['books: units kept in extras.units need a cost body {"unit", "option"}']
    unit = fields["unit"].annotation
    if not (isinstance(unit, type) and issubclass(unit, BaseModel)):
        return ["books: the cost body's `unit` is no model a book unit can be"]
    return []


def _identity(system: AnySystem) -> list[str]:
    problems = []
    if not SNAKE.match(system.id):
        problems.append(f"id {system.id!r} is not ASCII snake_case")
    for field in ("name", "rules_version", "catalogue_version"):
        if not getattr(system, field, ""):
            problems.append(f"{field} is empty")
    return problems


def _catalogue_items(system: AnySystem) -> list[str]:
    """Every catalogue item has a stable id, its name and its kind (api-v1.md)."""
    catalogue = system.catalogue()
    if not isinstance(catalogue, system.catalogue_model):
        return [f"catalogue() is not a {system.catalogue_model.__name__}"]
    document = catalogue.model_dump()
    items = [item for value in document.values() if isinstance(value, list) for item in value]
    problems = [] if items else ["the catalogue lists nothing"]
    seen: set[str] = set()
    for item in items:
        if not isinstance(item, dict) or "id" not in item:
            continue
        if not SNAKE.match(str(item["id"])):
            problems.append(f"catalogue id {item['id']!r} is not ASCII snake_case")
        if not item.get("name") or not item.get("kind"):
            problems.append(f"catalogue item {item['id']!r} lacks a name or a kind")
        key = f"{item.get('kind')}:{item['id']}"
        if key in seen:
            problems.append(f"catalogue id {key} is defined twice")
        seen.add(key)
    return problems


def _each(items: Sequence[T], missing: str, check: Callable[[T], list[str]]) -> list[str]:
    """Every problem `check` finds in `items`, or `missing` when there is none to check."""
    return [problem for item in items for problem in check(item)] if items else [missing]


def _parsed(model: type[BaseModel], data: Any, where: str) -> BaseModel | str:
    """`data` as `model`, or the problem of a definition that does not parse."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        return f"{where}: its definition does not parse: {exc}"


def _published_profiles(system: AnySystem) -> list[str]:
    """At least one unit a player can start from, costing what the catalogue says."""

    def check(profile: PublishedProfile) -> list[str]:
        unit = _parsed(system.unit_model, profile.definition, f"profile {profile.id}")
        if isinstance(unit, str):
            return [unit]
        costed = system.cost(unit)
        problems = []
        if costed.points != profile.computed_points:
            problems.append(
                f"profile {profile.id}: costs {costed.points}, "
                f"the catalogue says {profile.computed_points}"
            )
        if not system.has_points and (costed.points or costed.breakdown):
            problems.append(f"profile {profile.id}: a system without points priced it")
        return problems + _round_trip(system.cost_response_model, costed, f"cost of {profile.id}")

    missing = "no published or sample unit (published_profiles() is empty)"
    return _each(system.published_profiles(), missing, check)


def _examples(system: AnySystem) -> list[str]:
    """At least one example roster, validating to its printed total and expected errors."""

    def check(example: ExampleRoster) -> list[str]:
        where = f"example {example.id}"
        roster = _parsed(system.roster_model, example.document, where)
        if isinstance(roster, str):
            return [roster]
        result = system.validate(roster)
        problems = []
        if result.points != example.printed_total:
            problems.append(f"{where}: totals {result.points}, printed {example.printed_total}")
        errors = sorted(
            issue.code
            for issue in [*result.issues, *(i for e in result.entries for i in e.issues)]
            if issue.severity == "error"
        )
        if errors != sorted(example.expected_issue_codes):
            problems.append(f"{where}: errors {errors}, expected {example.expected_issue_codes}")
        if len(result.entries) != len(example.document.get("entries", [])):
            problems.append(f"{where}: {len(result.entries)} entry results for its entries")
        if any(issue.path.startswith("entries[") for issue in result.issues):
            problems.append(f"{where}: an entry's issue is repeated in the list's issues")
        summary = system.summarize(roster, result)
        if summary.points != result.points or summary.valid != result.valid:
            problems.append(f"{where}: the summary disagrees with the validation")
        if summary.has_points != system.has_points:
            problems.append(f"{where}: the summary's budgets disagree with has_points")
        problems += _round_trip(system.roster_model, roster, f"{where} document")
        return problems + _round_trip(system.validate_response_model, result, f"{where} validation")

    return _each(system.example_rosters(), "no example roster (example_rosters() is empty)", check)


def _round_trip(model: type[BaseModel], value: BaseModel, where: str) -> list[str]:
    """What the API sends parses back with the model its OpenAPI document names."""
    sent: Any = value.model_dump(mode="json")
    try:
        again = model.model_validate_json(value.model_dump_json())
    except ValidationError as exc:
        return [f"{where}: its JSON does not parse as {model.__name__}: {exc}"]
    if again.model_dump(mode="json") != sent:
        return [f"{where}: its JSON changes on a round trip through {model.__name__}"]
    return []


def _pages(system: AnySystem, spec: SystemSpec) -> list[str]:
    problems = [] if spec.id == system.id else [f"spec {spec.id!r} built {system.id!r}"]
    if not spec.data.is_dir():
        problems.append(f"no catalogue folder {spec.data}")
    if spec.pages is not None:
        for name in spec.pages(system).templates():
            if not (spec.templates / name.removeprefix(f"systems/{spec.id}/")).is_file():
                problems.append(f"the pages declare {name}, which does not exist")
    return problems


def _played_examples(system: AnySystem, spec: SystemSpec) -> list[Played]:
    """Each example roster as the play pages receive it: a share's snapshot and its sheet."""
    try:
        data = load_sheet_data(spec.data)
    except (ValueError, ValidationError):  # a broken sheet.toml: start-up says which
        data = SheetData(rules_file="")
    played = []
    for example in system.example_rosters():
        roster = _parsed(system.roster_model, example.document, example.id)
        if isinstance(roster, str):
            continue  # _examples reports it
        result = system.validate(roster)
        frozen = {
            "system": system.id,
            "roster": roster.model_dump(mode="json"),
            "validation": result.model_dump(mode="json"),
            "summary": system.summarize(roster, result).model_dump(mode="json"),
        }
        played.append(Played(system, frozen, build_sheet(frozen, data)))
    return played


def _plain(value: Any) -> bool:
    """Data a template reads as it is: dicts of strings, lists, tuples, numbers, text."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return all(_plain(item) for item in value)
    return value is None or isinstance(value, str | int | float | bool)


def _play_states(play: PlayTraits) -> list[str]:
    """The states of a figure, and what a rout test says it counts."""
    problems = [] if play.rout is None or play.rout.counts else ["play: a rout test counts what?"]
    if not play.states:
        return problems
    labels = [state.label for state in play.states]
    if not all(labels) or len(set(labels)) != len(labels):
        problems.append("play: states unnamed or named twice")
    if play.states[0].out:
        problems.append("play: a figure starts out of the game (its first state is out)")
    if not any(state.out for state in play.states):
        problems.append("play: no state takes a figure out of the game")
    return problems


def _play_figure(traits: Any, where: str) -> list[str]:
    if not isinstance(traits, FigureTraits):
        return [f"{where}: figure() returned {type(traits).__name__}, not FigureTraits"]
    ids = [counter.id for counter in traits.counters]
    problems = [] if len(set(ids)) == len(ids) else [f"{where}: a counter id twice"]
    for counter in traits.counters:
        if not SNAKE.match(counter.id) or not counter.label or counter.max < 1:
            problems.append(f"{where}: counter {counter.id!r} needs an id, a label, a max >= 1")
    if not isinstance(traits.worth, int) or traits.worth < 0:
        problems.append(f"{where}: worth {traits.worth!r} is not a whole number >= 0")
    return problems


def _play_traits(system: AnySystem, spec: SystemSpec, play: PlayTraits) -> list[str]:
    """Every play trait the spec declares (app/systems/play_traits.py), on its examples."""
    problems = _play_states(play)
    ids = [panel.id for panel in play.panels]
    if len(set(ids)) != len(ids) or not all(SNAKE.match(i) for i in ids):
        problems.append(f"play: panel ids {ids} not snake_case or not unique")
    for panel in play.panels:
        if not (spec.templates / panel.template).is_file():
            problems.append(
                f"play: panel {panel.id} renders {panel.template}, which does not exist"
            )
    shown: set[str] = set()
    worth = 0
    for played in _played_examples(system, spec):
        problems += _play_example(played, play, shown)
        worth += sum(play.figure(played, entry).worth for entry in played.sheet.entries)
    problems += [f"play: panel {i} shows nothing on any example" for i in ids if i not in shown]
    if play.opponent_score and not worth:
        problems.append("play: an opponent's score, but no figure of the examples is worth any")
    return problems


def _play_example(played: Played, play: PlayTraits, shown: set[str]) -> list[str]:
    sheet: Sheet = played.sheet
    where = f"play, example {sheet.name!r}"
    problems = []
    for entry in sheet.entries:
        problems += _play_figure(play.figure(played, entry), f"{where}, {entry.name}")
    rout = play.rout.threshold(played) if play.rout else None
    if rout is not None and (not isinstance(rout, int) or not 0 < rout <= sheet.figures):
        problems.append(f"{where}: rout {rout!r} is not a count of its {sheet.figures} figures")
    for panel in play.panels:
        data = panel.build(played)
        if data is None:
            continue
        shown.add(panel.id)
        if not isinstance(data, dict) or not _plain(data):
            problems.append(f"{where}: panel {panel.id} is not a dict of plain data")
    return problems


def _campaign(system: AnySystem, spec: SystemSpec) -> list[str]:
    """Its campaign traits (docs/systems.md « Campaign traits »): the templates they name
    exist, and the one way to say « no score » holds (a system whose engine scores gives
    the score's form fields); the stats a battle changes are fields of its unit model."""
    traits = spec.campaign or NO_CAMPAIGN_TRAITS
    problems = []
    if system.score_model is not None and traits.score_template is None:
        problems.append(
            "it has a score model and no campaign score template "
            "(campaign=CampaignTraits(score_template=...); no score: score_model None)"
        )
    if system.score_model is None and traits.score_template is not None:
        problems.append("a campaign score template, and no score model to count it")
    for kind, name in (("score", traits.score_template), ("totals", traits.totals_template)):
        if name is not None and not (spec.templates / name).is_file():
            problems.append(f"the campaign {kind} template {spec.templates / name} does not exist")
    return problems + _campaign_stats(system, traits)


def _campaign_stats(system: AnySystem, traits: CampaignTraits) -> list[str]:
    """The numbers a battle line changes are the unit model's (its `profile`'s for the
    profile stats), and each catalogue figure it may make the player's own parses."""
    unit = system.unit_model.model_fields
    profile = getattr(unit.get("profile"), "annotation", None)
    known = (
        set(profile.model_fields)
        if isinstance(profile, type) and issubclass(profile, BaseModel)
        else set()
    )
    problems = [
        f"campaign profile stat {s!r} is not a field of the unit's profile"
        for s in traits.profile_stats
        if s not in known
    ]
    problems += [
        f"campaign figure stat {s.name!r} is not a field of the unit model"
        for s in traits.figure_stats
        if s.name not in unit
    ]
    stats = {*traits.profile_stats, *(s.name for s in traits.figure_stats)}
    problems += [
        f"campaign stat default {name!r} names no profile or figure stat"
        for name in traits.stat_defaults
        if name not in stats
    ]
    for field, declared in (("xp", traits.has_xp), ("rep", traits.has_rep)):
        if declared and field not in unit:
            problems.append(f"has_{field}: the unit model has no {field!r} field")
    for unit_id, figure in traits.figures(system).items():
        parsed = _parsed(system.unit_model, figure.get("custom"), f"campaign figure {unit_id}")
        problems += [parsed] if isinstance(parsed, str) else []
    return problems


def main() -> int:  # pragma: no cover  (a command for system authors)
    from app.catalogues import load_systems
    from app.systems.registry import SPECS

    systems = load_systems()
    failed = 0
    for spec in SPECS:
        problems = check_system(systems[spec.id], spec)
        print(f"{spec.id}: {'ok' if not problems else f'{len(problems)} problem(s)'}")
        for problem in problems:
            print(f"  {problem}")
        failed += bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
