"""A list drawn from army books, shared: its exports say where each unit comes from
(« Livre : Marines de Kessel, v1 » and the book's link), its page too, and once the book is
published again the page says so with a link while its units stay as they were. A published
book's BBCode renders in a real BBCode parser, its Markdown in CommonMark."""

from typing import Any

from fastapi.testclient import TestClient

from tests.api.test_books import BOOK, create_book, drawn_roster, publish, token

DICE_MARINE = (
    "[color=#c0392b]2 rouges[/color], [color=#1f5fa8]1 bleu[/color], [color=#7f8c8d]1 blanc[/color]"
)
DICE_JAFFA = (
    "[color=#c0392b]3 rouges[/color], [color=#1f5fa8]1 bleu[/color], "
    "[color=#7f8c8d]3 blancs[/color], [color=#b7950b]1 jaune[/color]"
)
JAFFA_PROFILE = "Niveau 2 — Arme de tir niveau 3, Arme de corps à corps niveau 1"


def shared_list(client: TestClient) -> tuple[dict[str, Any], str, str]:
    """The book published, a list drawn from it (two entries from the book, one from the
    catalogue), shared: (the book as created, its code, the list's share code)."""
    created = create_book(client)
    book = publish(client, created).json()["code"]
    roster = drawn_roster(client, book)
    share = client.post(f"/api/v1/rosters/{roster['id']}/shares", headers=token(roster))
    assert share.status_code == 201
    return created, book, share.json()["code"]


def test_list_exports_say_where_each_unit_comes_from(client: TestClient) -> None:
    _created, book, code = shared_list(client)
    link = f"http://testserver/a/{book}"
    # 2 Marines at 13 (8 + 5) and a Jaffa at 28 from the book (L125-127), the catalogue's
    # Jaffa at its printed 30: 84 points.
    assert client.get(f"/s/{code}.txt").text == (
        "Patrouille\n"
        "Dices & Colors System — Stargate's War\n"
        "Total : 84 / 200 points\n"
        "\n"
        "2 x Marine - 13 pts chacun, 26 pts\n"
        "    Niveau 1 - Arme de tir niveau 1 - 2 rouges - 1 bleu - 1 blanc\n"
        f"    Livre : Marines de Kessel, v1 - {link}\n"
        "1 x Jaffa - 28 pts\n"
        f"    {JAFFA_PROFILE.replace(' — ', ' - ')} - 3 rouges - 1 bleu - 3 blancs - 1 jaune\n"
        f"    Livre : Marines de Kessel, v1 - {link}\n"
        "1 x Jaffa - 30 pts\n"
        f"    {JAFFA_PROFILE.replace(' — ', ' - ')} - 3 rouges - 1 bleu - 3 blancs - 1 jaune\n"
        "Coûts des profils publiés : tels qu'imprimés dans les listes d'armée.\n"
        "\n"
        f"http://testserver/s/{code}\n"
    )
    origin_bbcode = f"[i]Livre : Marines de Kessel, v1[/i] — [url={link}]{link}[/url]"
    assert client.get(f"/s/{code}.bbcode").text == (
        "[b]Patrouille[/b] — Dices & Colors System — Stargate's War\n"
        "[b]Total : 84 / 200 points[/b]\n"
        "\n"
        "[b]2 × Marine[/b] — 13 pts chacun, 26 pts\n"
        f"Niveau 1 — Arme de tir niveau 1 — {DICE_MARINE}\n"
        f"{origin_bbcode}\n"
        "[b]1 × Jaffa[/b] — 28 pts\n"
        f"{JAFFA_PROFILE} — {DICE_JAFFA}\n"
        f"{origin_bbcode}\n"
        "[b]1 × Jaffa[/b] — 30 pts\n"
        f"{JAFFA_PROFILE} — {DICE_JAFFA}\n"
        "[size=85]Coûts des profils publiés : tels qu'imprimés dans les listes d'armée.[/size]\n"
        "\n"
        f"[url=http://testserver/s/{code}]Voir cette liste sur Caserne[/url]\n"
    )
    assert client.get(f"/s/{code}.md").text == (
        "# Patrouille\n"
        "\n"
        "*Dices & Colors System — Stargate's War*\n"
        "\n"
        "**Total : 84 / 200 points**\n"
        "\n"
        "- **2 × Marine** — 13 pts chacun, 26 pts\\\n"
        "  Niveau 1 — Arme de tir niveau 1 — 2 rouges — 1 bleu — 1 blanc\\\n"
        f"  Livre : Marines de Kessel, v1 — <{link}>\n"
        "- **1 × Jaffa** — 28 pts\\\n"
        f"  {JAFFA_PROFILE} — 3 rouges — 1 bleu — 3 blancs — 1 jaune\\\n"
        f"  Livre : Marines de Kessel, v1 — <{link}>\n"
        "- **1 × Jaffa** — 30 pts\\\n"
        f"  {JAFFA_PROFILE} — 3 rouges — 1 bleu — 3 blancs — 1 jaune\n"
        "\n"
        "*Coûts des profils publiés : tels qu'imprimés dans les listes d'armée.*\n"
        "\n"
        f"[Voir cette liste sur Caserne](http://testserver/s/{code})\n"
    )


