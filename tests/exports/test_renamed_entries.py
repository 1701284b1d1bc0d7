"""A renamed entry keeps saying what it is (issue 14, finding 9): « 2 × Sgt Bob » is a
Chef de groupe SG on the share page, the play sheet and every export."""

from fastapi.testclient import TestClient


def test_renamed_entry_keeps_its_profile_everywhere(client: TestClient) -> None:
    document = {
        "system": "dcsystem",
        "name": "Équipe SG",
        "points_limit": 200,
        "entries": [
            {"unit": "chef_de_groupe_sg", "name": "Sgt Bob", "count": 2},
            {"unit": "jaffa", "count": 1},
        ],
    }
    stored = client.post("/api/v1/rosters", json=document).json()
    shared = client.post(
        f"/api/v1/rosters/{stored['id']}/shares",
        headers={"Authorization": f"Bearer {stored['edit_token']}"},
    ).json()
    code = shared["code"]
    assert "[b]2 × Sgt Bob (Chef de groupe SG)[/b]" in client.get(f"/s/{code}.bbcode").text
    assert "- **2 × Sgt Bob (Chef de groupe SG)**" in client.get(f"/s/{code}.md").text
    assert "2 x Sgt Bob (Chef de groupe SG)" in client.get(f"/s/{code}.txt").text
    page = client.get(f"/s/{code}").text
    assert '<strong>Sgt Bob</strong> <span class="profile-name">(Chef de groupe SG)</span>' in page
    sheet = client.get(f"/s/{code}/feuille").text
    card = '2 ×</span> Sgt Bob <span class="profile-name">(Chef de groupe SG)</span>'
    assert card in sheet
    assert card in client.get(f"/s/{code}/partie").text  # the mode partie's card too
    # An entry not renamed reads as before.
    assert "[b]1 × Jaffa[/b]" in client.get(f"/s/{code}.bbcode").text
    lines = client.get(f"/api/v1/shares/{code}").json()["summary"]["lines"]
    assert [(line["name"], line["profile"]) for line in lines] == [
        ("Sgt Bob", "Chef de groupe SG"),
        ("Jaffa", None),
    ]
