"""Caserne's No Limits points system is monotonic (docs/nolimits-points.md, "Monotonic"):
raising a characteristic, CdA, FO, DG, a range distance or a range modifier never lowers a
cost; raising a CU never raises it. Checked on random valid profiles and weapons."""

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.catalogues import DATA_DIR, read_system_data
from app.systems.nolimits import NolimitsSystem, build

CHARACTERISTICS = ("AC", "CT", "CC", "FO", "EN", "PV", "CO", "SV")
BANDS = ("PC", "PI", "PL")


def load() -> NolimitsSystem:
    data, _origin, problems = read_system_data(DATA_DIR / "nolimits")
    assert problems == []
    built = build(data)
    assert isinstance(built, NolimitsSystem)
    return built


SYSTEM = load()

# One below each upper bound of the schema, so that +1 stays valid.
profiles = st.fixed_dictionaries(
    {
        code: st.integers(1 if code == "PV" else 0, 98 if code == "PV" else 19)
        for code in CHARACTERISTICS
    }
)
bands = st.tuples(st.integers(0, 199), st.integers(-10, 9)).map(list)
ranged = st.fixed_dictionaries(
    {
        "name": st.just("Arme"),
        "CU": st.integers(0, 19),
        "CdA": st.integers(1, 19),
        "FO": st.integers(0, 19),
        "DG": st.integers(1, 19),
        "MPA": st.integers(-10, 0),
        "rules": st.lists(st.just("baionnette"), max_size=1),
    },
    optional={
        "PC": bands,
        "PI": bands,
        "PL": bands,
        "type": st.sampled_from(["pistolet", "fusil"]),
    },
)
melee = st.fixed_dictionaries(
    {
        "name": st.just("Lame"),
        "melee": st.just(True),
        "CdA": st.integers(1, 19),
        "FO": st.integers(0, 19),
        "DG": st.integers(1, 19),
        "MPA": st.integers(-10, 0),
    },
    optional={"CU": st.integers(0, 19)},
)
units = st.fixed_dictionaries(
    {
        "profile": profiles,
        "weapons": st.lists(
            st.one_of(ranged, melee, st.sampled_from([w.id for w in SYSTEM.data.weapons])),
            max_size=3,
        ),
        "abilities": st.lists(st.sampled_from([a.id for a in SYSTEM.data.abilities]), max_size=3),
    },
    optional={
        "size": st.sampled_from(["petite", "moyenne", "grande", "tres_grande"]),
        "vehicle": st.builds(
            lambda passengers: {"type": "marcheur", "passengers": passengers},
            st.integers(0, 49),
        ),
    },
)


def points(definition: dict[str, Any]) -> int:
    return SYSTEM.cost(SYSTEM.unit_model.model_validate(definition)).points


def bumped(definition: dict[str, Any], *path: str | int, by: int = 1) -> dict[str, Any]:
    changed = copy.deepcopy(definition)
    target = changed
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] += by
    return changed


def raises(definition: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Every path whose +1 must not lower the cost."""
    paths: list[tuple[Any, ...]] = [("profile", code) for code in CHARACTERISTICS]
    for index, weapon in enumerate(definition["weapons"]):
        if isinstance(weapon, str):
            continue
        paths += [("weapons", index, key) for key in ("CdA", "FO", "DG")]
        for band in BANDS:
            if band in weapon:
                paths += [("weapons", index, band, 0), ("weapons", index, band, 1)]
    return paths


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(units)
def test_raising_a_value_never_lowers_the_cost(definition: dict[str, Any]) -> None:
    base = points(definition)
    for path in raises(definition):
        assert points(bumped(definition, *path)) >= base, path


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(units)
def test_raising_a_use_cost_never_raises_the_cost(definition: dict[str, Any]) -> None:
    base = points(definition)
    for index, weapon in enumerate(definition["weapons"]):
        if isinstance(weapon, dict) and "CU" in weapon:
            assert points(bumped(definition, "weapons", index, "CU")) <= base, index


@pytest.mark.parametrize("code", CHARACTERISTICS)
def test_each_characteristic_has_a_price(code: str) -> None:
    # Not only "never lower": each characteristic point is worth something.
    baseline = {"AC": 9, "CT": 5, "CC": 5, "FO": 4, "EN": 4, "PV": 1, "CO": 5, "SV": 0}
    definition: dict[str, Any] = {"profile": baseline}
    assert points(bumped(definition, "profile", code)) > points(definition)
