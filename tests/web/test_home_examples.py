"""Issue 26 item 15: the home page names each example once with its points, never
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
