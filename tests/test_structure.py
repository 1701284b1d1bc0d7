"""The shape of app/ stays readable (issue 27 « One house again », Done when): no import
cycle (function-level and TYPE_CHECKING imports counted), at most 3 imports running up the
layers, no module over 400 lines, at most 6 functions over 60, at most 40 `type: ignore`.
scripts/structure.py measures and prints the same figures."""

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from app.settings import ROOT


def structure() -> ModuleType:
    spec = importlib.util.spec_from_file_location("structure", ROOT / "scripts" / "structure.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("structure", module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_app_keeps_its_shape() -> None:
    found = structure().measure(ROOT)
    assert found.cycles == []
    assert len(found.upward) <= 3, found.upward
    assert found.long_modules == []
    assert len(found.long_functions) <= 6, found.long_functions
    assert found.ignores <= 40


def test_the_measure_sees_what_it_counts(tmp_path: Path) -> None:
    """A cycle, an upward import, a long module and function, an ignore: each is seen (the
    figures above are not zero by a blind measure)."""

    root = tmp_path
    (root / "app" / "web").mkdir(parents=True)
    (root / "app" / "store").mkdir()
    for package in ("app", "app/web", "app/store"):
        (root / package / "__init__.py").write_text("")
    long_body = "\n".join(f"    x{n} = {n}" for n in range(61))
    (root / "app" / "store" / "rows.py").write_text(
        "def f():\n    from app.web.page import g\n" + long_body + "\n"
    )
    (root / "app" / "web" / "page.py").write_text(
        "from app.store.rows import f\nz: int = 'a'  # type: ignore[assignment]\n" + "\n" * 400
    )
    found = structure().measure(root)
    assert found.cycles == [["app.store.rows", "app.web.page"]]
    assert found.upward == [("app.store.rows", "app.web.page")]
    assert [path for path, _lines in found.long_modules] == ["app/web/page.py"]
    assert [name for name, _lines in found.long_functions] == ["app/store/rows.py:f"]
    assert found.ignores == 1


def test_queries_live_in_the_store() -> None:
    """Issue 27 « store queries only in app/store/ »: no module of app/ outside it imports a
    query builder (`select`, `insert`, `update`, `delete`, `text` of SQLAlchemy or SQLModel)
    or runs a statement on a session (`session.exec`, `session.execute`)."""
    import ast

    builders = {"select", "insert", "update", "delete", "text"}
    found = []
    for path in sorted((ROOT / "app").rglob("*.py")):
        if path.relative_to(ROOT / "app").parts[0] == "store":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in (
                "sqlalchemy",
                "sqlmodel",
            ):
                found += [f"{path.name}: {a.name}" for a in node.names if a.name in builders]
            if (
                isinstance(node, ast.Attribute)
                and node.attr in ("exec", "execute")
                and "session" in ast.unparse(node.value)
            ):
                found.append(f"{path.name}: {ast.unparse(node)}")
    assert found == []
