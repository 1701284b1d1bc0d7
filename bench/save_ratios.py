"""Issue 29's save ratios: one editor save's CPU against one `GET /healthz`'s, in one process.

The app built as app/asgi.py builds it (its OpenAPI document, then `settle_heap()`) on a
temporary SQLite file, called through a TestClient; http_bench.py's 50-entry DCSystem list
(`validate_roster()`) stored twice in a carnet and opened as its owner (the page's cookie
and HTMX headers, `seed_editor()`). Each round times, by the process's CPU clock
(`time.process_time`: the client's and the server's threads together, steadier than wall
time on a busy machine):

- `healthz`: `GET /healthz`, HEALTHZ_PER_SAVE calls before each save of either kind;
- `counts`: a count change as static/caserne.js sends it (the counts, the CSRF field and the
  version to `/r/{id}/nombres`), `saves` times on row 0 (1 <-> 2), each based on the
  version the last answer carried;
- `editor`: the whole form to `/r/{id}` (any change but a count's), the same way;

in turns (10 /healthz, a count save, a whole-form save, again), and divides each save's
median CPU by `/healthz`'s in that round. The figures are the medians
over the rounds and their spread. These are the ratios issue 29 was filed with (« a count
save 4.5×, a whole-form editor save of 50 entries 12.2× »): `/healthz` costs about 1.4 ms
this way, most of it the client's and the TestClient's own work, which every save pays too.

    .venv/bin/python bench/save_ratios.py [--rounds 5] [--saves 30]

http_bench.py runs the same measure after its wrk runs and prints it with `validate`'s ratio.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

# Issue 29: a save takes at most this many times one GET /healthz's CPU, in the same run.
SAVE_TARGETS: dict[str, float] = {"counts": 4.0, "editor": 6.0}
HEALTHZ_PER_SAVE = 10
VERSION = re.compile(r'name="version" value="(\d+)"')


@dataclass(frozen=True)
class SaveRound:
    """One round's CPU milliseconds per request."""

    healthz_ms: float
    counts_ms: float
    editor_ms: float

    def ratio(self, kind: str) -> float:
        ms: float = getattr(self, f"{kind}_ms")
        return ms / self.healthz_ms


@dataclass(frozen=True)
class SaveFigure:
    """One kind of save over the rounds: medians and the ratio's spread."""

    kind: str
    ms: float
    healthz_ms: float
    ratio: float
    ratio_min: float
    ratio_max: float
    target: float

    @property
    def met(self) -> bool:
        return self.ratio <= self.target


class Saves:
    """A list opened in the editor, saved again and again on row 0 (1 <-> 2), each save
    based on the version the last answer carried."""

    def __init__(self, seed: object, whole: bool) -> None:
        from http_bench import EditorSeed

        assert isinstance(seed, EditorSeed)
        self.seed, self.whole = seed, whole
        self.target = seed.path if whole else f"{seed.path}/nombres"
        self.prefix = seed.prefix if whole else seed.counts_prefix
        self.version = seed.version()
        self.count = 1  # validate_roster()'s first entry, as stored

    def cpu_ms(self, n: int) -> float:
        """CPU milliseconds per save, over `n` saves."""
        from http_bench import BenchError

        spent = 0.0
        for _ in range(n):
            self.count = 3 - self.count
            body = f"{self.prefix}&entry-0-count={self.count}&version={self.version}"
            start = time.process_time()
            answer = self.seed.client.post(self.target, content=body, headers=self.seed.headers)
            spent += time.process_time() - start
            found = VERSION.search(answer.text)
            if answer.status_code != 200 or found is None:
                raise BenchError(
                    f"{self.target}: a save answered {answer.status_code} without a version: "
                    f"{answer.text[:300]}"
                )
            self.version = int(found.group(1))
        return spent * 1000 / n


def healthz_ms(client: object, n: int) -> float:
    from fastapi.testclient import TestClient

    assert isinstance(client, TestClient)
    start = time.process_time()
    for _ in range(n):
        client.get("/healthz")
    return (time.process_time() - start) * 1000 / n


