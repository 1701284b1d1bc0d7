"""Issue 7: the play sheet (/s/{code}/feuille), a printable card per unit from the share's
snapshot, for every system; No Limits' damage track as boxes to tick with its legend, on
the sheet and on the share page."""

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.web.render import damage_track_rows
from tests.conftest import SYSTEMS


def shared_examples(client: TestClient, system_id: str) -> list[str]:
    """Each example roster of a system stored and shared through the API: the share codes."""
    app: Any = client.app
    codes = []
    for example in app.state.systems[system_id].example_rosters():
        created = client.post("/api/v1/rosters", json=example.document)
        assert created.status_code == 201, created.text
        body = created.json()
        auth = {"Authorization": f"Bearer {body['edit_token']}"}
        shared = client.post(f"/api/v1/rosters/{body['id']}/shares", headers=auth)
        assert shared.status_code == 201
        codes.append(shared.json()["code"])
    return codes


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_every_share_has_a_play_sheet(client: TestClient, system_id: str) -> None:
    for code in shared_examples(client, system_id):
        snapshot = client.get(f"/api/v1/shares/{code}").json()
        page = client.get(f"/s/{code}/feuille")
        assert page.status_code == 200
        assert page.headers["cache-control"].startswith("public")
        again = client.get(f"/s/{code}/feuille", headers={"If-None-Match": page.headers["etag"]})
        assert again.status_code == 304
        cards = re.findall(r'<div class="card sheet-card"', page.text)
        lines = snapshot["summary"]["lines"]
        assert len(cards) == len(lines) + len(snapshot["summary"]["extras"])
        for line in lines:
            assert line["name"].replace("'", "&#39;") in page.text
        assert 'class="tick-box"' in page.text or 'class="box' in page.text
        assert f'href="/s/{code}/feuille"' in client.get(f"/s/{code}").text


def test_nolimits_damage_tracks_are_boxes_on_the_sheet_and_the_share_page(
    client: TestClient,
) -> None:
    code = shared_examples(client, "nolimits")[0]
    for path in (f"/s/{code}", f"/s/{code}/feuille"):
        page = client.get(path).text
        read = re.sub(r"<textarea.*?</textarea>", "", page, flags=re.S)  # not the BBCode
        assert "Indicateur de dégâts : " not in read  # not as text
        assert '<table class="book damage-track">' in page
        # The Titan's track, as the book prints it (L236-238).
        assert re.search(r'<td class="box mv">Mv</td><td class="box ar">Ar</td>', page)
        assert "Mv</span> : −1 AC" in page


def test_a_damage_track_detail_reads_as_rows_of_boxes() -> None:
    detail = "Indicateur de dégâts : 1 2 3 Mv Ar / 6 7 Mv 9 Ar / 11 Mv 13 14"
    assert damage_track_rows(detail) == [
        ["1", "2", "3", "Mv", "Ar"],
        ["6", "7", "Mv", "9", "Ar"],
        ["11", "Mv", "13", "14"],
    ]
    assert damage_track_rows("AC 9 CT 5") is None


def test_an_unknown_share_has_no_sheet(client: TestClient) -> None:
    assert client.get("/s/inconnu/feuille").status_code == 404


def test_each_entry_names_its_rules_with_their_text(client: TestClient) -> None:
    """A rule named in an entry's details is printed on its card with its line."""
    page = client.get(f"/s/{shared_examples(client, 'infinity')[0]}/feuille").text
    # L20: the Sauteur de brume's « AD : Combat Jump » (a name holding « : »).
    assert "<dt>AD : Combat Jump</dt>" in page
    assert "Lors de la phase de déploiement, il n’est pas nécessaire" in page
    compact = client.get(f"/s/{shared_examples(client, 'nolimits')[0]}/feuille?compacte=1").text
    # The rules once at the end: L150 (named, not given), L259-260 (the Titan's damage
    # track); L394 (Infaillible) is named by no entry of the example.
    glossary = compact.split('<dl class="sheet-rules glossary">')[1].split("</dl>")[0]
    assert re.findall(r"<dt>(.*?)</dt>", glossary) == ["Baïonnette", "Mv", "Ar"]
    assert "règle non reproduite dans le texte" in glossary


