"""The database `scale_bench.py` measures (issue 29), seeded through Caserne's own store and
services, never by raw inserts: carnets of lists of every system brought in by the carnet
file's restore (app/carnet_file/restore.py: one transaction a carnet, the store's batch
path), some of their lists shared (app/store/rosters.py `create_share`, committed with
their carnet), army books with published versions (in those files), one carnet of a few
lists and a 50-entry list (the editor's), one carnet of 1,000 lists, and a club campaign of
50 Necromunda–Warzone gangs and 2,000 battles recorded one by one through the campaign
service, as the API records them.

In the campaign, gangs[0] (the veteran) records every fifth battle (400 lines); gangs[1]
records 40 and 36 lines of other gangs name it (its page: 40 own, 36 mirrored); the other
48 record the rest. Most lines name another gang; some are disputed, recorded again by
their opponent (one battle, confirmed) or voided; now and then a fighter dies.

`located()` finds what a seeding made in a database seeded before (`--reuse`), by the
names given here, and gives each carnet a new key (the keys are shown once, then stored as
hashes only: the bench rotates them as a player would, through the carnet service)."""

import random
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from campaign_pages_bench import battle, follow_up, gang  # bench/ is on the path
from sqlmodel import Session, col, select

from app.campaigns.models import BattleIn, CampaignIn
from app.campaigns.service import CampaignService
from app.carnet_file.models import CarnetFile
from app.carnet_file.restore import restore_carnet
from app.carnet_service import CarnetService
from app.roster_service import RosterService, frozen_share, snapshot
from app.store import books as book_store
from app.store import campaigns as campaign_store
from app.store import rosters as roster_store
from app.store.models import Book, Campaign, Carnet, CarnetCampaign, CarnetRoster, Roster
from app.systems.base import AnySystem

CLUB = "Club de l’échelle"
EDITOR_LIST = "Bench éditeur 50"
HEAVY_FIRST = "Lourde 0000"
BOOK = "Bench livre"
GANGS = 50
BATTLES = 2000
HEAVY_LISTS = 1000
LIGHT_LISTS = 4  # and the editor's list


@dataclass
class Seeded:
    """What the bench measures, found by id, code or key."""

    light_key: str
    light_carnet: str
    heavy_key: str
    heavy_carnet: str
    club_key: str
    editor_list: str
    share: str
    book_share: str
    campaign: str
    gangs: list[str]


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def examples(systems: Mapping[str, AnySystem]) -> dict[str, list[dict[str, Any]]]:
    """Each system's example lists (their documents), the systems in a fixed order."""
    return {
        sid: [dict(e.document) for e in systems[sid].example_rosters()] for sid in sorted(systems)
    }


def file_of(rosters: list[dict[str, Any]], books: list[dict[str, Any]] | None = None) -> CarnetFile:
    """A carnet file holding `rosters` (documents) and `books`, as a player's export."""
    return CarnetFile.model_validate(
        {
            "format": "caserne-carnet",
            "format_version": 1,
            "exported_at": datetime.now(UTC),
            "rosters": [
                {"name": d.get("name", ""), "system": d["system"], "document": d} for d in rosters
            ],
            "books": books or [],
        }
    )


def book_of(
    app_books: Mapping[str, Any], system_id: str, name: str, versions: int
) -> dict[str, Any]:
    """A file's army book: the system's example book as draft and `versions` published."""
    document = app_books[system_id].document.model_dump(mode="json")
    published = [
        {
            "code": f"v{n}",
            "version": n,
            "name": f"{name} v{n}",
            "army": document.get("army", ""),
            "description": document.get("description", ""),
            "units": document["units"][: max(1, len(document["units"]) - versions + n)],
        }
        for n in range(1, versions + 1)
    ]
    return {
        "name": name,
        "system": system_id,
        "document": {**document, "name": name},
        "published": published,
    }


