"""« Mes listes » in Chromium (issue 7): at 390 px the library does not scroll sideways, each
action (open, rename, duplicate, delete with its confirmation, copy the edit link) works with
the keyboard alone, and « Nouvelle liste » stores nothing until the form is sent."""

import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from sqlalchemy import update

from app.dates import PARIS
from app.db import make_engine
from app.store.models import Roster
from tests.browser.helpers import FRENCH_DATETIME

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
AXE = Path(__file__).parent / "vendor" / "axe-4.14.1.min.js"


def serious_axe_violations(page: Page) -> list[dict[str, Any]]:
    # Evaluated through the DevTools protocol: the pages' CSP allows no injected <script>.
    page.evaluate(AXE.read_text(encoding="utf-8"))
    violations: list[dict[str, Any]] = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations"""
    )
    return [
        {"id": v["id"], "nodes": [n["target"] for n in v["nodes"][:3]]}
        for v in violations
        if v["impact"] in ("serious", "critical")
    ]


def fits(page: Page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def cards(page: Page) -> Any:
    return page.locator("#library article")


def card_of(page: Page, roster_id: str) -> Any:
    return page.locator(f"#roster-{roster_id}")


def open_example(page: Page, system: str, example: str) -> str:
    """Opens one of the rules' examples from the home page, as a player does; its id."""
    page.goto("/")
    page.locator(f"#system-{system} form[action='/listes']").filter(
        has=page.locator(f"input[name=example][value='{example}']")
    ).get_by_role("button").click()
    page.wait_for_url(re.compile(r"/r/\w+$"))
    return page.url.rsplit("/", 1)[-1]


def tab_order(page: Page, start: Any, steps: int) -> list[str]:
    """The accessible text of each control reached by Tab from `start`."""
    start.focus()
    reached = []
    for _ in range(steps):
        page.keyboard.press("Tab")
        reached.append(
            page.evaluate(
                "() => (document.activeElement.getAttribute('aria-label') "
                "|| document.activeElement.textContent).trim()"
            )
        )
    return reached


def test_library_fits_a_phone_and_every_action_works_with_the_keyboard(
    new_context: Callable[..., BrowserContext],
) -> None:
    context = new_context(viewport=PHONE, permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    sg = open_example(page, "dcsystem", "feuille_de_bataille_sg")
    bastos = open_example(page, "bastos", "imperiaux")

    page.goto("/listes")
    expect(cards(page)).to_have_count(2)
    fits(page, PHONE["width"])
    assert serious_axe_violations(page) == []
    sg_card = card_of(page, sg)
    expect(sg_card).to_contain_text("203 / 200 points")
    expect(sg_card).to_contain_text("Liste non valide")
    expect(sg_card).to_contain_text(re.compile(f"Modifiée le {FRENCH_DATETIME.pattern}"))
    expect(card_of(page, bastos)).to_contain_text("2 Figurines")
    expect(card_of(page, bastos)).not_to_contain_text("points")

    # Every action of a card is reached by Tab, in reading order.
    title = sg_card.locator("h2 a")
    name = title.inner_text()
    assert tab_order(page, title, 4) == [
        f"Ouvrir {name}",
        f"Dupliquer {name}",
        f"Supprimer {name}",
        "Renommer",
    ]

    # Rename: open the inline form with Enter, type, Enter.
    sg_card.locator("details.rename summary").focus()
    page.keyboard.press("Enter")
    field = sg_card.locator("input[name=name]")
    expect(field).to_be_visible()
    page.keyboard.press("Tab")
    expect(field).to_be_focused()
    page.keyboard.press("Control+A")
    page.keyboard.type("Équipe SG-1")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(rf"/listes#roster-{sg}$"))
    expect(page.locator("#library-message")).to_have_text("Liste renommée : « Équipe SG-1 ».")
    expect(card_of(page, sg).locator("h2")).to_have_text("Équipe SG-1")
    fits(page, PHONE["width"])

    # Copy the carnet link: the fold holds the link and its QR code, the button copies it.
    page.locator("#carnet summary").focus()
    page.keyboard.press("Enter")
    link = page.locator("#carnet-link-value")
    expect(link).to_have_value(
        re.compile(r"^http://127\.0\.0\.1:\d+/carnet/[0-9a-f]{24}\?t=[A-Za-z0-9_-]{43}$")
    )
    expect(page.locator("#carnet svg[role=img]")).to_be_visible()
    fits(page, PHONE["width"])
    page.locator("#carnet").get_by_role("button", name="Copier").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#carnet").get_by_role("button", name="Copié !")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == link.input_value()
    sg_card = card_of(page, sg)

    # Duplicate: Enter on the button; the copy appears with a message.
    sg_card.get_by_role("button", name="Dupliquer").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#library-message")).to_have_text("Copie créée : « Équipe SG-1 (copie) ».")
    expect(cards(page)).to_have_count(3)
    copy = cards(page).filter(has_text="Équipe SG-1 (copie)")
    copy_id = copy.get_attribute("id").removeprefix("roster-")  # type: ignore[union-attr]

    # Delete: asked first (the confirmation takes the focus), then gone with a message.
    copy.get_by_role("button", name="Supprimer").focus()
    page.keyboard.press("Enter")
    confirm = page.locator("#confirm-delete")
    expect(confirm).to_contain_text("Supprimer « Équipe SG-1 (copie) » ?")
    expect(page.locator("#confirm-delete-button")).to_be_focused()
    expect(cards(page)).to_have_count(3)  # nothing deleted yet
    fits(page, PHONE["width"])
    assert serious_axe_violations(page) == []
    page.keyboard.press("Enter")
    expect(page.locator("#library-message")).to_have_text(
        "Liste supprimée : « Équipe SG-1 (copie) »."
    )
    expect(cards(page)).to_have_count(2)
    expect(card_of(page, copy_id)).to_have_count(0)

    # Cancelling a deletion keeps the list.
    card_of(page, bastos).get_by_role("button", name="Supprimer").focus()
    page.keyboard.press("Enter")
    page.locator("#confirm-delete").get_by_role("link", name="Annuler").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#confirm-delete")).to_have_count(0)
    expect(cards(page)).to_have_count(2)

    # Open: Enter on the link opens the editor.
    card_of(page, sg).get_by_role("link", name="Ouvrir").focus()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(rf"/r/{sg}$"))

    page.set_viewport_size(DESKTOP)
    page.goto("/listes")
    fits(page, DESKTOP["width"])


