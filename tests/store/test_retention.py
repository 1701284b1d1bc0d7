"""Shares that don't fill the disk (issue 29): snapshots stored compressed, a view marked at
most once a day, and `caserne prune`'s policy (docs/retention.md): a pinned share survives a
real run, a pruned one answers 410 on its page, its exports and the API, a dry run removes
nothing and says what a real one would."""

import json
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlmodel import Session

from app.db import WRITTEN
from app.store import retention
from app.store import rosters as store
from app.store.compressed import pack
from app.store.models import Battle, Campaign, CampaignGang, Share, ShareGone
from app.store.retention import prune

TODAY = date(2026, 12, 5)
LONG_AGO = datetime(2026, 1, 2, 12, 0, tzinfo=UTC)  # 337 days before TODAY


def new_list(client: TestClient, count: int = 2) -> tuple[str, dict[str, str]]:
    body = {"system": "dcsystem", "name": "Élite", "entries": [{"unit": "jaffa", "count": count}]}
    created = client.post("/api/v1/rosters", json=body).json()
    return created["id"], {"Authorization": f"Bearer {created['edit_token']}"}


def share(client: TestClient, roster_id: str, token: dict[str, str], count: int) -> str:
    body = {"system": "dcsystem", "entries": [{"unit": "jaffa", "count": count}]}
    client.put(f"/api/v1/rosters/{roster_id}", json=body, headers={**token, "If-Match": "*"})
    posted = client.post(f"/api/v1/rosters/{roster_id}/shares", headers=token)
    assert posted.status_code == 201
    return str(posted.json()["code"])


def age(session: Session, code: str, *, viewed: date | None = None, later: int = 0) -> None:
    """Makes the share old: made LONG_AGO (and `later` hours), last viewed on `viewed` (or
    never)."""
    session.execute(
        text("UPDATE share SET created_at = :made, last_viewed = :viewed WHERE code = :code"),
        {"made": LONG_AGO + timedelta(hours=later), "viewed": viewed, "code": code},
    )
    session.commit()


def pin_by_battle(session: Session, roster_id: str, code: str) -> None:
    session.add(
        Battle(
            roster_id=roster_id,
            number=1,
            date="2026-01-02",
            result="win",
            fighters=[],
            recruits=[],
            share_code=code,
        )
    )
    session.commit()


def codes(session: Session) -> set[str]:
    return set(session.execute(text("SELECT code FROM share")).scalars())


@pytest.fixture
def shares(client: TestClient, session: Session) -> dict[str, str]:
    """Five shares of two lists, four of them made long ago and never viewed since:
    `old` (removable), `battle` (pinned by a battle line), `newest` (its list's newest),
    `viewed` (viewed 10 days ago), and `deleted` (the recent share of a deleted list)."""
    roster_id, token = new_list(client)
    made = {
        name: share(client, roster_id, token, count)
        for count, name in enumerate(["old", "battle", "viewed", "newest"], start=3)
    }
    for name in ("old", "battle", "viewed"):
        age(session, made[name])
    age(session, made["viewed"], viewed=TODAY - timedelta(days=10))
    age(session, made["newest"], later=1)
    pin_by_battle(session, roster_id, made["battle"])
    gone_id, gone_token = new_list(client)
    made["deleted"] = share(client, gone_id, gone_token, 5)
    assert client.delete(f"/api/v1/rosters/{gone_id}", headers=gone_token).status_code == 204
    return made


def test_a_dry_run_removes_nothing_and_counts(session: Session, shares: dict[str, str]) -> None:
    before = codes(session)
    report = prune(session=session, days=180, on=TODAY)
    assert codes(session) == before == set(shares.values())
    assert (report.shares, report.deleted_lists, report.unviewed, report.removable) == (5, 1, 1, 2)
    assert report.pinned_unviewed == 2  # the battle's and the newest, both unviewed
    assert report.removed == 0 and report.applied is False
    stored = session.execute(
        text("SELECT sum(length(snapshot)) FROM share WHERE code IN (:a, :b)"),
        {"a": shares["old"], "b": shares["deleted"]},
    ).scalar_one()
    assert report.removable_bytes == stored > 0
    assert report.cutoff == date(2026, 6, 8)
    assert (
        report.lines()[-1] == "would remove: 2 shares (dry run: nothing removed; --apply removes)"
    )
    assert session.execute(text("SELECT count(*) FROM share_gone")).scalar_one() == 0


def test_a_real_run_keeps_the_pinned_and_the_viewed(
    client: TestClient, session: Session, shares: dict[str, str]
) -> None:
    report = prune(session=session, days=180, apply=True, on=TODAY)
    assert report.removed == 2 and report.lines()[-1] == "removed: 2 shares"
    kept = {shares[name] for name in ("battle", "newest", "viewed")}
    assert codes(session) == kept
    gone = set(session.execute(text("SELECT code FROM share_gone")).scalars())
    assert gone == {shares["old"], shares["deleted"]}
    for code in kept:
        assert client.get(f"/s/{code}").status_code == 200
        assert client.get(f"/api/v1/shares/{code}").status_code == 200
    # Nothing more to remove. Those views were written (today): tomorrow, with 0 days, the
    # unpinned share goes too, and the pinned ones stay whatever the days.
    assert prune(session=session, days=180, apply=True, on=TODAY).removed == 0
    tomorrow = datetime.now(UTC).date() + timedelta(days=1)
    assert prune(session=session, days=0, apply=True, on=tomorrow).removed == 1
    assert codes(session) == {shares["battle"], shares["newest"]}


