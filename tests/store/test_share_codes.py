"""A share's code is drawn again when taken (app/store/rosters.py insert_at_free_code), for
a list's shares and a book's published versions alike; five draws taken: an error, not a
loop. On SQLite and PostgreSQL (the session of tests/conftest.py)."""

import pytest
from sqlmodel import Session

from app.store import books, rosters


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The codes the store will draw, in order (rosters.new_code replaced)."""
    sequence: list[str] = []
    monkeypatch.setattr(rosters, "new_code", lambda: sequence.pop(0))
    return sequence


def share(session: Session) -> rosters.Share:
    return rosters.create_share(
        session=session,
        roster_id=None,
        frozen=rosters.Frozen(
            "dcsystem", "1", {"roster": {}, "validation": {}, "summary": {}}, "e"
        ),
    )


def test_a_taken_code_is_drawn_again(session: Session, drawn: list[str]) -> None:
    drawn.extend(["taken234", "taken234", "fresh234"])
    assert share(session).code == "taken234"
    assert share(session).code == "fresh234"
    assert drawn == []


def test_a_book_version_draws_again_too(session: Session, drawn: list[str]) -> None:
    book = books.create_book(
        session=session, system="nolimits", name="B", document={}, carnet_id=None
    )[0]
    drawn.extend(["bookcode", "bookcode", "bookcod2"])
    published = [
        books.create_book_share(
            session=session,
            book_id=book.id,
            version=v,
            published=books.Published("nolimits", {}, "e"),
        ).code
        for v in (1, 2)
    ]
    assert published == ["bookcode", "bookcod2"]


def test_five_taken_draws_are_an_error(session: Session, drawn: list[str]) -> None:
    drawn.extend(["samecode"] * 6)
    share(session)
    with pytest.raises(RuntimeError, match="could not find a free Share code"):
        share(session)
    assert drawn == []
