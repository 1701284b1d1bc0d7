"""The list import's cost at its bounds (docs/import.md « Bounds »): prints how long one
read takes, in the serving process's terms (the engines and the import, no HTTP).

    .venv/bin/python bench/import_bench.py [--repeat 3]

Cases: the largest export a list makes (200 No Limits entries with leaders and
specialists, in text and BBCode), 10,000 distinct nonsense lines typed (each looked up by
name: the lookups' bounds at work) for two systems, and the same with the system to find.
Each case's best of `--repeat` runs. A benchmark: it prints, it does not judge."""

import argparse
import contextlib
import random
import string
import time
from collections.abc import Callable
from functools import partial

from app.catalogues import load_systems
from app.exports import to_bbcode, to_text
from app.imports.checks import ImportRefused, checked_text
from app.imports.reading import read_text


def best(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        with contextlib.suppress(ImportRefused):  # the case of the system to find
            run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    repeat = parser.parse_args().repeat
    systems = load_systems()
    company = systems["nolimits"]
    example = company.example_rosters()[0].document
    document = company.roster_model.model_validate(
        {**example, "entries": (example["entries"] * 50)[:200]}
    )
    summary = company.summarize(document, company.validate(document))
    rng = random.Random(30)

    def word() -> str:
        return "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(4, 9)))

    typed = "\n".join(" ".join(word() for _ in range(rng.randint(2, 6))) for _ in range(9_999))
    cases: list[tuple[str, str, str | None]] = [
        ("export texte, 200 entrées No Limits", to_text(summary, "https://x.example/s/a"), None),
        ("export BBCode, 200 entrées No Limits", to_bbcode(summary, "https://x.example/s/a"), None),
        ("10 000 lignes tapées inconnues (DCSystem)", typed, "dcsystem"),
        ("10 000 lignes tapées inconnues (Infinity)", typed, "infinity"),
        ("10 000 lignes tapées, jeu à trouver", typed, None),
    ]
    print(f"{'case':44} {'KiB':>6} {'lines':>6} {'best s':>7}")
    for name, text, system in cases:
        seconds = best(partial(read_text, systems, system, checked_text(text)), repeat)
        kib = len(text.encode()) / 1024
        print(f"{name:44} {kib:6.0f} {text.count(chr(10)) + 1:6} {seconds:7.2f}")


if __name__ == "__main__":
    main()
