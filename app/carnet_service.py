"""What may be done to a carnet (a player's library), for the JSON API and the pages alike:
make one, open it with its key, put lists in and take them out, merge two, change the key.

A carnet's key is a secret like an edit token (256 bits, shown once, stored hashed): it
opens every list the carnet holds. Refusals are the exceptions below; app/refusals.py says
how each edge answers them.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session

from app import hooks
from app.roster_service import Refusal
from app.store import books as book_store
from app.store import campaigns as campaign_store
from app.store import carnets as store
from app.store import trash
from app.store.models import Carnet, Roster, as_utc

__all__ = [
    "CARNET_MAX_ROSTERS",
    "CarnetError",
    "CarnetFull",
    "CarnetService",
    "KeyMissing",
    "KeyRefused",
    "KeyRotated",
    "NoSuchCarnet",
    "NotInCarnet",
    "cookie_value",
    "key_refusal",
    "parse_cookie",
]

# A carnet holds at most this many lists: a heavy player keeps a few hundred; the bound
# sizes « Mes listes » and the API's listing.
CARNET_MAX_ROSTERS = 2000


class CarnetError(Refusal):
    """A request on a carnet that cannot be carried out."""


class NoSuchCarnet(CarnetError):
    pass


class KeyMissing(CarnetError):
    """No carnet key came with the request."""


class KeyRefused(CarnetError):
    """A key came, and it is not this carnet's (or no longer: the key was changed)."""


class KeyRotated(KeyRefused):
    """A key came that this carnet had before: it was changed since, and opens nothing."""


def key_refusal(session: Session, key: str, carnet_id: str | None = None) -> KeyRefused:
    """Why `key` opens nothing (of `carnet_id`, or of any carnet): it was changed since
    (KeyRotated, while the carnet keeps its hash), or it is simply wrong (KeyRefused)."""
    was = store.retired_carnet(session=session, key=key)
    if was is not None and carnet_id in (None, was):
        return KeyRotated(was)
    return KeyRefused(carnet_id or "")


class CarnetFull(CarnetError):
    def __init__(self, limit: int) -> None:
        self.limit = limit
        super().__init__(f"a carnet holds at most {limit} lists")


class NotInCarnet(CarnetError):
    """The roster is not in this carnet."""


def cookie_value(carnet: Carnet, key: str) -> str:
    """What the browser keeps: the carnet's id and its key (the key alone is the secret)."""
    return f"{carnet.id}.{key}"


def parse_cookie(value: str | None) -> tuple[str, str] | None:
    if not value or value.count(".") != 1 or len(value) > 200:
        return None
    carnet_id, key = value.split(".")
    return (carnet_id, key) if carnet_id and key else None


@dataclass
class CarnetService:
    session: Session

    def create(self) -> tuple[Carnet, str]:
        return store.create_carnet(session=self.session)

    def open(self, carnet_id: str, key: str | None) -> Carnet:
        carnet = store.get_carnet(session=self.session, carnet_id=carnet_id)
        if carnet is None:
            raise NoSuchCarnet(carnet_id)
        if key is None:
            raise KeyMissing(carnet_id)
        if not store.key_matches(carnet, key):
            raise key_refusal(self.session, key, carnet_id)
        return carnet

    def add(self, carnet: Carnet, roster_ids: Iterable[str]) -> None:
        """Puts lists in the carnet (those already there stay); CarnetFull past the bound."""
        wanted = list(dict.fromkeys(roster_ids))
        if not wanted:
            return
        held = set(store.roster_ids(session=self.session, carnet_id=carnet.id))
        new = [roster_id for roster_id in wanted if roster_id not in held]
        if len(held) + len(new) > CARNET_MAX_ROSTERS:
            raise CarnetFull(CARNET_MAX_ROSTERS)
        store.link(session=self.session, carnet_id=carnet.id, roster_ids=new)

    def check_room(self, carnet: Carnet) -> None:
        """CarnetFull when one more list would not fit."""
        if store.count_rosters(session=self.session, carnet_id=carnet.id) >= CARNET_MAX_ROSTERS:
            raise CarnetFull(CARNET_MAX_ROSTERS)

    def remove(self, carnet: Carnet, roster_id: str) -> None:
        if not store.unlink(session=self.session, carnet_id=carnet.id, roster_id=roster_id):
            raise NotInCarnet(roster_id)

    def holds(self, carnet: Carnet, roster_id: str) -> bool:
        return store.holds(session=self.session, carnet_id=carnet.id, roster_id=roster_id)

    def rosters(self, carnet: Carnet, system: str | None = None) -> list[Roster]:
        """Most recently changed first, documents not loaded."""
        return store.rosters(session=self.session, carnet_id=carnet.id, system=system)

    def discard(self, carnet: Carnet, roster: Roster) -> None:
        """Deletes a list, kept in this carnet's trash so that it can be restored
        (app/store/trash.py)."""
        trash.discard(session=self.session, roster=roster, carnet_id=carnet.id)

    def restore(self, carnet: Carnet, roster_id: str) -> trash.Restored | None:
        """Brings a list of this carnet's trash back; None when it is not there (restored
        already); CarnetFull when the carnet has no room for it."""
        item = trash.waiting(
            session=self.session, item_id=roster_id, carnet_id=carnet.id, kind=trash.ROSTER
        )
        if item is None:
            return None
        self.check_room(carnet)
        return trash.restore(
            session=self.session, item=item, carnet_id=carnet.id, also=hooks.restored
        )

    def merge(self, source: Carnet, into: Carnet) -> int:
        """Puts every list of `source` in `into` too (`source` keeps them); how many."""
        ids = store.roster_ids(session=self.session, carnet_id=source.id)
        self.add(into, ids)
        return len(ids)

    def rotate(self, carnet: Carnet, key: str | None = None) -> str:
        """A new key (`key`, or one drawn now): from now on the old key (links, cookies,
        API clients) opens nothing. KeyRefused when another request changed it first."""
        rotated = store.rotate_key(session=self.session, carnet=carnet, key=key)
        if rotated is None:  # another request changed the key first: this one held the old
            raise KeyRefused(carnet.id)
        return rotated

    def listing(self, carnet: Carnet) -> dict[str, Any]:
        """The API's view of the carnet (api-v1.md « Carnets »)."""
        return {
            "id": carnet.id,
            "rosters": [
                {
                    "id": roster.id,
                    "name": roster.name,
                    "system": roster.system,
                    "version": roster.version,
                    "updated_at": as_utc(roster.updated_at),
                }
                for roster in self.rosters(carnet)
            ],
            "books": [
                {
                    "id": book.id,
                    "name": book.name,
                    "system": book.system,
                    "version": book.version,
                    "updated_at": as_utc(book.updated_at),
                }
                for book in book_store.books_of_carnet(session=self.session, carnet_id=carnet.id)
            ],
            "campaigns": campaign_store.listing(session=self.session, carnet_id=carnet.id),
        }
