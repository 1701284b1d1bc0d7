#!/usr/bin/env python3
"""Structure figures for app/ (issue 27): import cycles, long modules, long functions.

Stdlib only (ast). Prints:

* import cycles among the modules of app/, counting module-level, function-level and
  ``TYPE_CHECKING`` imports alike, each with its members;
* modules over MAX_MODULE lines;
* functions over MAX_FUNCTION lines (qualified name, lines);
* imports running up the layers (LAYERS: a module importing one of a higher layer);
* the number of ``type: ignore`` comments in app/.

``tests/test_structure.py`` holds these figures to issue 27's bounds.

Usage: ``python scripts/structure.py [root]`` (root defaults to the repository holding this
script). The exit status is 0: it reports, it does not judge.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

MAX_MODULE = 400
MAX_FUNCTION = 60
PACKAGE = "app"

# The layers of app/, lowest first (docs/architecture in the README): a module may import
# its own layer and those below. The longest prefix names a module's layer; a system's
# edges (its spec, pages, forms and API routes: docs/systems.md) are pages.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("base", ("app.settings", "app.dates", "app.urls", "app.validation_text", "app.db")),
    ("engines", ("app.systems", "app.catalogues", "app.example_books")),
    ("store", ("app.store",)),
    ("exports", ("app.exports",)),
    (
        "services",
        (
            "app.hooks",  # the roster core's hooks, which features register into
            "app.roster_service",
            "app.roster_history",  # what a save changed, in words (a list's kept versions)
            "app.history_service",
            "app.carnet_service",
            "app.book_service",
            "app.book_units",
        ),
    ),
    ("features", ("app.campaigns", "app.carnet_file", "app.imports")),
    (
        "http",
        (
            "app.problems",
            "app.refusals",
            "app.http_cache",
            "app.security",
            "app.middleware",
            "app.deps",
            "app.openapi",
        ),
    ),
    ("pages", ("app.web", "app.api")),
    ("app", ("app.main", "app.asgi", "app.cli", "app")),
)
SYSTEM_EDGES = frozenset({"spec", "web", "api", "forms"})


def layer(module: str) -> int:
    """The index in LAYERS of a module of app/."""
    parts = module.split(".")
    if len(parts) >= 4 and parts[1] == "systems" and parts[3] in SYSTEM_EDGES:
        return next(i for i, (name, _p) in enumerate(LAYERS) if name == "pages")
    best = (-1, -1)
    for index, (_name, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best[1]:
                best = (index, len(prefix))
    return best[0]


def upward(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """(importer, imported) for every import of a module of a higher layer."""
    return sorted((a, b) for a, bs in graph.items() for b in bs if layer(b) > layer(a))


def module_name(path: Path, root: Path) -> str:
    """The dotted name of the module at ``path`` (``app/web/__init__.py`` → ``app.web``)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def resolve(current: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module an ``ImportFrom`` names (relative imports resolved)."""
    if node.level == 0:
        return node.module or ""
    base = current.split(".")
    if not is_package:
        base = base[:-1]
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imported(tree: ast.AST, current: str, is_package: bool, known: set[str]) -> set[str]:
    """Every module of ``known`` this tree imports, wherever the import statement stands."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.add(closest(alias.name, known))
        elif isinstance(node, ast.ImportFrom):
            target = resolve(current, is_package, node)
            for alias in node.names:
                child = f"{target}.{alias.name}"
                found.add(child if child in known else closest(target, known))
    found.discard("")
    found.discard(current)
    return found


def closest(name: str, known: set[str]) -> str:
    """The longest prefix of ``name`` that is a module of ``known`` ('' when none)."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in known:
            return candidate
        parts.pop()
    return ""


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def long_functions(tree: ast.AST, prefix: str) -> list[tuple[str, int]]:
    """(qualified name, lines) of every function longer than MAX_FUNCTION lines."""
    out: list[tuple[str, int]] = []

    def visit(node: ast.AST, names: list[str]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                here = [*names, child.name]
                if not isinstance(child, ast.ClassDef):
                    first = min([child.lineno] + [d.lineno for d in child.decorator_list])
                    length = (child.end_lineno or child.lineno) - first + 1
                    if length > MAX_FUNCTION:
                        out.append((f"{prefix}:{'.'.join(here)}", length))
                visit(child, here)
            else:
                visit(child, names)

    visit(tree, [])
    return out


@dataclass
class Figures:
    """What this script measures of app/."""

    cycles: list[list[str]]
    long_modules: list[tuple[str, int]]
    long_functions: list[tuple[str, int]]
    upward: list[tuple[str, str]]
    ignores: int


def measure(root: Path) -> Figures:
    files = sorted((root / PACKAGE).rglob("*.py"))
    names = {module_name(path, root): path for path in files}
    known = set(names)
    graph: dict[str, set[str]] = {}
    long_modules: list[tuple[str, int]] = []
    functions: list[tuple[str, int]] = []
    ignores = 0
    for name, path in names.items():
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text, filename=str(path))
        graph[name] = imported(tree, name, path.name == "__init__.py", known)
        lines = len(text.splitlines())
        if lines > MAX_MODULE:
            long_modules.append((str(path.relative_to(root)), lines))
        functions += long_functions(tree, str(path.relative_to(root)))
        ignores += text.count("type: ignore")
    return Figures(cycles(graph), long_modules, functions, upward(graph), ignores)


def main(root: Path) -> None:
    found = measure(root)
    print(f"import cycles: {len(found.cycles)}")
    for component in found.cycles:
        print("  " + " <-> ".join(component))
    print(f"modules over {MAX_MODULE} lines: {len(found.long_modules)}")
    for path_name, lines in sorted(found.long_modules, key=lambda item: -item[1]):
        print(f"  {path_name}: {lines}")
    print(f"functions over {MAX_FUNCTION} lines: {len(found.long_functions)}")
    for function, lines in sorted(found.long_functions, key=lambda item: -item[1]):
        print(f"  {function}: {lines}")
    print(f"imports running up the layers: {len(found.upward)}")
    for importer, imported_module in found.upward:
        print(f"  {importer} -> {imported_module}")
    print(f"type: ignore in {PACKAGE}/: {found.ignores}")


if __name__ == "__main__":
    try:
        main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent)
    except BrokenPipeError:  # `| head`: the reader has seen enough
        sys.exit(0)
