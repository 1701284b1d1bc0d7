"""A campaign's refusals besides a ledger's (`ledger.LedgerError`): app/refusals.py answers
each, for the API and the pages alike (docs/campaigns.md)."""

from app.roster_service import Refusal


class NoSuchCampaign(Refusal):
    pass


class JoinRefused(Refusal):
    """The join code or the roster's edit token is wrong: nothing joins. `field` says
    which: "join_code" or "edit_token"."""

    def __init__(self, campaign_id: str, field: str = "join_code") -> None:
        super().__init__(campaign_id)
        # As a ledger's refusal says it: its code, and the body field it is about.
        self.code = "edit_token_refused" if field == "edit_token" else "join_code_refused"
        self.path: tuple[str | int, ...] = (field,)


class CampaignFull(Refusal):
    pass


class OrganiserTokenMissing(Refusal):
    """No campaign edit token came with an organiser's request."""


class NotOrganiser(Refusal):
    """The campaign edit token (or the browser's carnet) is not its organiser's."""
