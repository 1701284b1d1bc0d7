"""Issue 30, « Tabletop Simulator »: a share's figures for the virtual table (docs/tts.md).

For every registered system and each of its example lists, /s/{code}.tts.json and .tts.txt
carry every card of the play sheet: its count, profile values, weapons and equipment, damage
tracks, rules with their text and line, house rules and errors, exactly as the sheet built
from the same snapshot has them; the JSON validates against docs/tts-export.schema.json and
every BBCode tag is one TTS knows, balanced.
"""

import json
import re
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from fastapi.testclient import TestClient

from app.exports.tts import escape
from app.systems.play_traits import NO_PLAY_TRAITS, Played
from app.systems.sheet import SheetData, SheetEntry, build_sheet
from tests.conftest import SYSTEMS
from tests.web.test_play_sheet import share_document
from tests.web.test_play_sheet import shared_examples as share_examples

SCHEMA = json.loads(
    (Path(__file__).parents[2] / "docs" / "tts-export.schema.json").read_text(encoding="utf-8")
)
VALIDATOR = jsonschema_rs.validator_for(SCHEMA)

# Tabletop Simulator's BBCode (its Knowledge Base, « BB Codes »): these tags, nothing else.
_TOKEN = re.compile(r"\[([^\[\]]*)\]")
_PAIRED = {"b", "i", "u", "s", "sub", "sup"}
_COLOUR = re.compile(r"^[0-9a-fA-F]{6}$")


def tts_tags_balanced(text: str) -> bool:
    """Every `[...]` is a TTS tag, each closed in order, and no bracket stands alone."""
    stack: list[str] = []
    for token in _TOKEN.finditer(text):
        tag = token.group(1)
        if tag in _PAIRED or _COLOUR.match(tag):
            stack.append("-" if _COLOUR.match(tag) else tag)
        elif tag == "-" or (tag.startswith("/") and tag[1:] in _PAIRED):
            if not stack or stack.pop() != tag.lstrip("/"):
                return False
        else:
            return False
    return not stack and "[" not in _TOKEN.sub("", text) and "]" not in _TOKEN.sub("", text)


def plain(text: str) -> str:
    """What a player reads: the text without its tags."""
    return _TOKEN.sub("", text)


def test_the_balance_check_knows_tts_tags() -> None:
    assert tts_tags_balanced("[b]A[/b] [00ff16]2/2[-] [sup][i]x[/i][/sup]")
    assert not tts_tags_balanced("[b]A")
    assert not tts_tags_balanced("[b][i]A[/b][/i]")
    assert not tts_tags_balanced("[color=#ff0000]A[/color]")  # a forum's tag, not TTS's
    assert not tts_tags_balanced("A ] B")
    assert escape("[ff0000]Bob[-]\n[b]") == "(ff0000)Bob(-) (b)"


def check_object(obj: dict[str, Any], entry: SheetEntry, counters: list[dict[str, Any]]) -> None:
    """One TTS object against the sheet card it comes from."""
    assert (obj["count"], obj["name"], obj["profile"]) == (entry.count, entry.name, entry.profile)
    assert (obj["group"], obj["counted"]) == (entry.group, entry.counted)
    table = entry.table
    stats = list(zip(table.columns, table.values, strict=True)) if table else []
    assert [(s["label"], s["value"]) for s in obj["stats"]] == stats
    assert obj["details"] == entry.details
    assert obj["tracks"] == entry.tracks
    assert [(r["name"], r["text"], r["source"]) for r in obj["rules"]] == [
        (r.name, r.text if r.printed else None, r.source) for r in entry.rules
    ]
    assert obj["house_rules"] == entry.house_rules
    assert obj["errors"] == [issue.message for issue in entry.errors]
    assert obj["counters"] == counters
    # The BBCode a figure receives carries the same: read without its tags.
    for field in ("nickname", "description"):
        assert tts_tags_balanced(obj[field]), obj[field]
    name_line = plain(obj["nickname"])
    assert escape(entry.name) in name_line and "\n" not in obj["nickname"]
    if entry.profile:
        assert f"({escape(entry.profile)})" in name_line
    lines = plain(obj["description"]).split("\n")
    read = "\n".join(lines)
    for label, value in stats:
        assert f"{escape(label)} {escape(value)}" in read
    for detail in entry.details:
        assert escape(detail) in lines
    for badge in entry.badges:
        assert escape(badge.text) in read
    for rows in entry.tracks:
        for row in rows:
            assert " ".join(escape(box) for box in row) in lines
    for rule in entry.rules:
        assert f"{escape(rule.name)} ({escape(rule.source)})" in lines
        told = escape(rule.text) if rule.printed else "règle non reproduite dans le texte"
        assert told in lines
    for rule in entry.house_rules:
        assert f"Règle maison : {escape(rule)}" in lines
    alive = next((c for c in counters if c["out"]), None)
    if alive is not None:  # Yellowscribe's W/W at the head of the name
        assert obj["nickname"].startswith(f"[00ff16]{alive['max']}/{alive['max']}[-] ")


