"""Every public or owner view of a ledger is bounded in work whatever another client
recorded (issue 25, item 1): a gang page and `list_battles` read each related table once,
however many lines another gang recorded against this one. Counted in SQL statements."""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app.store.models import Battle
from tests.api.test_campaigns import battle, campaign_of, join, orlocks, stored


@contextmanager
def statements(engine: Engine) -> Iterator[list[str]]:
    said: list[str] = []

    def count(*args: Any) -> None:
        said.append(str(args[2]))

    event.listen(engine, "before_cursor_execute", count)
    try:
        yield said
    finally:
        event.remove(engine, "before_cursor_execute", count)


def against(client: TestClient, session: Session, lines: int) -> tuple[dict[str, Any], str]:
    """Two gangs of one client in its own campaign; the recorder's `lines` lines against
    the victim (one recorded, the rest copies of it as a script would record them)."""
    campaign = campaign_of(client)
    victim, recorder = stored(client, orlocks("Victime")), stored(client, orlocks("Tricheur"))
    for gang in (victim, recorder):
        assert join(client, campaign, gang).status_code == 201
    body = {"campaign": campaign["id"], "opponent_roster": victim["id"]}
    assert battle(client, recorder, 1, body).status_code == 201
    first = session.exec(select(Battle).where(Battle.roster_id == recorder["id"])).one()
    copied = first.model_dump(exclude={"id"})
    for number in range(2, lines + 1):
        session.add(Battle(**{**copied, "number": number}))
    session.commit()
    share = client.post(f"/api/v1/rosters/{victim['id']}/shares", headers=auth(victim))
    assert share.status_code == 201, share.text
    return victim, share.json()["code"]


def auth(roster: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {roster['edit_token']}"}


def counted(client: TestClient, session: Session, engine: Engine, lines: int) -> list[int]:
    victim, code = against(client, session, lines)
    views = [
        (f"/campagne/gang/{code}", {}),
        (f"/api/v1/rosters/{victim['id']}/battles?share={code}", {}),
        (f"/api/v1/rosters/{victim['id']}/battles", auth(victim)),
    ]
    return statement_counts(client, session, engine, views)


def statement_counts(
    client: TestClient, session: Session, engine: Engine, views: list[tuple[str, dict[str, str]]]
) -> list[int]:
    """The SQL statements of each view (url, headers), each answered 200."""
    out = []
    for url, headers in views:
        session.expire_all()  # nothing read before counts for this view
        with statements(engine) as said:
            response = client.get(url, headers=headers)
        assert response.status_code == 200, (url, response.text[:300])
        out.append(len(said))
    return out


def test_a_gang_page_reads_the_same_whatever_another_gang_recorded(
    client: TestClient, session: Session, engine: Engine
) -> None:
    few = counted(client, session, engine, 3)
    many = counted(client, session, engine, 60)
    assert many == few, (few, many)
    assert max(many) <= 12, many