def test_the_mode_partie_of_a_share_is_public_and_of_a_list_private(client: TestClient) -> None:
    code = shared_examples(client, "bastos")[0]
    game = client.get(f"/s/{code}/partie")
    assert game.status_code == 200
    assert game.headers["cache-control"].startswith("public")
    assert (
        client.get(f"/s/{code}/partie", headers={"If-None-Match": game.headers["etag"]}).status_code
        == 304
    )
    assert client.get("/s/inconnu/partie").status_code == 404
    created = client.post("/api/v1/rosters", json={"system": "bastos", "name": "B", "entries": []})
    roster_id = created.json()["id"]
    assert client.get(f"/r/{roster_id}/partie").status_code == 403  # no edit cookie
    client.get(
        f"/r/{roster_id}/modifier",
        params={"t": created.json()["edit_token"]},
        headers={"Sec-Fetch-Site": "none"},  # typed or pasted: joins at once (issue 25 item 2)
    )
    own = client.get(f"/r/{roster_id}/partie")
    assert own.status_code == 200
    assert own.headers["cache-control"] == "private, no-store"
    # The editor leads to it (issue 18 had left the route unlinked from the list).
    editor = client.get(f"/r/{roster_id}").text
    assert f'<a href="/r/{roster_id}/partie" id="to-game">Mode partie</a>' in editor
    assert f'href="/r/{roster_id}"' in own.text  # and it leads back


def share_document(client: TestClient, document: dict[str, Any]) -> str:
    created = client.post("/api/v1/rosters", json=document)
    assert created.status_code == 201, created.text
    body = created.json()
    auth = {"Authorization": f"Bearer {body['edit_token']}"}
    shared = client.post(f"/api/v1/rosters/{body['id']}/shares", headers=auth)
    assert shared.status_code == 201, shared.text
    return str(shared.json()["code"])


def card(page: str, name: str) -> str:
    """The sheet card whose title names `name`."""
    for found in page.split('<div class="card sheet-card"')[1:]:
        if name in found.split("</h3>")[0]:
            return found
    raise AssertionError(name)


def test_a_trooper_with_combat_jump_and_another_skill_has_both_rules(
    client: TestClient,
) -> None:
    """Issue 26 item 13: « AD : Combat Jump, Super saut » (one detail, the skills joined by
    a comma) printed no AD rule; the rule holds « : », the detail splits on it."""
    trooper = {
        "id": "para",
        "name": "Para volant",
        "orders": "regular",
        "ava": 2,
        "profile": {"MOV": [10, 5], "CC": 14, "TR": 12, "PH": 12, "VOL": 13, "BL": 1, "B": 1},
        "skills": ["ad_combat_jump", "super_saut"],
        "options": [{"id": "fusil", "name": "Fusil d'assaut", "points": 25, "swc": 0}],
    }
    document = {
        "system": "infinity",
        "name": "Paras",
        "points_limit": 300,
        "entries": [{"unit": "para", "option": "fusil", "count": 1, "group": 1}],
        "extras": {"units": [trooper]},
    }
    code = share_document(client, document)
    para = card(client.get(f"/s/{code}/feuille").text, "Para volant")
    assert "AD : Combat Jump, Super saut" in para
    # L20 and L136-137 (shared/rules/infinity-n2.fr.txt), each on the card.
    assert "<dt>AD : Combat Jump</dt>" in para
    assert "<dt>Super saut</dt>" in para
    compact = client.get(f"/s/{code}/feuille?compacte=1").text
    glossary = compact.split('<dl class="sheet-rules glossary">')[1].split("</dl>")[0]
    assert re.findall(r"<dt>(.*?)</dt>", glossary) == ["AD : Combat Jump", "Super saut"]


