"""A campaign's refusals besides a ledger's (`ledger.LedgerError`): app/refusals.py answers
each, for the API and the pages alike (docs/campaigns.md)."""

from app.roster_service import RosterError


class NoSuchCampaign(RosterError):
    pass


class JoinRefused(RosterError):
    """The join code or the roster's edit token is wrong: nothing joins."""


class CampaignFull(RosterError):
    pass


class OrganiserTokenMissing(RosterError):
    """No campaign edit token came with an organiser's request."""


class NotOrganiser(RosterError):
    """The campaign edit token (or the browser's carnet) is not its organiser's."""
