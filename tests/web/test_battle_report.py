"""A battle's report (`/campagne/rapport/{code}.bbcode`) is the share its line pinned: the
gang's name as it was then, not the list's name since; and it is cacheable like the other
exports, with an ETag and a 304 (issue 28, item 9)."""

from fastapi.testclient import TestClient

from tests.api.test_campaigns import battle, orlocks, stored


def test_the_report_names_the_gang_as_its_share_does(client: TestClient) -> None:
    gang = stored(client, orlocks("Les Orlocks"))
    recorded = battle(client, gang, 1, {"notes": "Une belle victoire."})
    assert recorded.status_code == 201, recorded.text
    url = f"/campagne/rapport/{recorded.json()['share']}.bbcode"
    before = client.get(url)
    assert before.status_code == 200
    assert before.text.startswith("[b]Rapport de bataille — Les Orlocks[/b]\n")
    headers = {"Authorization": f"Bearer {gang['edit_token']}", "If-Match": '"2"'}
    document = {**recorded.json()["roster"], "name": "Les Escher"}
    put = client.put(f"/api/v1/rosters/{gang['id']}", json=document, headers=headers)
    assert put.status_code == 200, put.text
    after = client.get(url)
    assert after.text == before.text


def test_the_report_has_an_etag_and_answers_304(client: TestClient) -> None:
    gang = stored(client, orlocks())
    share = battle(client, gang, 1, {}).json()["share"]
    url = f"/campagne/rapport/{share}.bbcode"
    first = client.get(url)
    etag = first.headers["etag"]
    assert etag.startswith('"') and etag.endswith('"')
    assert first.headers["cache-control"] == "public, max-age=60"
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    assert again.headers["etag"] == etag
    assert client.get(url, headers={"If-None-Match": '"other"'}).status_code == 200
