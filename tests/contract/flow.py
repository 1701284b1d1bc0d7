"""The contract's flows as a third-party program writes them (issue 28): with a client that
`openapi-python-client` generated from the live `/openapi.json` (the package
`caserne_client`, made at test time by tests/contract/test_contract.py), and nothing else:
a carnet, rosters under If-Match, shares with 304, army books and their updates, a campaign
with a battle, key rotation, and the carnet in one file (exported, imported elsewhere as the
very object the export answered).

Every body is one of the generated models, every answer read through its typed model: no
`additional_properties` written, no raw JSON, no header added by hand (If-Match and
If-None-Match are the operations' own parameters). `mypy --strict` checks this file against
the generated package.

    python tests/contract/flow.py http://localhost:8000   # against a running server
"""

import datetime
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from caserne_client import AuthenticatedClient, Client
from caserne_client.api.books import create_book, get_book_share, publish_book, replace_book
from caserne_client.api.campaigns import (
    create_campaign,
    get_campaign,
    join_campaign,
    list_battles,
    record_battle,
)
from caserne_client.api.carnets import export_carnet, import_carnet
from caserne_client.api.rosters import (
    add_carnet_roster,
    apply_roster_updates,
    create_carnet,
    create_roster,
    get_carnet,
    get_roster,
    get_roster_updates,
    get_share,
    replace_roster,
    rotate_carnet_key,
    share_roster,
)
from caserne_client.models import (
    ApplyUpdates,
    BattleIn,
    BattleInResult,
    BookSource,
    CampaignIn,
    CampaignInSystem,
    DcsystemBook,
    DcsystemBookShare,
    DcsystemBookUnit,
    DcsystemEntryCustom,
    DcsystemEntryUnit,
    DcsystemEntryUnitUnit,
    DcsystemFighter,
    DcsystemFighterItemsItem,
    DcsystemFighterLevel,
    DcsystemResult,
    DcsystemRoster,
    FighterIn,
    JoinIn,
    NecrowarzoneEntryCustom,
    NecrowarzoneEntryUnit,
    NecrowarzoneFigure,
    NecrowarzoneProfile,
    NecrowarzoneRoster,
    Problem,
    ShareOut,
    StatChangeIn,
    UpdateStatus,
)
from caserne_client.types import Response, Unset

T = TypeVar("T")

JAFFA = DcsystemFighter(
    level=DcsystemFighterLevel.VALUE_2,
    items=[DcsystemFighterItemsItem.ARME_TIR_3, DcsystemFighterItemsItem.ARME_CC_1],
)
VETERAN = DcsystemFighter(
    level=DcsystemFighterLevel.VALUE_3,
    items=[DcsystemFighterItemsItem.ARME_TIR_3, DcsystemFighterItemsItem.ARME_CC_1],
)


@dataclass
class Api:
    """Where the server is, and how to reach it (`httpx_args`: a transport, in tests)."""

    base_url: str
    httpx_args: dict[str, Any] = field(default_factory=dict)
    steps: list[str] = field(default_factory=list)

    def anonymous(self) -> Client:
        return Client(base_url=self.base_url, httpx_args=self.httpx_args)

    def bearer(self, token: str) -> AuthenticatedClient:
        return AuthenticatedClient(base_url=self.base_url, token=token, httpx_args=self.httpx_args)

    def step(self, name: str, answer: Response[T | Problem], status: int) -> T:
        """The parsed body of an answer that must have `status` (and not be a problem)."""
        if answer.status_code != status or isinstance(answer.parsed, Problem):
            raise AssertionError(f"{name}: {answer.status_code} {answer.content!r}")
        if answer.parsed is None:
            raise AssertionError(f"{name}: no body parsed")
        self.steps.append(name)
        return answer.parsed

    def refused(self, name: str, answer: Response[Any], status: int, code: str) -> None:
        """An answer that must be a problem of `status` whose first error has `code`."""
        problem = answer.parsed
        if answer.status_code != status or not isinstance(problem, Problem):
            raise AssertionError(f"{name}: {answer.status_code} {answer.content!r}")
        errors = problem.errors if isinstance(problem.errors, list) else []
        if not errors or errors[0].code != code:
            raise AssertionError(f"{name}: {code} expected, got {answer.content!r}")
        self.steps.append(name)

    def check(self, name: str, holds: bool) -> None:
        if not holds:
            raise AssertionError(name)
        self.steps.append(name)


