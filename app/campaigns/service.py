"""What may be done with a gang's ledger and a club's campaign, for the API and the pages
alike: record a battle, list a ledger, create a campaign, join it, read its standings.
Refusals are the exceptions below (the edges answer them); `ledger` does the arithmetic."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError
from sqlmodel import Session

from app.campaigns import ledger, reading, recording, tallies
from app.campaigns import states as fighters_of
from app.campaigns.errors import (
    CampaignFull,
    JoinRefused,
    NoSuchCampaign,
    NotOrganiser,
    OrganiserTokenMissing,
)
from app.campaigns.ledger import LedgerError
from app.campaigns.models import BattleIn, CampaignIn
from app.campaigns.report import RESULTS
from app.campaigns.states import StoredLine
from app.roster_service import (
    ROSTER_MAX_BYTES,
    RosterService,
    StaleVersion,
    card,
    frozen_share,
    snapshot,
    stored_json,
)
from app.store import campaign_reads
from app.store import campaigns as store
from app.store import carnets as carnet_store
from app.store.campaign_reads import LedgerRow
from app.store.models import Battle, Campaign, Carnet, Roster, Share
from app.systems import registry
from app.systems.base import AnySystem
from app.systems.campaign_traits import NO_CAMPAIGN_TRAITS, CampaignTraits

__all__ = [
    "CAMPAIGN_MAX_GANGS",
    "CampaignFull",
    "CampaignService",
    "JoinRefused",
    "LedgerError",
    "NoSuchCampaign",
    "NotOrganiser",
    "OrganiserTokenMissing",
]

# A campaign holds at most this many gangs (a club's; it sizes the standings).
CAMPAIGN_MAX_GANGS = store.CAMPAIGN_MAX_GANGS
# A ledger holds at most this many lines (a long campaign has a few dozen battles).
LEDGER_MAX_LINES = 1000


def as_row(roster: Roster, line: dict[str, Any]) -> LedgerRow:
    """A line about to be stored (`line`: its row's fields) as the tallies read lines."""
    fields = {**line, "roster_id": roster.id, "voided_at": None}
    return LedgerRow(*(fields[name] for name in LedgerRow._fields[:-1]))


def _tally(row: Battle) -> store.Tally:
    """What a change of `row` keeps: its recorder's lines of its campaign counted again."""
    return lambda session: tallies.retally(session, str(row.campaign_id), row.roster_id)


def traits_of(system_id: str) -> CampaignTraits:
    """The campaign traits of the registered system (none declared: NO_CAMPAIGN_TRAITS)."""
    spec = registry.registered(system_id)
    return spec.campaign if spec is not None and spec.campaign else NO_CAMPAIGN_TRAITS


@dataclass
class CampaignService:
    session: Session
    systems: Mapping[str, AnySystem]

    @property
    def rosters(self) -> RosterService:
        """The roster service; the versions its saves keep say « campaign » (docs/history.md)."""
        return RosterService(self.session, self.systems, "campaign")

    # A gang's ledger -------------------------------------------------------------------

    def lines(self, roster: Roster) -> list[Battle]:
        return store.ledger(session=self.session, roster_id=roster.id)

    def active(
        self, roster: Roster, document: BaseModel, rows: Sequence[Battle] | None = None
    ) -> BaseModel:
        """The document without its dead and retired fighters (what every total counts)."""
        return fighters_of.counted(self.session, roster, document, rows)

    def record(self, roster: Roster, expected_version: int, body: BattleIn) -> tuple[Battle, Share]:
        """Applies one battle line and stores it, its share and the roster in one
        transaction. LedgerError when the line cannot apply (nothing stored); StaleVersion
        when another writer got in first (nothing stored)."""
        system = self.rosters.system(roster)
        rows = campaign_reads.ledger_rows(session=self.session, roster_id=roster.id)
        recording.admissible(roster, expected_version, body, len(rows), LEDGER_MAX_LINES)
        campaign, opponent = self._campaign_of(roster, body, rows)
        same = self._same_battle(roster, body, campaign, opponent, rows)
        points = self._points(system, body)
        after = recording.applied(system, traits_of(system.id), roster.document, rows, body)
        stored = after.whole.model_dump(mode="json")
        text = stored_json(stored, "roster", ROSTER_MAX_BYTES)
        number = len(rows) + 1
        made = card(system, after.active)
        heading = f"Bataille {number} enregistrée : {RESULTS[body.result].lower()}"
        kept = self.rosters.kept(
            roster, stored, text, (after.whole, after.active, made), heading=heading
        )
        line = recording.line_row(system, body, after, stored, number, points)
        share = frozen_share(
            system,
            {
                **snapshot(system, after.active),
                "ledger": {"roster": roster.id, "battle": number, "states": after.states},
            },
        )
        line.update(campaign_id=campaign, opponent_roster_id=opponent)
        if opponent is not None and body.corrects is None:
            line["verdict"] = "pending"
        if same is not None:
            line.update(verdict="confirmed", confirms_id=same.id)
        try:
            return store.record(
                session=self.session,
                roster=roster,
                expected_version=expected_version,
                document=stored,
                card=made,
                history=kept,
                battle=line,
                share=share,
                confirms=same,
                tally=lambda session: tallies.recorded(
                    session, str(campaign), rows, as_row(roster, line), stored, expected_version + 1
                ),
            )
        except store.Lost:
            self.session.refresh(roster)
            raise StaleVersion(roster.version) from None

    def _campaign_of(
        self, roster: Roster, body: BattleIn, rows: Sequence[StoredLine]
    ) -> tuple[str | None, str | None]:
        """The campaign and opponent gang the line counts for. A correction counts where
        the line it corrects did."""
        if body.corrects is not None:
            corrected = next((row for row in rows if row.number == body.corrects), None)
            if corrected is None or corrected.corrects is not None:
                raise LedgerError(
                    "no_such_battle",
                    f"La ligne {body.corrects} n’est pas une bataille de ce gang.",
                    ["corrects"],
                )
            return corrected.campaign_id, corrected.opponent_roster_id
        if body.opponent_roster is not None and body.campaign is None:
            raise LedgerError(
                "opponent_without_campaign",
                "Un gang adverse se nomme avec sa campagne.",
                ["opponent_roster"],
            )
        if body.campaign is None:
            return None, None
        named = [roster.id, *([body.opponent_roster] if body.opponent_roster else [])]
        gangs = campaign_reads.gangs_among(
            session=self.session, campaign_id=body.campaign, roster_ids=named
        )
        if roster.id not in gangs:
            raise LedgerError(
                "not_in_campaign", "Cette liste n’est pas un gang de cette campagne.", ["campaign"]
            )
        if body.opponent_roster is not None and (
            body.opponent_roster == roster.id or body.opponent_roster not in gangs
        ):
            raise LedgerError(
                "opponent_not_in_campaign",
                "L’adversaire n’est pas un autre gang de cette campagne.",
                ["opponent_roster"],
            )
        return body.campaign, body.opponent_roster

    def _same_battle(
        self,
        roster: Roster,
        body: BattleIn,
        campaign: str | None,
        opponent: str | None,
        rows: Sequence[StoredLine],
    ) -> Battle | None:
        """The opponent's line this line records again (docs/campaigns.md « Who says a
        battle happened »): of the same campaign, naming this gang, the same date, the
        opposite result, neither confirmed, disputed nor voided, and not yet matched by
        a line of this gang. The oldest such line, or None (then this line is a battle
        of its own, the opponent's to confirm)."""
        if body.corrects is not None or opponent is None or campaign is None:
            return None
        taken = {row.confirms_id for row in rows if row.confirms_id is not None}
        for theirs in campaign_reads.unconfirmed_against(
            session=self.session, recorder=opponent, opponent=roster.id, campaign_id=campaign
        ):
            if (
                theirs.id not in taken
                and theirs.date == body.date
                and ledger.OPPOSITE[theirs.result] == body.result
            ):
                return theirs
        return None

    def verdict(self, roster: Roster, recorded_by: str, number: int, verdict: str) -> Battle:
        """This gang confirms or disputes a line another gang recorded against it."""
        row = store.line_of(session=self.session, roster_id=recorded_by[:32], number=number)
        if (
            row is None
            or row.opponent_roster_id != roster.id
            or row.roster_id == roster.id
            or row.corrects is not None
        ):
            raise LedgerError(
                "no_such_battle", "Aucune bataille de ce gang adverse contre le vôtre.", ["battle"]
            )
        if row.voided_at is not None:
            raise LedgerError("voided", "L’organisateur a annulé cette bataille.", ["battle"])
        store.set_verdict(session=self.session, line=row, verdict=verdict, tally=_tally(row))
        return row

    def void(self, campaign: Campaign, recorded_by: str, number: int, undo: bool = False) -> Battle:
        """The organiser voids a line of the campaign: it stays, shown as such, and counts
        nowhere (a correction of it neither); `undo`: a voided line counts again."""
        row = store.line_of(session=self.session, roster_id=recorded_by[:32], number=number)
        if row is None or row.campaign_id != campaign.id or row.corrects is not None:
            raise LedgerError(
                "no_such_battle", "Aucune bataille de cette campagne à ce numéro.", ["battle"]
            )
        store.void(session=self.session, line=row, voided=not undo, tally=_tally(row))
        return row

    def _points(self, system: AnySystem, body: BattleIn) -> int | None:
        if body.score is None:
            return None
        if system.score_model is None:
            raise LedgerError(
                "no_score", "Ce système n’a pas de score de fin de partie.", ["score"]
            )
        try:
            request = system.score_model.model_validate(body.score)
        except ValidationError as error:
            first = error.errors()[0]
            loc: list[str | int] = ["score", *[p for p in first["loc"]]]
            raise LedgerError("invalid_score", str(first["msg"]), loc) from None
        return system.score(request).points

    def battles(self, roster: Roster) -> list[dict[str, Any]]:
        """The ledger as api-v1's `list_battles` gives it, oldest first (app/campaigns/
        reading.py)."""
        return reading.battles(self.session, roster, self.lines(roster), None, LEDGER_MAX_LINES)

    def line(self, roster: Roster, row: Battle) -> dict[str, Any]:
        """One line of this gang's own ledger as `battles` gives it."""
        return reading.line(self.session, roster, row)

    # A club's campaign -----------------------------------------------------------------

    def create(self, body: CampaignIn, carnet: Carnet | None) -> tuple[Campaign, str, str]:
        if body.system not in self.systems:
            raise LedgerError("unknown_system", f"Système inconnu « {body.system} ».", ["system"])
        return store.create_campaign(
            session=self.session,
            system=body.system,
            name=body.name,
            notes=body.notes,
            carnet_id=carnet.id if carnet is not None else None,
        )

    def carnet_by_key(self, key: str) -> Carnet | None:
        return carnet_store.carnet_of_key(session=self.session, key=key)

    def get(self, campaign_id: str) -> Campaign:
        campaign = store.get_campaign(session=self.session, campaign_id=campaign_id)
        if campaign is None or campaign.system not in self.systems:
            raise NoSuchCampaign(campaign_id)
        return campaign

    def join(self, campaign: Campaign, roster_id: str, edit_token: str, join_code: str) -> Roster:
        """The roster joins; JoinRefused (wrong code or token), WrongSystem, CampaignFull."""
        if not store.join_matches(campaign, join_code):
            raise JoinRefused(campaign.id)
        roster = self.rosters.get(roster_id)
        if not self.rosters.token_is_its_own(roster, edit_token):
            raise JoinRefused(campaign.id, "edit_token")
        if roster.system != campaign.system:
            raise LedgerError(
                "wrong_system",
                f"Cette liste est de « {roster.system} », la campagne de « {campaign.system} ».",
                ["roster"],
            )
        self.join_held(campaign, roster)
        return roster

    def join_held(self, campaign: Campaign, roster: Roster) -> None:
        """A roster the player's carnet holds joins (the page checked the join code):
        compare-and-swap on the campaign's gang count (store.join_capped)."""
        if store.is_gang(session=self.session, campaign_id=campaign.id, roster_id=roster.id):
            return
        try:
            store.join_capped(
                session=self.session,
                campaign_id=campaign.id,
                roster_id=roster.id,
                cap=CAMPAIGN_MAX_GANGS,
                tally=lambda session: tallies.retally(
                    session, campaign.id, roster.id, roster.document, roster.version
                ),
            )
        except store.Full:
            raise CampaignFull(campaign.id) from None

    def carnet_campaigns(self, carnet: Carnet) -> list[dict[str, str]]:
        return [
            {"id": c.id, "name": c.name, "system": c.system}
            for c in store.carnet_campaigns(session=self.session, carnet_id=carnet.id)
        ]