def test_a_gang_of_a_campaign_keeps_every_share(client: TestClient, session: Session) -> None:
    """A gang's public page (/campagne/gang/{code}) opens with any of its share codes."""
    roster_id, token = new_list(client)
    older, newer = share(client, roster_id, token, 3), share(client, roster_id, token, 4)
    age(session, older)
    age(session, newer, later=1)
    session.add(Campaign(id="c1", system="dcsystem", name="Ligue", token_hash="t", join_hash="j"))
    session.commit()
    session.add(CampaignGang(campaign_id="c1", roster_id=roster_id))
    session.commit()
    report = prune(session=session, days=180, apply=True, on=TODAY)
    assert (report.removed, report.pinned_unviewed) == (0, 2)
    assert {older, newer} <= codes(session)
    session.execute(text("DELETE FROM campaign_gang WHERE roster_id = :r"), {"r": roster_id})
    session.commit()
    assert prune(session=session, days=180, apply=True, on=TODAY).removed == 1
    assert newer in codes(session) and older not in codes(session)


def test_a_pruned_share_answers_410(
    client: TestClient, session: Session, shares: dict[str, str]
) -> None:
    prune(session=session, days=180, apply=True, on=TODAY)
    for name in ("old", "deleted"):
        code = shares[name]
        page = client.get(f"/s/{code}")
        assert page.status_code == 410
        assert "Ce partage a été supprimé" in page.text
        assert client.get(f"/s/{code}.txt").status_code == 410
        assert client.get(f"/s/{code}.tts.txt").status_code == 410  # Tabletop Simulator's
        # Its play sheet and mode partie say so too (they record a view like the page).
        for view in ("feuille", "partie"):
            played = client.get(f"/s/{code}/{view}")
            assert played.status_code == 410 and "Ce partage a été supprimé" in played.text
        exported = client.get(f"/s/{code}.json")
        assert exported.status_code == 410
        assert exported.headers["content-type"] == "application/problem+json"
        assert exported.json()["errors"][0]["code"] == "share_gone"
        table = client.get(f"/s/{code}.tts.json")
        assert table.status_code == 410
        assert table.headers["content-type"] == "application/problem+json"
        assert table.json()["errors"][0]["code"] == "share_gone"
        api = client.get(f"/api/v1/shares/{code}")
        assert api.status_code == 410
        assert api.json()["status"] == 410
        assert api.json()["errors"][0] == {
            "loc": ["path", "code"],
            "msg": "This share was removed.",
            "code": "share_gone",
        }
    # A code that never was is still 404.
    assert client.get("/s/zzzzzzzz").status_code == 404
    assert client.get("/s/zzzzzzzz/partie").status_code == 404
    assert client.get("/api/v1/shares/zzzzzzzz").json()["errors"][0]["code"] == "share_not_found"


def test_a_removed_code_is_never_drawn_again(
    session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    session.add(ShareGone(code="gone2345"))
    session.commit()
    drawn = iter(["gone2345", "free2345"])
    monkeypatch.setattr(store, "new_code", lambda: next(drawn))
    made = store.create_share(
        session=session,
        roster_id=None,
        frozen=store.Frozen("dcsystem", "1", {"n": 1}, "e"),
    )
    assert made.code == "free2345"


def test_a_view_is_written_once_a_day(client: TestClient, session: Session) -> None:
    retention.VIEWS.codes.clear()
    roster_id, token = new_list(client)
    code = share(client, roster_id, token, 3)

    def viewed() -> str | None:
        stored = session.execute(
            text("SELECT last_viewed FROM share WHERE code = :c"), {"c": code}
        ).scalar_one()
        return None if stored is None else str(stored)

    assert viewed() is None  # made, not viewed yet
    assert client.get(f"/api/v1/shares/{code}").status_code == 200
    today = datetime.now(UTC).date().isoformat()
    assert viewed() == today
    # Another view the same day writes nothing, on the page, the exports or the API.
    session.execute(
        text("UPDATE share SET last_viewed = :d WHERE code = :c"), {"d": LONG_AGO.date(), "c": code}
    )
    session.commit()
    for path in (f"/s/{code}", f"/s/{code}", f"/s/{code}.txt", f"/api/v1/shares/{code}"):
        assert client.get(path).status_code == 200
    assert viewed() == LONG_AGO.date().isoformat()
    # Another day (or another process): the first view writes again.
    retention.VIEWS.codes.clear()
    assert client.get(f"/s/{code}").status_code == 200
    assert viewed() == today


def test_snapshots_are_stored_compressed_and_counted_so(session: Session) -> None:
    document: dict[str, Any] = {
        "roster": {"name": "Garde « Jaffa »", "entries": [{"unit": "jaffa", "count": 2}] * 40},
        "validation": {"valid": True, "issues": []},
        "summary": {"points": 120},
    }
    written: list[int] = []
    reset = WRITTEN.set(written)
    try:
        made = store.create_share(
            session=session,
            roster_id=None,
            frozen=store.Frozen("dcsystem", "1", document, "e"),
        )
    finally:
        WRITTEN.reset(reset)
    stored = session.execute(
        text("SELECT length(snapshot) FROM share WHERE code = :c"), {"c": made.code}
    ).scalar_one()
    assert written == [stored] == [len(pack(document))]
    assert stored * 5 < len(json.dumps(document))
    session.expire_all()
    again = session.get(Share, made.code)
    assert again is not None and again.snapshot == document


def test_a_nul_code_is_unknown_without_a_write(client: TestClient) -> None:
    """PostgreSQL cannot compare a U+0000 (a 500 before the view's UPDATE was guarded)."""
    retention.VIEWS.codes.clear()
    for path in ("/s/%00", "/s/%00.json", "/s/%00.txt", "/api/v1/shares/%00"):
        assert client.get(path).status_code == 404, path
