"""What every registered game system must do, written once (as Gymnasium does for envs).

A new system gets these tests by being registered in app/systems/registry.py; while it is
built, `python -m app.systems.conformance` says the same.
"""

import dataclasses
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.catalogues import CatalogueError, load_systems, read_system_data
from app.systems.base import AnySystem
from app.systems.campaign_traits import CampaignTraits, FigureStat
from app.systems.conformance import check_system
from app.systems.play_traits import (
    Counter,
    FigureState,
    FigureTraits,
    OpponentScore,
    Played,
    PlayTraits,
    RoutTest,
)
from app.systems.registry import SPECS, registered
from app.systems.sheet import SheetEntry
from app.systems.spec import SystemSpec

SPEC_IDS = [spec.id for spec in SPECS]


@pytest.fixture(params=SPECS, ids=SPEC_IDS)
def spec(request: pytest.FixtureRequest) -> SystemSpec:
    spec: SystemSpec = request.param
    return spec


@pytest.fixture
def system(spec: SystemSpec, systems: dict[str, AnySystem]) -> AnySystem:
    return systems[spec.id]


def test_every_registered_system_loads(systems: dict[str, AnySystem]) -> None:
    assert list(systems) == SPEC_IDS


def test_system_conforms(system: AnySystem, spec: SystemSpec) -> None:
    assert check_system(system, spec) == []


def test_catalogue_data_validates(spec: SystemSpec) -> None:
    data, _origin, problems = read_system_data(spec.data)
    assert problems == []
    assert not isinstance(spec.build(data), list)


def test_api_round_trip(system: AnySystem, client: TestClient) -> None:
    """Catalogue → store every example → read it back → share → read the share."""
    assert client.get(f"/api/v1/systems/{system.id}/catalogue").status_code == 200
    examples = system.example_rosters()
    assert examples
    for example in examples:
        created = client.post("/api/v1/rosters", json=example.document)
        assert created.status_code == 201, created.text
        body: dict[str, Any] = created.json()
        assert body["validation"]["points"] == example.printed_total
        auth = {"Authorization": f"Bearer {body['edit_token']}"}
        read = client.get(f"/api/v1/rosters/{body['id']}", headers=auth)
        assert read.status_code == 200
        assert read.json()["roster"] == body["roster"]
        shared = client.post(f"/api/v1/rosters/{body['id']}/shares", headers=auth)
        assert shared.status_code == 201
        snapshot = client.get(f"/api/v1/shares/{shared.json()['code']}")
        assert snapshot.status_code == 200
        assert snapshot.json()["validation"]["points"] == example.printed_total
        assert snapshot.json()["catalogue_version"] == system.catalogue_version
        page = client.get(f"/s/{shared.json()['code']}")
        assert page.status_code == 200


def test_every_published_profile_costs_through_the_api(
    system: AnySystem, client: TestClient
) -> None:
    profiles = system.published_profiles()
    assert profiles
    for profile in profiles:
        response = client.post(f"/api/v1/systems/{system.id}/cost", json=profile.definition)
        assert response.status_code == 200, (profile.id, response.text)
        body = response.json()
        assert body["points"] == profile.computed_points, profile.id
        assert sum(line["points"] for line in body["breakdown"]) == body["points"]


def test_score_route_only_where_the_system_scores(system: AnySystem, client: TestClient) -> None:
    response = client.post(f"/api/v1/systems/{system.id}/score", json=[])
    assert response.status_code == (422 if system.score_model is not None else 404)


def test_check_system_finds_what_is_wrong(systems: dict[str, AnySystem]) -> None:
    """The checker can fail: a system whose example total is misprinted, whose profiles
    cost other than the catalogue says, and whose pages lack a template."""
    real = systems["dcsystem"]

    class Broken:
        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

        def example_rosters(self) -> Any:
            return [
                e.model_copy(update={"printed_total": e.printed_total + 1})
                for e in real.example_rosters()
            ]

        def published_profiles(self) -> Any:
            first = real.published_profiles()[0]
            return [first.model_copy(update={"computed_points": first.computed_points + 1})]

    from app.systems.dcsystem.web import DcsystemPages

    class MissingTemplates(DcsystemPages):
        def templates(self) -> list[str]:
            return ["systems/dcsystem/nowhere.html"]

    spec = SystemSpec(id="dcsystem", build=SPECS[0].build, pages=MissingTemplates)
    problems = check_system(Broken(), spec)  # type: ignore[arg-type]
    assert any("totals" in p and "printed" in p for p in problems)
    assert any("the catalogue says" in p for p in problems)
    assert any("nowhere.html" in p for p in problems)