def measure(rounds: int, saves: int) -> list[SaveRound]:
    """`rounds` rounds of /healthz, count saves and whole-form saves, in turn."""
    from fastapi.testclient import TestClient
    from http_bench import seed_editor

    from app.cli import migrate
    from app.main import create_app, settle_heap
    from app.settings import Settings

    with tempfile.TemporaryDirectory(prefix="caserne-saves-") as folder:
        url = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        with contextlib.redirect_stderr(io.StringIO()):  # alembic's INFO lines
            migrate(url)
        # The write limit off (120 saves a minute), the byte budget kept (a few hundred
        # saves stay far within it): what a save costs in production but its write limit.
        settings = Settings(database_url=url, rate_limit_create="", rate_limit_write="")
        app = create_app(settings)
        app.openapi()  # as app/asgi.py serves it
        settle_heap()
        try:
            with TestClient(app) as client:
                counts = Saves(seed_editor(client), whole=False)
                editor = Saves(seed_editor(client), whole=True)
                healthz_ms(client, 50)
                counts.cpu_ms(3)  # warm-up: first renders, the engine's memory
                editor.cpu_ms(3)
                return [one_round(client, counts, editor, saves) for _ in range(rounds)]
        finally:
            app.state.engine.dispose()


def one_round(client: object, counts: Saves, editor: Saves, saves: int) -> SaveRound:
    """`saves` turns of HEALTHZ_PER_SAVE /healthz, a count save and a whole-form save: each
    kind's median CPU over the turns (a turn's /healthz, the mean of its calls), so that a
    change of the machine's speed hits all three alike and a stray slow call weighs nothing."""
    spent: tuple[list[float], list[float], list[float]] = ([], [], [])
    for _ in range(saves):
        spent[0].append(healthz_ms(client, HEALTHZ_PER_SAVE))
        spent[1].append(counts.cpu_ms(1))
        spent[2].append(editor.cpu_ms(1))
    return SaveRound(*(statistics.median(ms) for ms in spent))


def figures(rounds: list[SaveRound]) -> list[SaveFigure]:
    out = []
    for kind, target in SAVE_TARGETS.items():
        ratios = [r.ratio(kind) for r in rounds]
        out.append(
            SaveFigure(
                kind=kind,
                ms=statistics.median(getattr(r, f"{kind}_ms") for r in rounds),
                healthz_ms=statistics.median(r.healthz_ms for r in rounds),
                ratio=statistics.median(ratios),
                ratio_min=min(ratios),
                ratio_max=max(ratios),
                target=target,
            )
        )
    return out


def describe(figure: SaveFigure) -> str:
    what = {"counts": "count save", "editor": "whole-form save"}[figure.kind]
    verdict = "met" if figure.met else "NOT MET"
    return (
        f"  {figure.kind:<9} {what} / GET /healthz, CPU in one process <= {figure.target:.1f}x: "
        f"{figure.ratio:.2f}x ({figure.ratio_min:.2f}-{figure.ratio_max:.2f}; "
        f"{figure.ms:.2f} / {figure.healthz_ms:.2f} ms)  {verdict}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=5, help="rounds (5)")
    parser.add_argument("--saves", type=int, default=30, help="saves of each kind a round (30)")
    args = parser.parse_args()
    rounds = measure(args.rounds, args.saves)
    load = " ".join(f"{figure:.2f}" for figure in os.getloadavg())
    print(f"{args.rounds} rounds of {args.saves} saves, medians (min-max); load average {load}")
    for index, r in enumerate(rounds, 1):
        print(
            f"  round {index}: healthz {r.healthz_ms:.2f} ms, counts {r.counts_ms:.2f} ms "
            f"({r.ratio('counts'):.2f}x), editor {r.editor_ms:.2f} ms ({r.ratio('editor'):.2f}x)"
        )
    for figure in figures(rounds):
        print(describe(figure))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main())
