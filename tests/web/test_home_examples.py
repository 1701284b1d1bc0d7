"""Issue 26 item 15, minors: the home page names each example once with its points, never
« (300 points) (300 points) » when the example's name already says them."""

import html
import re

from fastapi.testclient import TestClient

from app.catalogues import load_systems


def test_each_example_says_its_points_once(browser: TestClient) -> None:
    page = html.unescape(re.sub(r"<[^>]+>", " ", browser.get("/").text))
    text = " ".join(page.split())
    assert re.search(r"\((\d+) points\) \(\1 points\)", text) is None, text
    for system in load_systems().values():
        for example in system.example_rosters():
            name = " ".join(example.name.split())
            assert name in text, name
            if system.has_points:
                assert f"{example.printed_total} points)" in text


def test_an_empty_list_is_empty_not_valid(browser: TestClient) -> None:
    """Issue 26 item 15: an empty list's editor said « Liste valide » beside « Aucun
    combattant »."""
    created = browser.post("/listes/nouvelle", data={"system": "dcsystem", "name": "Essai"})
    assert created.status_code == 303
    page = browser.get(created.headers["location"]).text
    bar = page[page.index('id="total"') : page.index("</div>", page.index('id="total"'))]
    assert "Aucun combattant" in page
    assert '<span class="validity empty">Liste vide</span>' in bar
    assert "Liste valide" not in bar