def test_the_origins_render_as_links_in_bbcode_and_commonmark(client: TestClient) -> None:
    import bbcode
    from markdown_it import MarkdownIt

    _created, book, code = shared_list(client)
    link = f'<a rel="nofollow" href="http://testserver/a/{book}">http://testserver/a/{book}</a>'
    html = bbcode.Parser().format(client.get(f"/s/{code}.bbcode").text)
    assert html.count(f"<em>Livre : Marines de Kessel, v1</em> — {link}") == 2
    md = MarkdownIt("commonmark").render(client.get(f"/s/{code}.md").text)
    anchor = f'<a href="http://testserver/a/{book}">http://testserver/a/{book}</a>'
    assert md.count(f"Livre : Marines de Kessel, v1 — {anchor}") == 2


def test_the_share_page_says_when_a_book_has_a_newer_version(client: TestClient) -> None:
    created, book, code = shared_list(client)
    page = client.get(f"/s/{code}")
    assert page.status_code == 200
    # Drawn from a book: the page may change (a newer version), so it is cached briefly.
    assert page.headers["cache-control"] == "public, max-age=60"
    assert 'class="flash warning newer-book"' not in page.text
    origin = f'Livre : <a href="/a/{book}">Marines de Kessel, v1</a>'
    assert page.text.count(origin) == 2
    etag = page.headers["etag"]
    assert client.get(f"/s/{code}", headers={"If-None-Match": etag}).status_code == 304

    veteran = {"level": 2, "items": ["arme_tir_1", "gilet_de_protection"]}
    changed = {**BOOK, "units": [BOOK["units"][0], {**BOOK["units"][1], "definition": veteran}]}
    put = client.put(
        f"/api/v1/books/{created['id']}", json=changed, headers={**token(created), "If-Match": "1"}
    )
    assert put.status_code == 200
    latest = publish(client, created).json()["code"]
    again = client.get(f"/s/{code}", headers={"If-None-Match": etag})
    assert again.status_code == 200 and again.headers["etag"] != etag
    assert (
        '<p class="flash warning newer-book" id="newer-book-0">Le livre d\'armée « Marines de '
        "Kessel » a une version plus récente (v2) : "
        f'<a href="/a/{latest}">voir la dernière version</a>.'
    ) in again.text
    # The share itself never changes: the Marine at 13 points, from v1.
    assert entries_table(again.text) == entries_table(page.text)
    assert '<td class="num" data-label="Coût">13</td>' in entries_table(again.text)
    assert again.text.count(origin) == 2


def entries_table(html: str) -> str:
    start = html.index('<table class="entries">')
    return html[start : html.index("</table>", start)]