def quoted(version: int) -> str:
    return f'"{version}"'


def rosters(api: Api) -> None:
    """A carnet, a roster in it replaced under If-Match, a share read again with its ETag."""
    carnet = api.step("create_carnet", create_carnet.sync_detailed(client=api.anonymous()), 201)
    owner = api.bearer(carnet.key)
    sheet = DcsystemRoster(
        system="dcsystem",
        name="Équipe SG",
        points_limit=200,
        entries=[DcsystemEntryUnit(unit=DcsystemEntryUnitUnit.JAFFA, count=2)],
    )
    made = api.step(
        "add_carnet_roster",
        add_carnet_roster.sync_detailed(carnet.id, client=owner, body=sheet),
        201,
    )
    token = api.bearer(made.edit_token)
    read = api.step("get_roster", get_roster.sync_detailed(made.id, client=token), 200)
    api.check("the roster read is a DCSystem roster", isinstance(read.roster, DcsystemRoster))
    sheet.entries = [DcsystemEntryUnit(unit=DcsystemEntryUnitUnit.JAFFA, count=3)]
    replaced = api.step(
        "replace_roster",
        replace_roster.sync_detailed(
            made.id, client=owner, body=sheet, if_match=quoted(read.version)
        ),
        200,
    )
    api.check("version + 1", replaced.version == read.version + 1)
    stale = replace_roster.sync_detailed(
        made.id, client=token, body=sheet, if_match=quoted(read.version)
    )
    api.refused("a stale If-Match", stale, 409, "version_stale")
    validation = replaced.validation
    api.check("3 Jaffas priced", isinstance(validation, DcsystemResult) and validation.points > 0)
    shared = api.step("share_roster", share_roster.sync_detailed(made.id, client=token), 201)
    public = api.anonymous()
    first = get_share.sync_detailed(shared.code, client=public)
    snapshot = api.step("get_share", first, 200)
    api.check(
        "the share is the roster's",
        isinstance(snapshot, ShareOut) and isinstance(snapshot.roster, DcsystemRoster),
    )
    again = get_share.sync_detailed(shared.code, client=public, if_none_match=first.headers["etag"])
    api.check("get_share with its ETag: 304", again.status_code == 304)
    listed = api.step("get_carnet", get_carnet.sync_detailed(carnet.id, client=owner), 200)
    api.check("the carnet lists it", [r.id for r in listed.rosters] == [made.id])
    rotation(api, carnet.id, carnet.key)


def rotation(api: Api, carnet_id: str, key: str) -> None:
    """A new key: the old one is told rotated, the new one opens the carnet."""
    new = api.step(
        "rotate_carnet_key",
        rotate_carnet_key.sync_detailed(carnet_id, client=api.bearer(key)),
        200,
    )
    old = get_carnet.sync_detailed(carnet_id, client=api.bearer(key))
    api.refused("the old key", old, 403, "carnet_key_rotated")
    wrong = get_carnet.sync_detailed(carnet_id, client=api.bearer("not-a-key"))
    api.refused("a wrong key", wrong, 403, "carnet_key_refused")
    api.step("the new key", get_carnet.sync_detailed(carnet_id, client=api.bearer(new.key)), 200)


def carnet_client(api: Api) -> AuthenticatedClient:
    """A new carnet's key as Bearer: what files a new book or campaign in it (the generated
    client asks an AuthenticatedClient of every operation that reads a token, even where the
    document says none is needed)."""
    carnet = api.step("create_carnet", create_carnet.sync_detailed(client=api.anonymous()), 201)
    return api.bearer(carnet.key)


