"""Issue 7, major 11, in Chromium: a custom entry's "Modifier" reopens it in its creator; the
creator's "Enregistrer dans la liste" saves over that row and comes back to it, focused."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import TRACK_HTMX, htmx_post, open_new_list, type_and_leave

pytestmark = pytest.mark.browser


def add_from_creator(page: Page, system: str, name_field: str, name: str, editor: str) -> None:
    """The creator's default unit, named, added to the list of `editor`."""
    page.goto(f"/{system}/createur")
    htmx_post(page, f"/{system}/createur", lambda: page.locator(name_field).fill(name))
    page.locator("select[name=roster]").select_option(editor.removeprefix("/r/"))
    page.locator("#add-to-list").click()
    page.wait_for_url(re.compile(rf"{editor}$"))


@pytest.mark.parametrize(
    ("system", "example", "name_field"),
    [
        ("dcsystem", "feuille_de_bataille_sg", "#fighter-name"),
        ("nolimits", "compagnie_d_assaut", "#unit-name"),
    ],
)
def test_modifier_reopens_the_row_and_saves_over_it(
    page: Page, system: str, example: str, name_field: str
) -> None:
    page.add_init_script(TRACK_HTMX)
    editor = open_new_list(page, system, example)
    add_from_creator(page, system, name_field, "Héros", editor)
    rows = page.locator("tr.entry")
    count = rows.count()
    last = count - 1
    names_before = [
        rows.nth(i).locator(".entry-name").get_attribute("placeholder") for i in range(count)
    ]
    htmx_post(
        page, f"{editor}/nombres", lambda: type_and_leave(page.locator(f"#entry-{last}-count"), "2")
    )

    page.locator(f"#entry-{last}-edit").click()
    page.wait_for_url(re.compile(rf"/{system}/createur\?liste=.*&entree={last}$"))
    expect(page.locator(name_field)).to_have_value("Héros")
    expect(page.locator("#editing-entry")).to_contain_text(f"Ligne {last + 1}")
    save = page.locator("#add-to-list")
    expect(save).to_have_text("Enregistrer dans la liste")
    # A change previewed, then the name: the row in the list takes both.
    if system == "dcsystem":
        htmx_post(
            page,
            "/dcsystem/createur",
            lambda: page.locator("#level").get_by_label("Niveau 3").check(),
        )
    else:
        htmx_post(page, "/nolimits/createur", lambda: type_and_leave(page.locator("#p-PV"), "3"))
    points = page.locator("#result [data-points]").inner_text()
    htmx_post(page, f"/{system}/createur", lambda: page.locator(name_field).fill("Héros blessé"))
    save.click()
    page.wait_for_url(re.compile(rf"{editor}#entry-{last}$"))

    expect(rows).to_have_count(count)
    expect(page.locator(f"#entry-{last}-name")).to_have_value("Héros blessé")
    expect(page.locator(f"#entry-{last}-count")).to_have_value("2")
    assert [
        rows.nth(i).locator(".entry-name").get_attribute("placeholder") for i in range(last)
    ] == names_before[:last]
    expect(page.locator(f"#entry-{last} td.num").first).to_have_text(points)
    # Back on the row, focused on the control that opened the creator.
    expect(page.locator(f"#entry-{last}-edit")).to_be_focused()
