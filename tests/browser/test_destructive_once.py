"""Issue 26 item 1: a double click on a destructive button does one thing, and every removal
can be undone. « Retirer » double-clicked removes one entry (the next row's button, moved under
the pointer, is not pressed by the second click); two removals in a row are undone one after
the other by « Annuler »; « Supprimer » (confirmed) double-clicked deletes the list once
and says so (no error page for the second click: Chromium already sent it once, the
form is now also marked data-once)."""

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import TRACK_HTMX, htmx_post, open_new_list, run_axe
from tests.browser.test_editor_actions import EXAMPLES, ROWS

pytestmark = pytest.mark.browser


def double_click(page: Page, selector: str) -> list[int]:
    """The statuses of the POSTs a double click on `selector` sent, once the page settled."""
    answers: list[int] = []
    page.on(
        "response",
        lambda r: answers.append(r.status) if r.request.method == "POST" else None,
    )
    page.locator(selector).dblclick()
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(300)
    return answers


def idle(page: Page) -> None:
    page.wait_for_function("() => window.__htmxPending === 0")


@pytest.mark.parametrize("system", list(EXAMPLES))
def test_a_double_click_on_retirer_removes_one_entry(page: Page, system: str) -> None:
    page.add_init_script(TRACK_HTMX)
    open_new_list(page, system, EXAMPLES[system])
    before = page.evaluate(ROWS)
    assert len(before) >= 3
    page.locator("#entry-0 td.remove button").dblclick()
    page.wait_for_timeout(600)
    idle(page)
    assert page.evaluate(ROWS) == before[1:]
    page.reload()
    assert page.evaluate(ROWS) == before[1:]


def test_two_removals_are_undone_one_after_the_other(page: Page) -> None:
    page.add_init_script(TRACK_HTMX)
    path = open_new_list(page, "dcsystem", EXAMPLES["dcsystem"])
    before = page.evaluate(ROWS)
    first = page.locator("#entry-0-name")
    first_label = first.input_value() or first.get_attribute("placeholder")
    htmx_post(page, path, lambda: page.locator("#entry-0 td.remove button").click())
    second = page.locator("#entry-1-name")
    second_label = second.input_value() or second.get_attribute("placeholder")
    htmx_post(page, path, lambda: page.locator("#entry-1 td.remove button").click())
    assert len(page.evaluate(ROWS)) == len(before) - 2
    flash = page.locator("#editor .flash")
    expect(flash).to_contain_text(f"« {second_label} » retiré.")

    htmx_post(page, path, lambda: page.locator("#undo").click())
    expect(flash).to_contain_text(f"« {second_label} » remis à sa place.")
    # The first removal can still be undone.
    expect(page.locator("#undo")).to_be_visible()
    htmx_post(page, path, lambda: page.locator("#undo").click())
    expect(flash).to_contain_text(f"« {first_label} » remis à sa place.")
    expect(page.locator("#undo")).to_have_count(0)
    assert page.evaluate(ROWS) == before
    page.reload()
    assert page.evaluate(ROWS) == before


def test_a_double_click_on_supprimer_definitivement_deletes_once(page: Page) -> None:
    open_new_list(page, "dcsystem", EXAMPLES["dcsystem"])
    page.goto("/listes")
    open_new_list(page, "nolimits", EXAMPLES["nolimits"])
    page.goto("/listes")
    expect(page.locator("#library article.card")).to_have_count(2)
    page.locator("#library .actions button.danger").first.click()
    expect(page.locator("#confirm-delete")).to_be_visible()
    answers = double_click(page, "#confirm-delete-button")
    expect(page.locator("#library-message")).to_contain_text("Liste supprimée")
    expect(page.locator("#library article.card")).to_have_count(1)
    assert answers == [303], answers


def test_a_deleted_list_comes_back_with_one_click_on_annuler(page: Page) -> None:
    """« Supprimer » then « Annuler la suppression » (double-clicked, from the keyboard): the
    list is back once, with its edit link; « Listes supprimées » is empty again."""
    path = open_new_list(page, "nolimits", EXAMPLES["nolimits"])
    page.goto("/listes")
    cards = page.locator("#library article.card")
    count = cards.count()
    page.locator(f"#library #roster-{path.removeprefix('/r/')} .actions button.danger").click()
    page.locator("#confirm-delete-button").press("Enter")
    expect(page.locator("#library-message")).to_contain_text("Liste supprimée")
    expect(cards).to_have_count(count - 1)
    answers = double_click(page, "#undo-delete")
    expect(page.locator("#library-message")).to_contain_text("Liste restaurée")
    expect(cards).to_have_count(count)
    assert answers == [303], answers
    page.goto(path)
    expect(page.locator("h1")).to_be_visible()
    page.goto("/listes/supprimees")
    expect(page.locator("#deleted-count")).to_have_text("Rien de supprimé ces 30 derniers jours.")


@pytest.mark.parametrize("width", [390, 1280])
def test_a_book_unit_retirer_double_clicked_removes_one_and_comes_back(
    page: Page, width: int
) -> None:
    """An army book's « Retirer » double-clicked takes one unit out; « Annuler » puts it back
    at its place; the page, with its message and « Unités retirées », has no axe violation."""
    page.set_viewport_size({"width": width, "height": 844})
    page.goto("/livres/exemples/dcsystem")
    page.locator("form[action='/livres/exemples/dcsystem/dupliquer'] button").click()
    page.wait_for_load_state("networkidle")
    units = page.locator("section.book-unit")
    before = units.evaluate_all("(sections) => sections.map((s) => s.id)")
    answers = double_click(page, f"#{before[0]} form[action$='/retirer'] button")
    assert answers == [303], answers
    expect(page.locator("#book-message")).to_contain_text("retiré du livre.")
    assert units.evaluate_all("(sections) => sections.map((s) => s.id)") == before[1:]
    expect(page.locator("#removed-units")).to_be_visible()
    assert run_axe(page) == []
    page.locator("#undo-delete").focus()
    page.keyboard.press("Enter")
    page.wait_for_load_state("networkidle")
    expect(page.locator("#book-message")).to_contain_text("remis dans le livre.")
    assert units.evaluate_all("(sections) => sections.map((s) => s.id)") == before
    expect(page.locator("#removed-units")).to_have_count(0)