def books(api: Api) -> None:
    """A book published, a list drawn from it, the book changed and published again, the
    list's update read and applied under If-Match."""
    book = DcsystemBook(
        system="dcsystem",
        name="Marines de Kessel",
        units=[DcsystemBookUnit(id="jaffa", name="Jaffa", definition=JAFFA)],
    )
    made = api.step(
        "create_book", create_book.sync_detailed(client=carnet_client(api), body=book), 201
    )
    owner = api.bearer(made.edit_token)
    first = api.step("publish_book", publish_book.sync_detailed(made.id, client=owner), 201)
    published = api.step(
        "get_book_share", get_book_share.sync_detailed(first.code, client=api.anonymous()), 200
    )
    api.check("the published units are typed", isinstance(published, DcsystemBookShare))
    drawn = DcsystemEntryCustom(
        custom=JAFFA, name="Jaffa", count=1, source=BookSource(book=first.code, unit="jaffa")
    )
    sheet = DcsystemRoster(system="dcsystem", name="Tirée du livre", entries=[drawn])
    roster = api.step(
        "create_roster", create_roster.sync_detailed(client=api.anonymous(), body=sheet), 201
    )
    book.units = [DcsystemBookUnit(id="jaffa", name="Jaffa", definition=VETERAN)]
    api.step(
        "replace_book",
        replace_book.sync_detailed(made.id, client=owner, body=book, if_match=quoted(made.version)),
        200,
    )
    api.step("publish_book again", publish_book.sync_detailed(made.id, client=owner), 201)
    token = api.bearer(roster.edit_token)
    updates = api.step(
        "get_roster_updates", get_roster_updates.sync_detailed(roster.id, client=token), 200
    )
    [update] = updates.updates
    api.check("the unit changed", update.status == UpdateStatus.CHANGED)
    api.check("it costs more", update.points_after > update.points_before)
    applied = api.step(
        "apply_roster_updates",
        apply_roster_updates.sync_detailed(
            roster.id, client=token, body=ApplyUpdates(), if_match=quoted(roster.version)
        ),
        200,
    )
    entries = applied.roster.entries if isinstance(applied.roster, DcsystemRoster) else None
    entry = entries[0] if isinstance(entries, list) else None
    api.check(
        "the entry is the new version's",
        isinstance(entry, DcsystemEntryCustom)
        and isinstance(entry.source, BookSource)
        and entry.source.book != first.code,
    )


def gang(name: str) -> NecrowarzoneRoster:
    profile = NecrowarzoneProfile(m=4, cc=3, ct=3, f=3, e=3, pv=1, i=3, a=1, cd=7)
    chef = NecrowarzoneFigure(profile=profile, leader=True, xp=80)
    entries: list[NecrowarzoneEntryCustom | NecrowarzoneEntryUnit] = [
        NecrowarzoneEntryCustom(custom=chef, name="Chef")
    ]
    entries += [
        NecrowarzoneEntryCustom(custom=NecrowarzoneFigure(profile=profile), name=f"Ganger {n}")
        for n in (1, 2)
    ]
    return NecrowarzoneRoster(system="necrowarzone", name=name, entries=entries)


def campaign(api: Api) -> None:
    """A campaign, two gangs joining it, a battle between them, the standings."""
    made = api.step(
        "create_campaign",
        create_campaign.sync_detailed(
            client=carnet_client(api),
            body=CampaignIn(system=CampaignInSystem.NECROWARZONE, name="La Ruche"),
        ),
        201,
    )
    gangs = []
    for name in ("Les Orlocks", "Les Goliaths"):
        created = api.step(
            f"create_roster {name}",
            create_roster.sync_detailed(client=api.anonymous(), body=gang(name)),
            201,
        )
        joining = JoinIn(roster=created.id, edit_token=created.edit_token, join_code=made.join_code)
        api.step(
            f"join_campaign {name}",
            join_campaign.sync_detailed(made.id, client=api.anonymous(), body=joining),
            201,
        )
        gangs.append(created)
    orlocks, goliaths = gangs
    wrong = JoinIn(roster=orlocks.id, edit_token=orlocks.edit_token, join_code="wrong")
    refused = join_campaign.sync_detailed(made.id, client=api.anonymous(), body=wrong)
    api.refused("a wrong join code", refused, 403, "join_code_refused")
    line = BattleIn(
        date=datetime.date(2026, 12, 1),
        result=BattleInResult.WIN,
        campaign=made.id,
        opponent_roster=goliaths.id,
        fighters=[
            FighterIn(entry=0, xp=5, changes=[StatChangeIn(stat="CT", by=1, cause="Vétéran")])
        ],
    )
    token = api.bearer(orlocks.edit_token)
    recorded = api.step(
        "record_battle",
        record_battle.sync_detailed(
            orlocks.id, client=token, body=line, if_match=quoted(orlocks.version)
        ),
        201,
    )
    api.check("battle 1", recorded.battle == 1)
    stale = record_battle.sync_detailed(
        orlocks.id, client=token, body=line, if_match=quoted(orlocks.version)
    )
    api.refused("a battle on a stale version", stale, 409, "version_stale")
    ledger = api.step("list_battles", list_battles.sync_detailed(orlocks.id, client=token), 200)
    api.check("one line, won", [b.result.value for b in ledger.battles] == ["win"])
    standings = api.step(
        "get_campaign", get_campaign.sync_detailed(made.id, client=api.anonymous()), 200
    )
    api.check("two gangs", len(standings.gangs) == 2)


