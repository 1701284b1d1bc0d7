"""Shared code asks, never names (issue 27, architecture.md « Shared features ask, never
name »): no file of app/, templates/ or static/ outside a system's own package and templates
names a registered system's id or imports a system's package. A system's traits on its spec
are how the play sheet, the mode partie, campaigns and books learn what they need."""

import ast
import re
from pathlib import Path

from app.settings import ROOT
from app.systems.registry import SPECS

OWN = (ROOT / "app" / "systems", ROOT / "templates" / "systems")
SHARED = (ROOT / "app", ROOT / "templates", ROOT / "static")
# Text files (images are not read; vendored libraries, *.min.js, are left out).
TEXT = {".py", ".html", ".js", ".css", ".txt", ".json", ".webmanifest", ".svg", ".toml"}


def vendored(path: Path) -> bool:
    """Libraries shipped as they come (htmx, idiomorph, Swagger UI): not our code."""
    return path.name.endswith(".min.js") or path.is_relative_to(ROOT / "static" / "swagger-ui")


def shared_files() -> list[Path]:
    files = []
    for top in SHARED:
        for path in sorted(top.rglob("*")):
            if not path.is_file() or path.suffix not in TEXT:
                continue
            if any(path.is_relative_to(own) for own in OWN) or vendored(path):
                continue
            files.append(path)
    return files


def system_packages() -> set[str]:
    """Every package under app/systems/ that is a system (it has a spec.py)."""
    return {p.parent.name for p in (ROOT / "app" / "systems").glob("*/spec.py")}


def test_no_shared_file_names_a_system() -> None:
    ids = sorted({spec.id for spec in SPECS} | system_packages())
    # An id as code and paths write it (`dcsystem`, templates/systems/infinity/...); a
    # system's display name in prose (« Infinity's troopers ») is not an id.
    word = re.compile(r"\b(" + "|".join(map(re.escape, ids)) + r")\b")
    named = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in shared_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if word.search(line)
    ]
    assert named == []


def test_no_shared_module_imports_a_system_package() -> None:
    packages = system_packages()
    found = []
    for path in shared_files():
        if path.suffix != ".py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for name in names:
                parts = name.split(".")
                if parts[:2] == ["app", "systems"] and len(parts) > 2 and parts[2] in packages:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}")
    assert found == []


def test_the_checks_read_the_shared_files() -> None:
    """The lists above are not empty by mistake: they read the shared page modules."""
    read = {path.relative_to(ROOT).as_posix() for path in shared_files()}
    assert {"app/main.py", "templates/base.html"} <= read
    # The five packages of app/systems/, all registered (the test session adds the toy).
    assert len(system_packages()) == 5
    assert system_packages() <= {spec.id for spec in SPECS}