def test_new_list_is_stored_only_when_the_form_is_sent(
    new_context: Callable[..., BrowserContext],
) -> None:
    page = new_context(viewport=PHONE).new_page()
    page.goto("/")
    page.locator("#system-dcsystem").get_by_role("button", name="Nouvelle liste").focus()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/listes/nouvelle\?system=dcsystem$"))
    fits(page, PHONE["width"])
    assert serious_axe_violations(page) == []
    expect(page.locator("#new-name")).to_be_focused()
    page.keyboard.type("Chasse au Goa'uld")
    page.keyboard.press("Tab")
    page.keyboard.type("200")
    page.go_back()  # changed one's mind: nothing was stored
    page.goto("/listes")
    expect(page.locator("#library-empty")).to_be_visible()

    page.goto("/listes/nouvelle?system=dcsystem")
    expect(page.locator("#new-name")).to_be_focused()  # typing before the focus lands loses keys
    page.keyboard.type("Chasse au Goa'uld")
    page.keyboard.press("Tab")
    page.keyboard.type("200")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/r/\w+$"))
    expect(page.locator("#roster-name")).to_have_value("Chasse au Goa'uld")
    expect(page.locator("#points-limit")).to_have_value("200")
    page.goto("/listes")
    expect(cards(page)).to_have_count(1)


def test_the_change_date_reads_in_every_month(
    new_context: Callable[..., BrowserContext], database_url: str
) -> None:
    """The card's date on the first day of each month (the server's clock, as stored): the
    page's pattern must hold in février, août and décembre too, run as JavaScript."""
    page = new_context(viewport=DESKTOP).new_page()
    roster_id = open_example(page, "bastos", "imperiaux")
    engine = make_engine(database_url)
    expected = [
        "1er janvier", "1er février", "1er mars", "1er avril", "1er mai", "1er juin",
        "1er juillet", "1er août", "1er septembre", "1er octobre", "1er novembre",
        "1er décembre",
    ]  # fmt: skip
    try:
        for month, day in enumerate(expected, start=1):
            # Stored in UTC, as the app stores every time (SQLite keeps no offset).
            moment = datetime(2026, month, 1, 9, 5, tzinfo=PARIS).astimezone(UTC)
            with engine.begin() as connection:
                connection.execute(
                    update(Roster).where(Roster.id == roster_id).values(updated_at=moment)  # type: ignore[arg-type]
                )
            page.goto("/listes")
            card = card_of(page, roster_id)
            expect(card).to_contain_text(re.compile(f"Modifiée le {FRENCH_DATETIME.pattern}"))
            expect(card).to_contain_text(f"Modifiée le {day} 2026 à 9 h 05")
    finally:
        engine.dispose()