def test_campaign_traits_are_checked(systems: dict[str, AnySystem]) -> None:
    """A campaign template that is missing, a score without its campaign template (the one
    way to say « no score » is score_model None), stats the unit model does not have: each
    fails conformance (issue 27: such a system's gang pages answered 500)."""
    dcsystem, necrowarzone = registered("dcsystem"), registered("necrowarzone")
    assert dcsystem is not None and necrowarzone is not None
    assert dcsystem.campaign is not None and necrowarzone.campaign is not None
    missing = replace(dcsystem, campaign=CampaignTraits(score_template="nowhere.html"))
    assert any(
        "campaign score template" in p and "nowhere.html" in p
        for p in check_system(systems["dcsystem"], missing)
    )
    unscored = replace(dcsystem, campaign=None)
    assert any(
        "score model and no campaign score template" in p
        for p in check_system(systems["dcsystem"], unscored)
    )
    traits = replace(
        necrowarzone.campaign,
        profile_stats=("ZZ",),
        figure_stats=(FigureStat("nope", "N", "Nope"),),
        has_rep=True,
        totals_template="nowhere.html",
        stat_defaults={"ghost": 3},
    )
    problems = check_system(systems["necrowarzone"], replace(necrowarzone, campaign=traits))
    assert any("'ZZ'" in p for p in problems)
    assert any("'nope'" in p for p in problems)
    assert any("has_rep" in p for p in problems)
    assert any("campaign totals template" in p for p in problems)
    assert any("'ghost' names no profile or figure stat" in p for p in problems)


def test_catalogue_problems_are_all_reported_at_once(tmp_path: Any) -> None:
    """A broken catalogue names every problem with its file and key, then refuses to start."""
    for spec in SPECS:
        folder = tmp_path / spec.id
        folder.mkdir()
        for source in spec.data.glob("*.toml"):
            (folder / source.name).write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
        with (folder / "catalogue.toml").open("a", encoding="utf-8") as catalogue:
            catalogue.write("\nnot_a_catalogue_key = 1\nanother_unknown_key = 2\n")
    with pytest.raises(CatalogueError) as raised:
        load_systems(tmp_path)
    assert len(raised.value.problems) == 2 * len(SPECS)
    assert all("catalogue.toml" in problem for problem in raised.value.problems)


def test_check_system_holds_the_play_traits(systems: dict[str, AnySystem]) -> None:
    """Issue 27: a system's play traits (app/systems/play_traits.py) are checked like its
    pages: a panel whose template is missing, one that never shows on the examples or gives
    other than plain data, a figure's counter without a max, a rout test of more figures than
    the list has, states that start out of the game, a score no figure is worth."""
    real = next(spec for spec in SPECS if spec.play is not None and spec.play.panels)
    assert real.play is not None
    system = systems[real.id]
    panel = real.play.panels[0]

    def check(play: PlayTraits) -> list[str]:
        return check_system(system, dataclasses.replace(real, play=play))

    missing = dataclasses.replace(panel, template="nowhere.html")
    problems = check(dataclasses.replace(real.play, panels=(missing,)))
    assert problems == [f"play: panel {panel.id} renders nowhere.html, which does not exist"]

    never = dataclasses.replace(panel, build=lambda played: None)
    assert check(dataclasses.replace(real.play, panels=(never,))) == [
        f"play: panel {panel.id} shows nothing on any example"
    ]
    odd = dataclasses.replace(panel, build=lambda played: {"rows": {1, 2}})
    assert all(
        "is not a dict of plain data" in p
        for p in check(dataclasses.replace(real.play, panels=(odd,)))
    )

    def no_max(played: Played, entry: SheetEntry) -> FigureTraits:
        return FigureTraits(counters=(Counter("pv", "PV perdus", 0),))

    assert any("max >= 1" in p for p in check(PlayTraits(figure=no_max)))
    too_many = RoutTest(lambda played: 10_000, "perdus")
    assert any("is not a count of its" in p for p in check(PlayTraits(rout=too_many)))
    unsaid = RoutTest(lambda played: None, "")
    assert check(PlayTraits(rout=unsaid)) == ["play: a rout test counts what?"]
    assert check(PlayTraits(states=(FigureState("Mort", out=True), FigureState("Debout")))) == [
        "play: a figure starts out of the game (its first state is out)"
    ]
    assert check(PlayTraits(states=(FigureState("Debout"),))) == [
        "play: no state takes a figure out of the game"
    ]
    assert check(PlayTraits(opponent_score=OpponentScore())) == [
        "play: an opponent's score, but no figure of the examples is worth any"
    ]
    assert check(PlayTraits()) == []