def test_bastos_pris_pour_cible_prints_both_sides_of_its_rows(client: TestClient) -> None:
    """Issue 26 item 13: each row of « Pris pour Cible » prints « A couvert » and « A
    découvert » (pour-quelques-bastos-de-plus.fr.txt L398 and L402)."""
    page = client.get(f"/s/{shared_examples(client, 'bastos')[0]}/feuille").text
    table = page.split('id="ref-pris_pour_cible"')[1].split("</table>")[0]
    rows = re.findall(r"<tr><th scope=\"row\">(.*?)</th><td>(.*?)</td></tr>", table)
    assert [label for label, _ in rows] == ["2 réussites", "1 réussite", "Aucune réussite"]
    assert "A découvert : si surclassé et en mouvement rapide" in rows[0][1]  # L398
    assert "A découvert : si surclassé, se met à plat-ventre" in rows[1][1]  # L402


def test_each_game_card_shows_its_sheet_card_s_profile_and_rules(client: TestClient) -> None:
    """Issue 26 item 14: the mode partie's cards showed counters only; each now shows the
    play sheet's badges (dice), profile table, weapons and rules, for every system."""
    app: Any = client.app
    for system_id in app.state.systems:
        for code in shared_examples(client, system_id):
            sheet = client.get(f"/s/{code}/feuille").text
            game = client.get(f"/s/{code}/partie").text
            sheet_cards = [c.split('<div class="tick"')[0] for c in sheet.split('sheet-card"')[1:]]
            game_cards = game.split('<div class="card game-entry">')[1:]
            assert len(game_cards) >= 1, system_id
            for paper, played in zip(sheet_cards, game_cards, strict=False):
                for piece in re.findall(
                    r'<span class="badges">.*?</span></span>|<table class="book sheet-profile">'
                    r".*?</table>|<ul class=\"sheet-details\">.*?</ul>|<dt>.*?</dt>",
                    paper,
                    flags=re.S,
                ):
                    assert piece in played, (system_id, piece)


def test_a_list_and_its_share_are_one_game_until_its_figures_change(client: TestClient) -> None:
    """Issue 26 item 14: one key for /r/{id}/partie and /s/{code}/partie of the same list;
    another once the list's figures change (the share keeps the old figures)."""
    catalogue = client.get("/api/v1/systems/bastos/catalogue").json()
    document = dict(catalogue["examples"][0]["document"])
    created = client.post("/api/v1/rosters", json=document).json()
    auth = {"Authorization": f"Bearer {created['edit_token']}"}
    code = client.post(f"/api/v1/rosters/{created['id']}/shares", headers=auth).json()["code"]
    client.get(
        f"/r/{created['id']}/modifier",
        params={"t": created["edit_token"]},
        headers={"Sec-Fetch-Site": "none"},  # typed or pasted: joins at once (issue 25 item 2)
    )

    def key(path: str) -> str:
        found = re.search(r'data-game-key="([^"]+)"', client.get(path).text)
        assert found, path
        return found.group(1)

    own, public = key(f"/r/{created['id']}/partie"), key(f"/s/{code}/partie")
    assert own == public
    assert created["id"] not in public  # the public page does not show the list's id

    def replace(new: dict[str, Any]) -> None:
        url = f"/api/v1/rosters/{created['id']}"
        etag = client.get(url, headers=auth).headers["etag"]
        assert client.put(url, json=new, headers=auth | {"If-Match": etag}).status_code == 200

    replace(document | {"name": "Autre nom"})
    assert key(f"/r/{created['id']}/partie") == public  # a rename: the same game
    first = document["entries"][0]
    replace(document | {"entries": [first | {"count": first["count"] + 1}]})
    assert key(f"/r/{created['id']}/partie") != public  # other figures: another game


def test_a_gang_of_four_has_its_rout_test_at_one(client: TestClient) -> None:
    """Issue 27: the rout threshold is the validation's value (L84: 25 % of 4 is 1); read
    back from the plural label « pertes pour un test de déroute », a gang of one to four
    figures (« 1 perte pour un test de déroute ») had no rout test in its mode partie."""
    codes = shared_examples(client, "necrowarzone")
    games = [client.get(f"/s/{code}/partie").text for code in codes]
    small = next(game for game in games if "/ 4 figurines" in game)
    assert 'data-rout="1"' in small
    assert "test de déroute à 1 (L84)" in small
