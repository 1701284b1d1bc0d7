"""Issue 14: a seventh system made from tests/toy/ the way docs/systems.md says (copy the
folder, write its id for "toy", add its one line) is served and saves through the editor."""

import re
import shutil
import sys
from collections.abc import Iterator
from contextlib import nullcontext
from importlib import import_module
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from sqlmodel import Session

from app.catalogues import load_systems
from app.main import create_app
from app.settings import Settings
from app.systems import registry
from app.systems.conformance import check_system
from tests.web.conftest import field

TOY = Path(__file__).parents[1] / "toy"


def seventh_system(root: Path, system_id: str) -> object:
    """docs/systems.md, "Adding a system", step 2: tests/toy/ copied, its id written in."""
    package = root / system_id
    shutil.copytree(TOY, package, ignore=shutil.ignore_patterns("__pycache__"))
    for path in [*package.glob("*.py"), *package.glob("data/*.toml"), *package.glob("templates/*")]:
        text = path.read_text(encoding="utf-8")
        text = re.sub(r"\btoy\b", system_id, text)
        text = re.sub(r"\bToy", system_id.capitalize(), text)
        path.write_text(text, encoding="utf-8")
    sys.path.insert(0, str(root))
    try:
        return import_module(f"{system_id}.spec").SPEC
    finally:
        sys.path.remove(str(root))


@pytest.fixture
def septieme(
    tmp_path: Path, engine: Engine, session: Session, monkeypatch: pytest.MonkeyPatch
) -> Iterator[TestClient]:
    spec = seventh_system(tmp_path, "septieme")
    monkeypatch.setattr(registry, "SPECS", (*registry.SPECS, spec))  # step 3: the one line
    assert check_system(load_systems(specs=(spec,))["septieme"], spec) == []  # step 4
    app = create_app(Settings(database_url="sqlite://"), engine=engine, systems=load_systems())
    app.state.session_factory = lambda: nullcontext(session)
    with TestClient(app, follow_redirects=False) as client:
        client.headers["Sec-Fetch-Site"] = "same-origin"
        yield client
    for name in [m for m in sys.modules if m == "septieme" or m.startswith("septieme.")]:
        del sys.modules[name]


def test_a_seventh_system_saves_through_the_editor(septieme: TestClient) -> None:
    created = septieme.post("/listes", data={"system": "septieme"})
    assert created.status_code == 303
    editor = created.headers["location"]
    page = septieme.get(editor).text
    assert "Soldat de plomb" in page  # the add panel offers the catalogue's unit
    added = septieme.post(
        editor,
        data={
            "version": field(page, "version"),
            "name": "Boîte à jouets",
            "add-unit": "soldat_de_plomb",
            "add-count": "3",
            "action": "add",
        },
    )
    assert added.status_code == 200, added.text
    assert "Ajouté : 3 × Soldat de plomb." in added.text
    assert field(added.text, "version") == "2"
    # A change of a row saves too (the form sends `extras` as {}: the toy has none).
    changed = septieme.post(
        editor,
        data={
            "version": "2",
            "name": "Boîte à jouets",
            "entry-0-ref": field(added.text, "entry-0-ref"),
            "entry-0-count": "5",
            "entry-0-name": "",
        },
    )
    assert changed.status_code == 200, changed.text
    assert field(changed.text, "version") == "3"
    assert 'value="5"' in changed.text
    assert "<strong>5</strong> Figurines" in changed.text
