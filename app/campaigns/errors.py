"""A campaign's refusals besides a ledger's (`ledger.LedgerError`): app/refusals.py answers
each, for the API and the pages alike (docs/campaigns.md)."""

from app.roster_service import RosterError


class NoSuchCampaign(RosterError):
    pass


class JoinRefused(RosterError):
    """The join code or the roster's edit token is wrong: nothing joins. `field` says
    which: "join_code" or "edit_token"."""

    def __init__(self, campaign_id: str, field: str = "join_code") -> None:
        super().__init__(campaign_id)
        # As a ledger's refusal says it: its code, and the body field it is about.
        self.code = "edit_token_refused" if field == "edit_token" else "join_code_refused"
        self.path: tuple[str | int, ...] = (field,)


class CampaignFull(RosterError):
    pass


class OrganiserTokenMissing(RosterError):
    """No campaign edit token came with an organiser's request."""


class NotOrganiser(RosterError):
    """The campaign edit token (or the browser's carnet) is not its organiser's."""
