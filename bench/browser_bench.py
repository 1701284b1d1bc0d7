"""The editor as a player feels it, for each system (issue 19): in headless Chromium, the
time from a count's `change` to the new total on screen, median over N edits.

Starts one uvicorn worker (`app.asgi:app`, a temporary SQLite database, as http_bench.py),
stores for each system the list editor_bench.py saves (50 entries, Infinity 45: its first
example's entries repeated), opens its editor page, then changes the count of the middle
row N times (1 <-> 2) and times, in the page, from the `change` event to the first change
of the total bar's text (`#total`: the points of a system with points, the figure counts
of Bastos and Necromunda–Warzone, whose lists have none). Each wait has a timeout: an edit
whose total did not change in time is counted apart, never waited for. Prints the median,
the spread and the load average per system; it is not a test.

    .venv/bin/python bench/browser_bench.py [--edits 10] [--system bastos]
"""

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

import httpx
from editor_bench import SIZES, long_list  # bench/ is on the path: this script's folder
from http_bench import BenchError, expect, migrate_database, running_server

from app.catalogues import load_systems

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]
TIMEOUT_MS = 5_000

# In the page: set the count, fire `change` (what the page sends a save on), resolve at the
# first mutation that changes #total's text, or with null after `timeout` ms.
CHANGE_TO_TOTAL = """async ([selector, value, timeout]) => {
  const input = document.querySelector(selector);
  const total = () => document.querySelector("#editor #total")?.textContent ?? "";
  const before = total();
  input.value = value;
  const start = performance.now();
  const seen = new Promise((resolve) => {
    const watch = new MutationObserver(() => {
      if (total() !== before) { watch.disconnect(); resolve(performance.now() - start); }
    });
    watch.observe(document.querySelector("#editor"),
                  {subtree: true, childList: true, characterData: true});
    setTimeout(() => { watch.disconnect(); resolve(null); }, timeout);
  });
  input.dispatchEvent(new Event("change", {bubbles: true}));
  return await seen;
}"""
# Counts HTMX requests in flight, so that the next edit starts once the last one is done.
TRACK_HTMX = """
window.__htmxPending = 0;
document.addEventListener("htmx:beforeRequest", () => { window.__htmxPending += 1; });
document.addEventListener("htmx:afterRequest", () => { window.__htmxPending -= 1; });
"""


def measure(page: object, base: str, edit_url: str, size: int, edits: int) -> list[float | None]:
    from playwright.sync_api import Page

    assert isinstance(page, Page)
    page.goto(edit_url if edit_url.startswith("http") else base + edit_url)
    page.wait_for_selector("#editor #total", timeout=TIMEOUT_MS)
    selector = f"#entry-{size // 2}-count"
    times: list[float | None] = []
    for _ in range(edits + 1):  # the first edit warms the page up: not counted
        # Read each time: a save may reorder the rows (Infinity's by combat group).
        value = "2" if page.input_value(selector) == "1" else "1"
        times.append(page.evaluate(CHANGE_TO_TOTAL, [selector, value, TIMEOUT_MS]))
        page.wait_for_function("() => window.__htmxPending === 0", timeout=TIMEOUT_MS)
    return times[1:]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=10, help="timed edits per system")
    parser.add_argument("--system", choices=sorted(SIZES), action="append")
    args = parser.parse_args()
    if not 1 <= args.edits <= 200:
        parser.error("--edits: 1 to 200")
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} not found (Debian: apt-get install chromium)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    systems = load_systems()
    chosen = args.system or list(SIZES)
    with tempfile.TemporaryDirectory() as folder:
        workdir = Path(folder)
        url = f"sqlite:///{workdir / 'bench.sqlite3'}"
        migrate_database(url)
        with (
            running_server(url, workdir) as server,
            httpx.Client(base_url=server.base) as client,
            sync_playwright() as playwright,
        ):
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
            )
            try:
                print(f"Chromium (headless) and one uvicorn worker; {args.edits} edits each")
                for system_id in chosen:
                    size = SIZES[system_id]
                    document = long_list(systems, system_id, size)
                    created = expect(
                        client.post("/api/v1/rosters", json=document), 201, system_id
                    ).json()
                    context = browser.new_context(viewport={"width": 1280, "height": 900})
                    page = context.new_page()
                    page.set_default_timeout(TIMEOUT_MS * 2)
                    page.add_init_script(TRACK_HTMX)
                    try:
                        times = measure(page, server.base, created["edit_url"], size, args.edits)
                    finally:
                        context.close()
                    seen = [t for t in times if t is not None]
                    load = " ".join(f"{figure:.2f}" for figure in os.getloadavg())
                    if not seen:
                        print(
                            f"{system_id:<13} {size} entries: no total changed within "
                            f"{TIMEOUT_MS} ms, load average {load}"
                        )
                        continue
                    late = len(times) - len(seen)
                    print(
                        f"{system_id:<13} {size} entries: count change -> new total, median "
                        f"{statistics.median(seen):5.0f} ms ({min(seen):.0f}-{max(seen):.0f}, "
                        f"{len(seen)} edits{f', {late} over {TIMEOUT_MS} ms' if late else ''}), "
                        f"load average {load}"
                    )
            finally:
                browser.close()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BenchError as error:
        sys.exit(f"browser_bench: {error}")