class Seeder:
    def __init__(self, session: Session, systems: Mapping[str, AnySystem], books: Any) -> None:
        self.session, self.systems, self.books = session, systems, books
        self.examples = examples(systems)
        self.ids = sorted(self.examples)
        self.chance = random.Random(29)
        self.made = 0  # rosters

    def carnet(
        self, documents: list[dict[str, Any]], books: list[dict[str, Any]] | None = None
    ) -> tuple[Carnet, str, list[str]]:
        """A new carnet holding `documents` (one restore, one transaction)."""
        carnet, key = CarnetService(self.session).create()
        restored = restore_carnet(self.session, self.systems, carnet, file_of(documents, books))
        if restored.skipped:
            raise SystemExit(f"the restore skipped {restored.skipped[:3]}")
        self.made += len(restored.rosters)
        return carnet, key, [roster_id for roster_id, _name in restored.rosters]

    def shares(self, wanted: list[tuple[str, dict[str, Any]]]) -> list[str]:
        """A share of each list as its document (the store's batch: uncommitted, its
        carnet's transaction commits); their codes."""
        rows = []
        for roster_id, document in wanted:
            system = self.systems[document["system"]]
            parsed = system.roster_model.model_validate(document)
            rows.append((roster_id, frozen_share(system, snapshot(system, parsed))))
        return [made.code for made in roster_store.create_shares(session=self.session, rows=rows)]

    def document(self, number: int) -> dict[str, Any]:
        system_id = self.ids[number % len(self.ids)]
        found = self.examples[system_id]
        return {**found[(number // len(self.ids)) % len(found)], "name": f"Liste {number:06d}"}

    def ordinary(self, rosters: int) -> None:
        """Carnets of 1 to 12 lists (about 5), of every system, until `rosters` lists: 40 %
        of them shared (a tenth of those twice: once before a rename), one carnet in 40
        with an army book of 1 to 3 published versions."""
        started, number, carnets = time.perf_counter(), 0, 0
        while number < rosters:
            size = min(rosters - number, self.chance.choice([1, 1, 2, 3, 4, 5, 6, 8, 10, 12]))
            documents = [self.document(number + i) for i in range(size)]
            books = []
            if carnets % 40 == 0:
                system_id = self.ids[carnets // 40 % len(self.ids)]
                books = [book_of(self.books, system_id, f"Livre {carnets}", 1 + carnets % 3)]
            _carnet, _key, ids = self.carnet(documents, books)
            wanted = []
            for roster_id, document in zip(ids, documents, strict=True):
                if self.chance.random() < 0.4:
                    if self.chance.random() < 0.1:
                        before = {**document, "name": document["name"] + " (avant)"}
                        wanted.append((roster_id, before))
                    wanted.append((roster_id, document))
            if wanted:
                self.shares(wanted)
                self.session.commit()
            number, carnets = number + size, carnets + 1
            if carnets % 2000 == 0:
                took = time.perf_counter() - started
                say(f"  {number} lists in {carnets} carnets ({took:.0f} s)")

    def heavy(self) -> tuple[Carnet, str]:
        documents = [{**self.document(n), "name": f"Lourde {n:04d}"} for n in range(HEAVY_LISTS)]
        carnet, key, _ids = self.carnet(documents)
        return carnet, key

    def light(self, editor_document: dict[str, Any]) -> tuple[Carnet, str, str, str, str]:
        """A carnet of a few lists, the editor's 50-entry list (shared), and a book of
        three published versions."""
        documents = [self.document(n) for n in range(LIGHT_LISTS)]
        documents.append({**editor_document, "name": EDITOR_LIST})
        book = book_of(self.books, "dcsystem", BOOK, 3)
        carnet, key, ids = self.carnet(documents, [book])
        code = self.shares([(ids[-1], documents[-1])])[0]
        self.session.commit()
        found = self.session.exec(select(Book).where(Book.name == BOOK)).first()
        assert found is not None
        latest = book_store.latest_book_share(session=self.session, book_id=found.id)
        assert latest is not None
        return carnet, key, ids[-1], code, latest.code

    def club(self, count: int) -> tuple[str, str, list[str]]:
        """The club's campaign: the organiser's carnet holds its 50 gangs."""
        service = CampaignService(self.session, self.systems)
        carnet, key = CarnetService(self.session).create()
        campaign, _token, _join = service.create(
            CampaignIn(system="necrowarzone", name=CLUB, notes="Règles du club."), carnet
        )
        system = self.systems["necrowarzone"]
        gangs = []
        for n in range(GANGS):
            document = system.roster_model.model_validate(gang(f"Gang {n:02d}"))
            roster, _edit = service.rosters.create(document)
            service.join_held(campaign, roster)
            gangs.append(roster)
        CarnetService(self.session).add(carnet, [g.id for g in gangs])
        self.made += GANGS
        battles(service, campaign.id, gangs, count)
        return key, campaign.id, [g.id for g in gangs]


def recorder_of(number: int, chance: random.Random, rosters: list[Roster]) -> Roster:
    """gangs[0] every fifth battle, gangs[1] one in 50, the others at random."""
    if number % 5 == 0:
        return rosters[0]
    if number % 50 == 1:
        return rosters[1]
    return chance.choice(rosters[2:])


def opponent_of(
    number: int, chance: random.Random, rosters: list[Roster], recorder: Roster
) -> Roster | None:
    """36 lines of others name gangs[1]; no other line does, and gangs[1] names one of the
    others in each of its own; a line of the rest names another gang 4 times in 5."""
    if number % 50 == 26 and number < 1800:
        return rosters[1]
    if recorder.id != rosters[1].id and chance.random() >= 0.8:
        return None
    others = [r for r in rosters if r.id not in (recorder.id, rosters[1].id)]
    return chance.choice(others)


def battles(service: CampaignService, campaign: str, rosters: list[Roster], count: int) -> None:
    """`count` lines recorded through the service (each its share, the gang saved)."""
    chance = random.Random(29)
    dead: dict[str, int] = {}
    club = campaign_store.get_campaign(session=service.session, campaign_id=campaign)
    assert club is not None
    started = time.perf_counter()
    for number in range(count):
        recorder = recorder_of(number, chance, rosters)
        opponent = opponent_of(number, chance, rosters, recorder)
        against = {"opponent_roster": opponent.id} if opponent else {"opponent": "De passage"}
        body = battle(number, chance, dead, recorder.id, campaign, against)
        line, _share = service.record(recorder, recorder.version, BattleIn.model_validate(body))
        mirrored = opponent is not None and opponent.id == rosters[1].id
        follow_up(service, club, number, line, body, recorder, opponent, not mirrored)
        if (number + 1) % 250 == 0:
            say(f"  {number + 1} battles ({time.perf_counter() - started:.0f} s)")


def seed(
    session: Session,
    systems: Mapping[str, AnySystem],
    books: Any,
    rosters: int,
    editor_document: dict[str, Any],
    battle_count: int = BATTLES,
) -> Seeded:
    """`rosters` lists in all (at least 1,100): the club's gangs, the heavy and light
    carnets, and ordinary carnets for the rest."""
    seeder = Seeder(session, systems, books)
    started = time.perf_counter()
    club_key, campaign, gangs = seeder.club(battle_count)
    say(f"  the club: {time.perf_counter() - started:.0f} s")
    heavy, heavy_key = seeder.heavy()
    light, light_key, editor, code, book_code = seeder.light(editor_document)
    seeder.ordinary(max(0, rosters - seeder.made))
    say(f"seeded {seeder.made} lists in {time.perf_counter() - started:.0f} s")
    return Seeded(
        light_key, light.id, heavy_key, heavy.id, club_key, editor, code, book_code, campaign, gangs
    )


def carnet_holding(session: Session, roster_name: str) -> Carnet:
    query = (
        select(Carnet)
        .join(CarnetRoster, col(CarnetRoster.carnet_id) == col(Carnet.id))
        .join(Roster, col(Roster.id) == col(CarnetRoster.roster_id))
        .where(Roster.name == roster_name)
    )
    found = session.exec(query).first()
    if found is None:
        raise SystemExit(f"no list « {roster_name} » in this database: seed it first")
    return found


def located(session: Session, systems: Mapping[str, AnySystem]) -> Seeded:
    """What a seeding made, in a database seeded before (new carnet keys)."""
    carnets = CarnetService(session)
    light, heavy = carnet_holding(session, EDITOR_LIST), carnet_holding(session, HEAVY_FIRST)
    campaign = session.exec(select(Campaign).where(Campaign.name == CLUB)).first()
    if campaign is None:
        raise SystemExit("no club campaign in this database: seed it first")
    organiser = session.exec(
        select(Carnet)
        .join(CarnetCampaign, col(CarnetCampaign.carnet_id) == col(Carnet.id))
        .where(CarnetCampaign.campaign_id == campaign.id)
    ).one()
    editor = session.exec(select(Roster).where(Roster.name == EDITOR_LIST)).one()
    share = RosterService(session, systems).shared(editor)
    book = session.exec(select(Book).where(Book.name == BOOK)).one()
    published = book_store.latest_book_share(session=session, book_id=book.id)
    assert share is not None and published is not None
    gangs = campaign_store.gangs(session=session, campaign_id=campaign.id)
    return Seeded(
        carnets.rotate(light),
        light.id,
        carnets.rotate(heavy),
        heavy.id,
        carnets.rotate(organiser),
        editor.id,
        share[0].code,
        published.code,
        campaign.id,
        [g.id for g in gangs],
    )
