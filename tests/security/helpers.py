"""What the security tests share."""

from fastapi.testclient import TestClient


def new_roster(client: TestClient) -> tuple[str, str]:
    """A roster made through the API: (id, edit token)."""
    created = client.post("/api/v1/rosters", json={"system": "dcsystem", "name": "Test"}).json()
    return created["id"], created["edit_token"]


def html_roster(client: TestClient) -> str:
    """A roster made the way the home page does ("Nouvelle liste"): its id; the client now
    holds its edit cookie."""
    response = client.post(
        "/listes",
        data={"system": "dcsystem"},
        headers={"Sec-Fetch-Site": "same-origin"},
        follow_redirects=False,
    )
    assert response.status_code == 303, response.text
    return str(response.headers["location"]).removeprefix("/r/")
