"""« Restaurer un carnet » (docs/carnet-file.md): a CarnetFile brought into a carnet as new
lists, books and campaigns — nothing it holds is overwritten — in one transaction (the file
comes in whole, or nothing of it does). What cannot come in (a list of a system this server
does not serve, a document today's catalogue refuses, a gang whose list did not come) is
skipped and said, by its path in the file."""

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlmodel import Session

from app import hooks
from app.book_service import BOOK_MAX_BYTES, published_content
from app.carnet_file.ledgers import LedgerSteps
from app.carnet_file.models import CarnetFile, PublishedVersion
from app.carnet_file.state import Restored
from app.carnet_service import CARNET_MAX_ROSTERS, CarnetFull
from app.dates import french_date
from app.roster_history import points_of
from app.roster_service import ROSTER_MAX_BYTES, card
from app.store import carnet_file as store
from app.store import carnets as carnet_store
from app.store.books import Published, create_book_share
from app.store.models import (
    Book,
    Campaign,
    CampaignGang,
    Carnet,
    CarnetCampaign,
    CarnetRoster,
    Roster,
    RosterVersion,
    utcnow,
)
from app.systems.base import AnySystem
from app.systems.books import BookDocument


def with_codes(value: Any, codes: Mapping[str, str]) -> Any:
    """`value` (a list's document) with every `source.book` it names among `codes` renamed
    to the new code (the book versions restored with it)."""
    if isinstance(value, list):
        return [with_codes(item, codes) for item in value]
    if not isinstance(value, dict):
        return value
    out = {key: with_codes(item, codes) for key, item in value.items()}
    source = out.get("source")
    if isinstance(source, dict) and source.get("book") in codes:
        out["source"] = {**source, "book": codes[source["book"]]}
    return out


@dataclass
class Restore(LedgerSteps):
    """One restore of `file` into `carnet` (its steps share what came in so far)."""

    def run(self) -> Restored:
        held = carnet_store.count_rosters(session=self.session, carnet_id=self.carnet.id)
        if held + len(self.file.rosters) > CARNET_MAX_ROSTERS:
            raise CarnetFull(CARNET_MAX_ROSTERS)
        for at, book in enumerate(self.file.books):
            self.book(f"books[{at}]", book.system, book.document, book.published, book)
        for at, roster in enumerate(self.file.rosters):
            self.roster(at, roster.system, roster.document, roster.created_at, roster.updated_at)
        self.session.flush()  # the rows first: their links name them
        for row, _parsed in self.rosters.values():
            self.session.add(CarnetRoster(carnet_id=self.carnet.id, roster_id=row.id))
        for at, campaign in enumerate(self.file.campaigns):
            self.campaign(at, campaign)
        lines = self.ledgers()
        self.session.flush()
        self.confirm(lines)
        self.first_versions()
        self.session.commit()
        return self.done

    # -- books -----------------------------------------------------------------------------

    def book(
        self,
        path: str,
        system_id: str,
        document: dict[str, Any],
        published: list[PublishedVersion],
        dates: Any,
    ) -> None:
        system = self.system(path, system_id)
        if system is None:
            return

        with_system = {**document, "system": system_id}
        found = self.stored(path, BookDocument, with_system, "book", BOOK_MAX_BYTES)
        if found is None:
            return
        parsed, stored = found
        row = store.new_row(
            Book,
            system=system_id,
            name=parsed.name,
            document=stored,
            carnet_id=self.carnet.id,
            created_at=dates.created_at or utcnow(),
            updated_at=dates.updated_at or utcnow(),
        )
        self.session.add(row)
        self.session.flush()
        for at, version in enumerate(published):
            self.publication(f"{path}.published[{at}]", system, row, version)
        self.done.books.append((row.id, parsed.name))

    def publication(
        self, path: str, system: AnySystem, book: Book, version: PublishedVersion
    ) -> None:
        """A published version of the book, under a new code the lists' sources follow."""

        def frozen() -> Published:
            units = {"units": version.units, "description": version.description}
            document = BookDocument.model_validate(
                {"system": system.id, "name": version.name, "army": version.army, **units}
            )
            return published_content(system, document)

        found = self.parsed(path, frozen)
        if found is None:
            return
        made = create_book_share(
            session=self.session,
            book_id=book.id,
            version=version.version,
            published=found,
            created_at=version.created_at,
            commit=False,
        )
        self.codes[version.code] = made.code

    # -- lists -----------------------------------------------------------------------------

    def roster(
        self,
        at: int,
        system_id: str,
        document: dict[str, Any],
        created: datetime | None,
        updated: datetime | None,
    ) -> None:
        path = f"rosters[{at}]"
        system = self.system(path, system_id)
        if system is None:
            return

        renamed = with_codes(document, self.codes)
        found = self.stored(path, system.roster_model, renamed, "roster", ROSTER_MAX_BYTES)
        if found is None:
            return
        parsed, stored = found
        if stored.get("system") != system_id:
            self.skip(path, "system_mismatch", "The document is of another system.")
            return
        row = store.new_row(
            Roster,
            system=system_id,
            name=stored.get("name") or "",
            document=stored,
            card=card(system, parsed),
            created_at=created or utcnow(),
            updated_at=updated or utcnow(),
        )
        self.session.add(row)
        self.rosters[at] = (row, parsed)
        self.done.rosters.append((row.id, row.name))

    def first_versions(self) -> None:
        """Each new list's first kept version (docs/history.md), its card counting what
        its ledger says (a gang's dead)."""
        exported = french_date(self.file.exported_at)
        said = f"Restaurée depuis un fichier de carnet (exporté le {exported})"
        for roster, parsed in self.rosters.values():
            system = self.systems[roster.system]
            if any(hooks.left_out(self.session, roster, roster.document)):
                roster.card = card(system, hooks.counted(self.session, roster, parsed))
            self.session.add(
                RosterVersion(
                    roster_id=roster.id,
                    version=1,
                    saved_at=roster.updated_at,
                    document=roster.document,
                    points=points_of(roster.card),
                    summary=[said],
                    origin="file",
                )
            )

    # -- campaigns and ledgers ---------------------------------------------------------------

    def campaign(self, at: int, campaign: Any) -> None:
        path = f"campaigns[{at}]"
        if self.system(path, campaign.system) is None:
            return
        row = store.new_row(
            Campaign,
            system=campaign.system,
            name=campaign.name,
            notes=campaign.notes,
            created_at=campaign.created_at or utcnow(),
        )
        self.session.add(row)
        self.session.flush()
        self.session.add(CarnetCampaign(carnet_id=self.carnet.id, campaign_id=row.id))
        self.campaigns[at] = row
        self.done.campaigns.append((row.id, row.name))
        for gang in dict.fromkeys(campaign.gangs):
            found = self.rosters.get(gang)
            if found is None or found[0].system != campaign.system:
                detail = f"rosters[{gang}] did not come in, or is of another system."
                self.skip(f"{path}.gangs", "gang_not_restored", detail)
                continue
            self.session.add(CampaignGang(campaign_id=row.id, roster_id=found[0].id))


def restore_carnet(
    session: Session, systems: Mapping[str, AnySystem], carnet: Carnet, file: CarnetFile
) -> Restored:
    """Brings `file` into `carnet` as new lists, books and campaigns (one transaction);
    CarnetFull when its lists would not fit (nothing stored)."""
    try:
        return Restore(session, systems, carnet, file).run()
    except BaseException:
        session.rollback()
        raise