def check_share(client: TestClient, code: str) -> dict[str, Any]:
    """Both exports of a share against the sheet of its snapshot; the JSON export."""
    app: Any = client.app
    snapshot = client.get(f"/api/v1/shares/{code}").json()
    system_id = snapshot["system"]
    sheet = build_sheet(snapshot, app.state.sheets.get(system_id) or SheetData(rules_file=""))
    traits = app.state.play_traits.get(system_id) or NO_PLAY_TRAITS
    played = Played(app.state.systems[system_id], snapshot, sheet)

    answer = client.get(f"/s/{code}.tts.json")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/json"
    assert answer.headers["cache-control"].endswith("immutable")
    again = client.get(f"/s/{code}.tts.json", headers={"If-None-Match": answer.headers["etag"]})
    assert again.status_code == 304
    body = answer.json()
    errors = [error.message for error in VALIDATOR.iter_errors(body)]
    assert errors == []
    assert (body["format"], body["format_version"], body["system"]) == ("caserne-tts", 1, system_id)
    assert (body["name"], body["valid"]) == (sheet.name, sheet.valid)
    assert body["url"] == f"http://testserver/s/{code}"
    assert len(body["objects"]) == len(sheet.entries)
    assert body["figures"] == sum(obj["count"] for obj in body["objects"]) == sheet.figures
    for obj, entry in zip(body["objects"], sheet.entries, strict=True):
        figure = traits.figure(played, entry)
        counters = [
            {"id": c.id, "label": c.label, "max": c.max, "out": c.out} for c in figure.counters
        ]
        check_object(obj, entry, counters)
        if sheet.has_points:
            assert obj["points_each"] == entry.points_each
    assert [extra["label"] for extra in body["extras"]] == [e["label"] for e in sheet.extras]

    text = client.get(f"/s/{code}.tts.txt")
    assert text.status_code == 200
    assert text.headers["content-type"] == "text/plain; charset=utf-8"
    assert text.headers["etag"] != answer.headers["etag"]
    at = 0
    for obj in body["objects"]:  # each block in order: its name line, then its description
        block = f"Nom :\n{obj['nickname']}\nDescription :\n{obj['description']}\n"
        found = text.text.find(block, at)
        assert found > at, obj["nickname"]
        at = found + len(block)
    return dict(body)


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_every_example_carries_its_sheet_to_tabletop_simulator(
    client: TestClient, system_id: str
) -> None:
    for code in share_examples(client, system_id):
        check_share(client, code)


def test_examples_show_profiles_weapons_rules_and_tracks(client: TestClient) -> None:
    """The examples hold what the checks above must meet at least once: a profile table, a
    weapon line, a rule with its text, a damage track, a life counter."""
    seen: dict[str, bool] = {}
    for system_id in ("dcsystem", "nolimits", "necrowarzone", "bastos", "infinity"):
        for code in share_examples(client, system_id):
            for obj in check_share(client, code)["objects"]:
                seen["stats"] = seen.get("stats", False) or bool(obj["stats"])
                seen["tracks"] = seen.get("tracks", False) or bool(obj["tracks"])
                seen["rule text"] = seen.get("rule text", False) or any(
                    rule["text"] for rule in obj["rules"]
                )
                seen["life"] = seen.get("life", False) or obj["nickname"].startswith("[00ff16]")
    assert seen == {"stats": True, "tracks": True, "rule text": True, "life": True}


def test_nolimits_sergeant_as_tabletop_simulator_shows_him(client: TestClient) -> None:
    """One figure written out: No Limits' example sergeant (its numbers are the sheet's)."""
    code = share_examples(client, "nolimits")[0]
    sergeant = client.get(f"/s/{code}.tts.json").json()["objects"][0]
    assert sergeant["nickname"] == "[00ff16]2/2[-] [b]Sergent[/b] (Sergent (personnage))"
    assert sergeant["description"].split("\n\n")[:2] == [
        "Personnage · Général d'armée · 49 pts\n[i]1. Sergent-chef[/i]",
        "  ".join(
            f"[56f442]{label}[-] {value}"
            for label, value in zip(
                ["AC", "CT", "CC", "FO", "EN", "PV", "CO", "SV"],
                ["9", "6", "6", "4", "5", "2", "7", "2"],
                strict=True,
            )
        ),
    ]


def test_hostile_names_open_no_tag(client: TestClient) -> None:
    """A player's text cannot open, close or colour anything on the table."""
    hostile = "[ff0000]Bob[-] [b]chef[/sup] ]["
    document = {
        "system": "dcsystem",
        "name": hostile,
        "points_limit": 200,
        "entries": [{"unit": "chef_de_groupe_sg", "name": hostile, "count": 2}],
    }
    code = share_document(client, document)
    body = check_share(client, code)
    assert body["objects"][0]["nickname"].endswith(
        "[b](ff0000)Bob(-) (b)chef(/sup) )([/b] (Chef de groupe SG)"
    )
    text = client.get(f"/s/{code}.tts.txt").text
    assert text.startswith(f"{hostile} — ")  # the header is plain text, not for TTS


def test_unknown_share_has_no_tabletop_simulator_export(client: TestClient) -> None:
    missing = client.get("/s/zzzzzzzz.tts.json")
    assert missing.status_code == 404
    assert missing.headers["content-type"] == "application/problem+json"
    assert missing.json()["errors"][0]["code"] == "share_not_found"
    assert client.get("/s/zzzzzzzz.tts.txt").status_code == 404
    assert client.get("/s/zzzzzzzz.tts.md").status_code == 404  # no such export


def test_share_page_and_api_link_the_exports(client: TestClient) -> None:
    code = share_examples(client, "dcsystem")[0]
    page = client.get(f"/s/{code}").text
    assert '<h2 id="tts-title">Pour Tabletop Simulator</h2>' in page
    assert f'<a href="/s/{code}.tts.txt" id="tts-text">' in page
    assert f'<a href="/s/{code}.tts.json" id="tts-json">' in page
