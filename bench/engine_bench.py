"""The engines' CPU for one list, per system (issue 19): validate + summarize of a long list
(its first example's entries repeated to 50; Infinity 45), in-process, three ways:

* `uncached`: the engines' memory of entries off (ENGINE_MEMO=false): every entry computed;
* `one changed`: the memory on, one entry's count changed at each call (the next entry
  each time), as an editor's save does: that entry computed, the others remembered;
* `same list`: the memory on, the same list again (every entry remembered).

List-wide rules run at every call in all three. Prints the median CPU milliseconds per call
(time.process_time over each call) and the load average. Prints figures; it is not a test.

    .venv/bin/python bench/engine_bench.py [--calls 200] [--system nolimits]
"""

import argparse
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

from editor_bench import SIZES, long_list  # bench/ is on the path: this script's folder

from app.main import create_app, settle_heap
from app.settings import Settings
from app.systems.memo import EntryMemo


def check(system: Any, document: dict[str, Any]) -> None:
    roster = system.roster_model.model_validate(document)
    system.summarize(roster, system.validate(roster))


def median_ms(calls: int, call: Callable[[int], object]) -> float:
    times = []
    for i in range(calls):
        start = time.process_time()
        call(i)
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def measure(system: Any, document: dict[str, Any], calls: int) -> tuple[float, float, float]:
    """uncached, one changed, same list: median cpu ms per call."""
    entries = document["entries"]

    def changed(i: int) -> dict[str, Any]:
        at = i % len(entries)
        count = entries[at].get("count", 1)
        entry = {**entries[at], "count": 2 if count == 1 else 1}
        return {**document, "entries": [*entries[:at], entry, *entries[at + 1 :]]}

    EntryMemo.enabled = False
    uncached = median_ms(calls, lambda i: check(system, changed(i)))
    EntryMemo.enabled = True
    check(system, document)  # the list as the page was drawn
    one = median_ms(calls, lambda i: check(system, changed(i)))
    same = median_ms(calls, lambda i: check(system, document))
    return uncached, one, same


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--system", choices=sorted(SIZES), action="append")
    args = parser.parse_args()
    app = create_app(Settings(database_url="sqlite://"))
    settle_heap()
    systems = app.state.systems
    print(f"{'system':<13} {'entries':>7} {'uncached':>9} {'one changed':>12} {'same list':>10}")
    for system_id in args.system or list(SIZES):
        size = SIZES[system_id]
        document = long_list(systems, system_id, size)
        uncached, one, same = measure(systems[system_id], document, args.calls)
        print(f"{system_id:<13} {size:>7} {uncached:>8.2f}  {one:>11.2f}  {same:>9.2f}")
    load = " ".join(f"{figure:.2f}" for figure in os.getloadavg())
    print(f"cpu ms per validate + summarize (median of {args.calls}), load average {load}")


if __name__ == "__main__":
    main()