def carnet_file(api: Api) -> None:
    """A carnet with a list and a gang that fought, as one file; that file, the export's own
    object, brought into another carnet, whose file then holds the same lists and line."""
    carnet = api.step("create_carnet", create_carnet.sync_detailed(client=api.anonymous()), 201)
    owner = api.bearer(carnet.key)
    sheet = DcsystemRoster(
        system="dcsystem",
        name="Équipe SG",
        entries=[DcsystemEntryUnit(unit=DcsystemEntryUnitUnit.JAFFA, count=2)],
    )
    api.step(
        "add_carnet_roster",
        add_carnet_roster.sync_detailed(carnet.id, client=owner, body=sheet),
        201,
    )
    orlocks = api.step(
        "add_carnet_roster gang",
        add_carnet_roster.sync_detailed(carnet.id, client=owner, body=gang("Les Orlocks")),
        201,
    )
    line = BattleIn(
        date=datetime.date(2026, 12, 1),
        result=BattleInResult.WIN,
        fighters=[FighterIn(entry=1, xp=3)],
    )
    api.step(
        "record_battle in the carnet",
        record_battle.sync_detailed(
            orlocks.id, client=owner, body=line, if_match=quoted(orlocks.version)
        ),
        201,
    )
    file = api.step("export_carnet", export_carnet.sync_detailed(carnet.id, client=owner), 200)
    documents = [roster.document for roster in listed(file.rosters)]
    api.check(
        "the file's lists are typed by their system",
        isinstance(documents[0], DcsystemRoster) and isinstance(documents[1], NecrowarzoneRoster),
    )
    [ledger] = listed(file.gangs)
    [kept] = listed(ledger.battles)
    api.check(
        "the line's fighter as the ledger keeps him",
        [(f.name, f.xp) for f in listed(kept.fighters)] == [("Ganger 1", 3)],
    )
    other = api.step("create_carnet", create_carnet.sync_detailed(client=api.anonymous()), 201)
    elsewhere = api.bearer(other.key)
    came = api.step(
        "import_carnet", import_carnet.sync_detailed(other.id, client=elsewhere, body=file), 200
    )
    api.check(
        "two lists and a line came, nothing skipped",
        (len(came.rosters), came.battles, came.skipped) == (2, 1, []),
    )
    again = api.step(
        "export_carnet again", export_carnet.sync_detailed(other.id, client=elsewhere), 200
    )
    api.check(
        "the same lists",
        [r.document.to_dict() for r in listed(again.rosters)]
        == [r.document.to_dict() for r in listed(file.rosters)],
    )


def listed(items: list[T] | Unset) -> list[T]:
    """A list field the document gives a default (`[]`): Unset when the answer left it out."""
    return [] if isinstance(items, Unset) else items


FLOWS: list[Callable[[Api], None]] = [rosters, books, campaign, carnet_file]


def run(api: Api) -> list[str]:
    """Every flow; the steps done, in order (an AssertionError names the one that failed)."""
    for flow in FLOWS:
        flow(api)
    return api.steps


if __name__ == "__main__":
    done = run(Api(sys.argv[1] if len(sys.argv) > 1 else "http://localhost:8000"))
    print(f"{len(done)} steps passed")
