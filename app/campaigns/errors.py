"""A campaign's refusals besides a ledger's (`ledger.LedgerError`): app/refusals.py answers
each, for the API and the pages alike (docs/campaigns.md)."""

from app.roster_service import Refusal


class NoSuchCampaign(Refusal):
    pass


class JoinRefused(Refusal):
    """The join code or the roster's edit token is wrong: nothing joins."""


class CampaignFull(Refusal):
    pass


class OrganiserTokenMissing(Refusal):
    """No campaign edit token came with an organiser's request."""


class NotOrganiser(Refusal):
    """The campaign edit token (or the browser's carnet) is not its organiser's."""