def test_a_list_without_books_keeps_its_immutable_share(client: TestClient) -> None:
    roster = client.post(
        "/api/v1/rosters",
        json={"system": "dcsystem", "name": "Sans livre", "entries": [{"unit": "jaffa"}]},
    ).json()
    code = client.post(f"/api/v1/rosters/{roster['id']}/shares", headers=token(roster)).json()[
        "code"
    ]
    page = client.get(f"/s/{code}")
    assert page.headers["cache-control"].endswith("immutable")
    assert "Livre : " not in page.text and "newer-book" not in page.text


def test_a_published_books_bbcode_renders_in_a_bbcode_parser(client: TestClient) -> None:
    """Every unit with its profile, breakdown and cost; the invalid one says so."""
    import bbcode

    created = create_book(client)
    code = publish(client, created).json()["code"]
    html = bbcode.Parser().format(client.get(f"/a/{code}.bbcode").text)
    assert "[" not in html and "]" not in html  # every tag opened is closed and rendered
    assert html.startswith(
        "<strong>Marines de Kessel (Kessel) — Dices &amp; Colors System — Stargate&#39;s War, "
        "v1</strong>"
    )
    assert '<span style="color:#c0392b;">Livre avec des unités non valides</span>' in html
    # Each unit's block, one line each: its cost, profile and breakdown (L125-127: 15 + 10 +
    # 3 = 28; 8 + 5 = 13; the overloaded Lourd 8 + 5 + 8 - 3 - 7 = 11, with its errors).
    assert (
        "<br /><br /><strong>Jaffa</strong> — 28 pts<br />Niveau : 2<br />"
        "Équipement : Arme de tir niveau 3, Arme de corps à corps niveau 1<br />"
        "Niveau 2 : 15 pts<br />"
        "Arme de tir niveau 3 : 10 pts<br />Arme de corps à corps niveau 1 : 3 pts<br /><br />"
        "<strong>Marine</strong> — 13 pts<br />Niveau : 1<br />"
        "Équipement : Arme de tir niveau 1<br />"
        "Niveau 1 : 8 pts<br />Arme de tir niveau 1 : 5 pts<br />Tireur.<br /><br />"
        "<strong>Lourd</strong> — 11 pts<br />Niveau : 1<br />"
        # Catalogue ids by their names (the profile said `arme_tir_1`, `gilet_de_protection`).
        "Équipement : Arme de tir niveau 1, Gilet de protection / armure / écailles, Lent, "
        "Fragile<br />"
        "Niveau 1 : 8 pts<br />Arme de tir niveau 1 : 5 pts<br />"
        "Gilet de protection / armure / écailles : 8 pts<br />Lent : -3 pts<br />"
        "Fragile : -7 pts<br />"
        "Erreur : Niveau 1 : 2 capacités ou équipements pour 1 autorisé(s), 1 de trop.<br />"
        "Erreur : 2 handicaps pour 1 autorisé, 1 de trop.<br /><br />"
    ) in html


def test_a_unit_text_opening_a_block_stays_text_in_markdown(client: TestClient) -> None:
    """Issue 28, item 9: a unit's text opens its list item's line; « # », « - », « + »,
    « 1. » or « --- » there made a heading, a list or a rule in CommonMark."""
    from markdown_it import MarkdownIt

    texts = ["# Titre", "- puce", "+ plus", "1. un", "---", "> cité", "2) deux"]
    units = [
        {**BOOK["units"][0], "id": f"u{i}", "name": f"U{i}", "text": text}
        for i, text in enumerate(texts)
    ]
    created = create_book(client, {**BOOK, "description": "", "units": units})
    code = publish(client, created).json()["code"]
    md = client.get(f"/a/{code}.md").text
    html = MarkdownIt("commonmark").render(md)
    for tag in ("<h1>", "<h2>", "<hr", "<ol", "<blockquote>"):
        assert tag not in html.split("</h2>", 1)[1], (tag, md)
    # One list of units, each with one list of details: no list opened by a text.
    assert html.count("<ul>") == 1 + len(texts)
    for text in texts:
        assert f"<li>{text.replace('>', '&gt;')}</li>" in html, (text, html)
