"""Issue 29: a campaign's standings and its gangs' public pages cost the same whatever the
campaign's history (counted in SQL statements), are answered with an ETag (304 when
unchanged, a new one after any change they show), and a gang's battles come 20 a page.
docs/campaigns.md « Views remembered per version »."""

import re
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app.campaigns import ledger
from app.campaigns import states as fighters_of
from app.store import campaigns as store
from app.store.models import Roster
from tests.api.test_battle_verdicts import verdict, void
from tests.api.test_campaigns import battle, battles, campaign_of, join, orlocks, stored
from tests.campaigns.test_ledger_work import auth, statement_counts, statements


class Club:
    """A campaign of three gangs and the battles they recorded through the API."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.campaign = campaign_of(client)
        self.gangs = [stored(client, orlocks(name)) for name in ("Alpha", "Bravo", "Charlie")]
        for gang in self.gangs:
            assert join(client, self.campaign, gang).status_code == 201
        self.versions = {gang["id"]: 1 for gang in self.gangs}

    def record(self, gang: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
        response = battle(
            self.client, gang, self.versions[gang["id"]], {"campaign": self.campaign["id"], **body}
        )
        assert response.status_code == 201, response.text
        self.versions[gang["id"]] += 1
        return response.json()  # type: ignore[no-any-return]

    def share(self, gang: dict[str, Any]) -> str:
        response = self.client.post(f"/api/v1/rosters/{gang['id']}/shares", headers=auth(gang))
        assert response.status_code in (200, 201), response.text
        return str(response.json()["code"])


def club(client: TestClient, plain: int) -> Club:
    """`plain` battles between Alpha and Bravo (each names the other, a fighter gains XP),
    then one of each kind a view reads: a battle both gangs recorded (one battle), one
    disputed, a correction, a voided line and a death."""
    made = Club(client)
    alpha, bravo, charlie = made.gangs
    for number in range(plain):
        gang, other = (alpha, bravo) if number % 2 == 0 else (bravo, alpha)
        made.record(
            gang,
            {
                "date": f"2026-11-{1 + number % 28:02d}",
                "opponent_roster": other["id"],
                "fighters": [{"entry": 1 + number % 8, "xp": 2}],
            },
        )
    both = {"date": "2026-12-01", "opponent_roster": alpha["id"]}
    made.record(charlie, both)
    made.record(
        alpha,
        {
            **both,
            "opponent_roster": charlie["id"],
            "result": "loss",
            "fighters": [{"entry": 0, "xp": 5}],
        },
    )
    said = made.record(bravo, {"date": "2026-12-02", "opponent_roster": alpha["id"]})
    assert verdict(client, alpha, bravo["id"], said["battle"], "disputed").status_code == 200
    fixed = made.record(charlie, {"date": "2026-12-03", "opponent_roster": bravo["id"]})
    made.record(charlie, {"result": "loss", "corrects": fixed["battle"]})
    gone = made.record(bravo, {"fighters": [{"entry": 3, "state": "dead"}]})
    token = {"Authorization": f"Bearer {made.campaign['edit_token']}"}
    assert void(client, made.campaign, bravo["id"], gone["battle"], **token).status_code == 200
    return made


def views_of(made: Club) -> list[tuple[str, dict[str, str]]]:
    campaign = made.campaign["id"]
    pages = [f"/campagne/gang/{made.share(gang)}" for gang in made.gangs]
    return [(f"/c/{campaign}", {}), (f"/api/v1/campaigns/{campaign}", {})] + [
        (page, {}) for page in pages
    ]


def test_views_read_the_same_for_3_and_30_battles(
    client: TestClient, session: Session, engine: Engine
) -> None:
    few = statement_counts(client, session, engine, views_of(club(client, 0)))
    many = statement_counts(client, session, engine, views_of(club(client, 27)))
    assert many == few, (few, many)
    # The standings: the campaign, its gangs' versions, their tallies (no line read: the
    # writes keep them); the API then finds them remembered (campaign, versions).
    assert many[:2] == [3, 2], many
    # A gang's page: its share's gang with its places (its version and the names it shows),
    # then the share, its ledger, the newest lines against it (with their number), their
    # corrections, the line its own records again. Alpha's shows all; Bravo's none of its
    # own records another's; Charlie's nothing against it either (Alpha's line of their
    # battle is Alpha's). Before: 8, 7, 6 (the version and the names each a query more).
    assert many[2:] == [6, 5, 4], many


def test_after_a_change_the_standings_read_only_what_changed(
    client: TestClient, session: Session, engine: Engine
) -> None:
    """A verdict changes no gang's version: the standings read the lines' results again,
    not their fighters (remembered per gang version), whatever their number."""
    out = []
    for plain in (0, 27):
        made = club(client, plain)
        url = f"/api/v1/campaigns/{made.campaign['id']}"
        assert client.get(url).status_code == 200
        alpha, bravo, _charlie = made.gangs
        said = made.record(bravo, {"date": "2026-12-09", "opponent_roster": alpha["id"]})
        assert client.get(url).status_code == 200
        assert verdict(client, alpha, bravo["id"], said["battle"], "disputed").status_code == 200
        session.expire_all()
        with statements(engine) as run:
            assert client.get(url).status_code == 200
        out.append(len(run))
    assert out == [3, 3], out


def test_the_standings_read_no_line_even_in_a_new_process(
    client: TestClient, session: Session, engine: Engine
) -> None:
    """The standings computed with nothing remembered (a new process, or after a battle)
    read the campaign, its gangs and their tallies: 3 statements, no battle line nor list,
    for 3 battles as for 30 (issue 29: « uncached » at 2,000 battles, ≤ 10 ms)."""
    out = []
    for plain in (0, 27):
        made = club(client, plain)
        url = f"/api/v1/campaigns/{made.campaign['id']}"
        forget(client)
        session.expire_all()
        with statements(engine) as said:
            assert client.get(url).status_code == 200
        assert not [s for s in said if "FROM battle" in s or "roster.document" in s], said
        out.append(len(said))
    assert out == [3, 3], out


def reference(session: Session, campaign_id: str) -> list[tuple[Any, ...]]:
    """The standings as the service computed them before issue 29: every gang's whole
    ledger read against its list, folded by ledger.standings."""
    gangs = store.gangs(session=session, campaign_id=campaign_id)
    ledgers = {
        gang.id: fighters_of.lines_of(
            store.ledger(session=session, roster_id=gang.id), gang.document
        )
        for gang in gangs
    }
    counts = {g.id: [int(e.get("count", 1)) for e in g.document["entries"]] for g in gangs}
    table = ledger.standings(campaign_id, [(g.id, g.name, None) for g in gangs], ledgers, counts)
    return [
        (s.roster, s.battles, s.wins, s.draws, s.losses, s.points, s.xp, s.fighters_lost)
        for s in table
    ]


def table_of(client: TestClient, campaign_id: str) -> list[tuple[Any, ...]]:
    gangs = client.get(f"/api/v1/campaigns/{campaign_id}").json()["gangs"]
    keys = ("roster", "battles", "wins", "draws", "losses", "points", "xp", "fighters_lost")
    return [tuple(g[k] for k in keys) for g in gangs]


def test_the_standings_are_those_every_ledger_gives(client: TestClient, session: Session) -> None:
    made = club(client, 9)
    campaign = made.campaign["id"]
    first = table_of(client, campaign)
    assert first == reference(session, campaign)
    # Alpha: its 5 plain wins, Bravo's 4 (losses), Charlie's win it recorded too (once);
    # the one it disputed leaves it. Bravo: Charlie's win corrected to a loss is a win.
    # Charlie: a win, a loss. Bravo's voided line counts nowhere (its dead stays dead).
    assert [row[:5] for row in first] == [
        (made.gangs[0]["id"], 10, 5, 0, 5),
        (made.gangs[1]["id"], 10, 5, 0, 5),
        (made.gangs[2]["id"], 2, 1, 0, 1),
    ]
    # Then a verdict, a void, a death, a rename: each time what every ledger gives.
    alpha, bravo, charlie = made.gangs
    said = made.record(alpha, {"opponent_roster": charlie["id"], "date": "2026-12-20"})
    assert table_of(client, campaign) == reference(session, campaign)
    assert verdict(client, charlie, alpha["id"], said["battle"], "disputed").status_code == 200
    assert table_of(client, campaign) == reference(session, campaign)
    assert verdict(client, charlie, alpha["id"], said["battle"], "confirmed").status_code == 200
    made.record(bravo, {"fighters": [{"entry": 5, "state": "dead"}, {"entry": 0, "xp": 9}]})
    token = {"Authorization": f"Bearer {made.campaign['edit_token']}"}
    assert void(client, made.campaign, alpha["id"], 1, **token).status_code == 200
    after = table_of(client, campaign)
    assert after == reference(session, campaign)
    assert after != first
    # Kept by the writes (app/campaigns/tallies.py), whatever the process remembers: a
    # line brought back, a correction, a rename, a dead fighter's figures changed in his
    # list, each time what every ledger gives.
    steps = [
        lambda: unvoid(session, client, campaign, alpha["id"], 1),
        lambda: made.record(alpha, {"result": "loss", "corrects": 1}),
        lambda: rename_by_api(client, made, charlie, "Charlie le Grand"),
        lambda: recount(client, made, bravo, 5, 2),  # Bravo's dead Ganger 5: two figures
    ]
    for step in steps:
        step()
        forget(client)
        session.expire_all()
        assert table_of(client, campaign) == reference(session, campaign), step
    lost = {row[0]: row[7] for row in table_of(client, campaign)}
    assert lost[bravo["id"]] == 3  # his first dead (entry 3), and Ganger 5's two figures


def forget(client: TestClient) -> None:
    """The process forgets every view it computed (as a new process would)."""
    for name in ("campaign_views", "campaign_pages", "campaign_losses", "gang_pages"):
        setattr(client.app.state, name, None)  # type: ignore[attr-defined]


def unvoid(session: Session, client: TestClient, campaign_id: str, recorder: str, n: int) -> None:
    """The organiser's « Rétablir cette bataille » (the pages' only un-void)."""
    from app.campaigns.service import CampaignService

    service = CampaignService(session, client.app.state.systems)  # type: ignore[attr-defined]
    service.void(service.get(campaign_id), recorder, n, undo=True)


def rename_by_api(client: TestClient, made: Club, gang: dict[str, Any], name: str) -> None:
    edit(client, made, gang, lambda document: {**document, "name": name})


def recount(client: TestClient, made: Club, gang: dict[str, Any], entry: int, count: int) -> None:
    def changed(document: dict[str, Any]) -> dict[str, Any]:
        entries = [dict(e) for e in document["entries"]]
        entries[entry]["count"] = count
        return {**document, "entries": entries}

    edit(client, made, gang, changed)


def edit(client: TestClient, made: Club, gang: dict[str, Any], change: Any) -> None:
    """A save of the whole list through the API (a new version of the gang)."""
    url = f"/api/v1/rosters/{gang['id']}"
    auth = {"Authorization": f"Bearer {gang['edit_token']}"}
    document = client.get(url, headers=auth).json()["roster"]
    version = made.versions[gang["id"]]
    saved = client.put(url, json=change(document), headers={**auth, "If-Match": f'"{version}"'})
    assert saved.status_code == 200, saved.text
    made.versions[gang["id"]] += 1


def etag_of(client: TestClient, url: str, **headers: str) -> str:
    response = client.get(url, headers=headers)
    assert response.status_code == 200, response.text[:300]
    return response.headers["etag"]


def test_standings_and_api_answer_304_until_something_they_show_changes(
    client: TestClient, session: Session
) -> None:
    made = club(client, 2)
    alpha, bravo, charlie = made.gangs
    page, api = f"/c/{made.campaign['id']}", f"/api/v1/campaigns/{made.campaign['id']}"
    shown = client.get(page)
    assert shown.headers["cache-control"] == "public, max-age=60"
    # The organiser's browser gets its own page.
    assert "Cookie" in shown.headers["vary"].split(", ")
    assert client.get(api).headers["cache-control"] == "public, max-age=60"
    seen = {url: etag_of(client, url) for url in (page, api)}
    assert seen[page] != seen[api]
    for url, etag in seen.items():
        again = client.get(url, headers={"If-None-Match": etag})
        assert again.status_code == 304 and again.content == b""
        assert again.headers["etag"] == etag
        weak = client.get(url, headers={"If-None-Match": f'W/{etag}, "other"'})
        assert weak.status_code == 304
    changes = [
        lambda: made.record(alpha, {"opponent_roster": bravo["id"], "date": "2026-12-24"}),
        lambda: verdict(client, bravo, alpha["id"], 3, "disputed"),
        lambda: void(
            client,
            made.campaign,
            charlie["id"],
            1,
            Authorization=f"Bearer {made.campaign['edit_token']}",
        ),
        lambda: made.share(charlie),  # its page's link in the standings
        lambda: rename(session, charlie["id"], "Charlie le Grand"),
        lambda: join(client, made.campaign, stored(client, orlocks("Delta"))),
    ]
    for change in changes:
        change()
        for url, etag in list(seen.items()):
            response = client.get(url, headers={"If-None-Match": etag})
            assert response.status_code == 200, (url, change)
            assert response.headers["etag"] != etag
            seen[url] = response.headers["etag"]
    assert "Charlie le Grand" in client.get(page).text
    assert [g["name"] for g in client.get(api).json()["gangs"]][-1] == "Delta"


def rename(session: Session, roster_id: str, name: str) -> None:
    """A save of the list by its owner (any write makes a new version of the gang)."""
    roster = session.get(Roster, roster_id)
    assert roster is not None
    roster.name = name
    roster.document = {**roster.document, "name": name}
    roster.version += 1
    session.add(roster)
    session.commit()


def test_a_gang_page_answers_304_until_a_line_it_shows_changes(client: TestClient) -> None:
    made = club(client, 2)
    alpha, bravo, _charlie = made.gangs
    url = f"/campagne/gang/{made.share(alpha)}"
    first = client.get(url)
    assert first.headers["cache-control"] == "public, max-age=60"
    etag = first.headers["etag"]
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    assert client.get(url + "?page=1").headers["etag"] == etag
    # Bravo confirms the line it disputed: the page shows it confirmed, a new ETag.
    assert verdict(client, alpha, bravo["id"], 2, "confirmed").status_code == 200
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 200 and again.headers["etag"] != etag
    assert "— confirmée" in again.text


def test_a_battle_changes_the_pages_of_the_gangs_it_names_only(client: TestClient) -> None:
    """A battle between Alpha and Bravo leaves Charlie's page (304: one battle no longer
    changes every gang page of its campaign); one naming Charlie, a verdict or a void of it,
    a rename of a gang it shows change it."""
    made = club(client, 2)
    alpha, bravo, charlie = made.gangs
    url = f"/campagne/gang/{made.share(charlie)}"
    etag = etag_of(client, url)
    made.record(alpha, {"opponent_roster": bravo["id"], "date": "2026-12-24"})
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    token = {"Authorization": f"Bearer {made.campaign['edit_token']}"}
    said = made.record(bravo, {"opponent_roster": charlie["id"], "date": "2026-12-25"})
    changes = [
        lambda: verdict(client, charlie, bravo["id"], said["battle"], "disputed"),
        lambda: void(client, made.campaign, bravo["id"], said["battle"], **token),
        lambda: rename_by_api(client, made, bravo, "Bravo le Terrible"),
    ]
    for change in changes:
        change()
        response = client.get(url, headers={"If-None-Match": etag})
        assert response.status_code == 200, change
        etag = response.headers["etag"]


def ids(page: str) -> list[str]:
    return re.findall(r'<li class="battle" id="battle-([^"]+)"', page)


def test_a_gang_s_battles_come_20_a_page_as_its_ledger_gives_them(client: TestClient) -> None:
    made = club(client, 40)
    alpha = made.gangs[0]
    url = f"/campagne/gang/{made.share(alpha)}"
    ledger_lines = battles(client, alpha)
    expected = [f"{b['recorded_by']}-{b['battle']}" for b in reversed(ledger_lines)]
    # 40 with Bravo, the one with Charlie (once: Charlie's line of it is not shown), Bravo's
    # disputed one.
    assert len(expected) == 42
    first = client.get(url).text
    assert "Page 1 sur 3 (42 lignes)" in first
    assert '<a href="?page=2" rel="next">Batailles plus anciennes</a>' in first
    assert "Batailles plus récentes" not in first
    second = client.get(url + "?page=2").text
    assert '<a href="?page=1" rel="prev">Batailles plus récentes</a>' in second
    last = client.get(url + "?page=3").text
    assert "Batailles plus anciennes" not in last
    assert ids(first) + ids(second) + ids(last) == expected
    assert len(ids(first)) == 20 and len(ids(last)) == 2
    # Each line as the ledger says it (result turned for the lines others recorded).
    shown = re.findall(r'<span class="result">([^<]+)</span>', first)
    results = {"win": "Victoire", "loss": "Défaite", "draw": "Match nul"}
    assert shown == [results[b["result"]] for b in reversed(ledger_lines)][:20]
    # A page past the last shows the last.
    assert ids(client.get(url + "?page=99").text) == ids(last)


def test_a_campaign_counts_the_changes_no_gang_version_shows(
    client: TestClient, session: Session
) -> None:
    """Its version goes up at a join, a line of the campaign, a verdict and a void; a line
    outside it, and a read, leave it."""
    made = Club(client)
    alpha, bravo, _charlie = made.gangs

    def version() -> int:
        session.expire_all()
        found = store.get_campaign(session=session, campaign_id=made.campaign["id"])
        assert found is not None
        return found.version

    assert version() == 4  # created at 1, three joins
    said = made.record(alpha, {"opponent_roster": bravo["id"]})
    assert version() == 5
    assert verdict(client, bravo, alpha["id"], said["battle"], "disputed").status_code == 200
    assert version() == 6
    token = {"Authorization": f"Bearer {made.campaign['edit_token']}"}
    assert void(client, made.campaign, alpha["id"], said["battle"], **token).status_code == 200
    assert void(client, made.campaign, alpha["id"], said["battle"], **token).status_code == 200
    assert version() == 7  # a void is final: the second changes nothing
    outside = battle(client, bravo, made.versions[bravo["id"]], {"opponent": "Des Goliaths"})
    assert outside.status_code == 201, outside.text
    assert client.get(f"/c/{made.campaign['id']}").status_code == 200
    assert version() == 7


def test_a_revalidation_reads_two_statements_or_one(
    client: TestClient, session: Session, engine: Engine
) -> None:
    """The standings: the campaign and its gangs' versions; a gang's page: its share's gang
    with its places (one query). No ledger, no snapshot, no template."""
    made = club(client, 5)
    out = []
    for url, headers in views_of(made):
        etag = etag_of(client, url, **headers)
        session.expire_all()
        with statements(engine) as said:
            response = client.get(url, headers={**headers, "If-None-Match": etag})
        assert response.status_code == 304, url
        out.append(len(said))
    assert out == [2, 2, 1, 1, 1], out
