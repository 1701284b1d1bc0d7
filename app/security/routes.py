"""Which requests the rate limits count: every unsafe route that creates, stores, publishes
or checks a secret (ROUTES, shown in the README's « Rate limits » table), the routes that only
compute (COMPUTE_ONLY), and where a secret is checked (CHECKED_PATHS). The middleware that
counts them is app/security/ratelimit.py."""

import re
from dataclasses import dataclass
from functools import lru_cache

from starlette.types import Scope

from app.security.cookies import COOKIE_PREFIX
from app.security.tokens import carries_secret


@dataclass(frozen=True)
class Route:
    """Requests a limit counts: a method, a path (a route's template, `{name}` standing for
    one segment), and maybe the `action` form field's value, when only it tells."""

    kind: str  # a field of Limits: "create", "share", "write", "key"
    method: str
    template: str
    action: str | None = None

    @property
    def path(self) -> re.Pattern[str]:
        return _compiled(self.template)


@lru_cache(maxsize=256)
def _compiled(template: str) -> re.Pattern[str]:
    parts = re.split(r"(\{[^}]+\})", template)
    return re.compile(
        "".join("[^/]+" if part.startswith("{") else re.escape(part) for part in parts if part)
    )


# Every unsafe route of the app that creates, stores, publishes or checks a secret, with the
# limit that counts it (README « Rate limits » shows this table; tests/security/
# test_route_limits.py walks the app's routes: one that is neither here nor in COMPUTE_ONLY
# fails it). A route may be counted by several limits. Counted before the route runs, so
# a refused or failed request counts too.
ROUTES: tuple[Route, ...] = (
    # New rosters, carnets, books and campaigns, and every copy of one.
    Route("create", "POST", "/api/v1/rosters"),
    Route("create", "POST", "/api/v1/carnets"),
    Route("create", "POST", "/api/v1/carnets/{carnet_id}/rosters"),
    Route("create", "POST", "/api/v1/books"),
    Route("create", "POST", "/api/v1/campaigns"),
    Route("create", "POST", "/listes"),  # the home page's « Nouvelle liste »
    Route("create", "POST", "/listes/nouvelle"),  # « Mes listes »' « Nouvelle liste »
    Route("create", "POST", "/listes/ajouter"),
    Route("create", "POST", "/listes/{roster_id}/dupliquer"),
    Route("create", "POST", "/{system}/createur/ajouter"),
    Route("create", "POST", "/s/{code}/dupliquer"),
    Route("create", "POST", "/livres"),
    Route("create", "POST", "/a/{code}/dupliquer"),
    Route("create", "POST", "/livres/exemples/{system}/dupliquer"),
    Route("create", "POST", "/campagnes/nouvelle"),
    # A carnet file restored: its lists, books and campaigns (issue 30, docs/carnet-file.md).
    Route("create", "POST", "/api/v1/carnets/{carnet_id}/import"),
    Route("create", "POST", "/listes/carnet/restauration"),
    Route(
        "create", "POST", "/r/{roster_id}/modifier"
    ),  # an edit link's « Ouvrir » (may make a carnet)
    # A list imported: read (up to 512 KiB of text, a share looked up), then saved.
    Route("create", "POST", "/api/v1/imports"),
    Route("create", "POST", "/listes/importer"),
    Route("create", "POST", "/listes/importer/enregistrer"),
    # New shares (snapshots): of a list, of a book (« Publier »; adding a book's unit to a
    # list publishes the book's current state).
    Route("share", "POST", "/api/v1/rosters/{roster_id}/shares"),
    Route("share", "POST", "/r/{roster_id}", action="share"),
    Route("share", "POST", "/api/v1/books/{book_id}/shares"),
    Route("share", "POST", "/livres/{book_id}/publier"),
    Route("share", "POST", "/livres/{book_id}/unites/{unit_id}/ajouter"),
    # Writes to what exists: lists, books, carnets, campaigns, ledgers.
    Route("write", "PUT", "/api/v1/rosters/{roster_id}"),
    Route("write", "DELETE", "/api/v1/rosters/{roster_id}"),
    Route("write", "POST", "/api/v1/rosters/{roster_id}/updates"),
    Route("write", "POST", "/api/v1/rosters/{roster_id}/battles"),
    Route("write", "PUT", "/api/v1/books/{book_id}"),
    Route("write", "DELETE", "/api/v1/books/{book_id}"),
    Route("write", "PUT", "/api/v1/carnets/{carnet_id}/rosters/{roster_id}"),
    Route("write", "DELETE", "/api/v1/carnets/{carnet_id}/rosters/{roster_id}"),
    Route("write", "POST", "/api/v1/campaigns/{campaign_id}/gangs"),
    Route("write", "POST", "/r/{roster_id}"),
    Route("write", "POST", "/r/{roster_id}/nombres"),  # a count change (issue 19)
    Route("write", "POST", "/r/{roster_id}/livres"),
    Route("write", "POST", "/r/{roster_id}/livres/ajouter"),
    Route("write", "POST", "/r/{roster_id}/livres/annuler"),
    Route("write", "POST", "/r/{roster_id}/campagne"),  # a battle line
    Route("write", "POST", "/listes/{roster_id}/renommer"),
    Route("write", "POST", "/listes/{roster_id}/supprimer"),
    Route("write", "POST", "/listes/{roster_id}/restaurer"),  # a deleted list brought back
    Route("write", "POST", "/livres/{book_id}/unites/{unit_id}/ajouter"),
    Route("write", "POST", "/livres/{book_id}/unites/{unit_id}/retirer"),
    Route("write", "POST", "/livres/{book_id}/unites/{item_id}/remettre"),  # a unit put back
    Route("write", "POST", "/livres/{book_id}/renommer"),
    Route("write", "POST", "/livres/{book_id}/supprimer"),
    Route("write", "POST", "/livres/{book_id}/restaurer"),  # a deleted book brought back
    Route("write", "POST", "/{system}/createur/livre"),  # « Enregistrer dans le livre »
    Route("write", "POST", "/carnet/{carnet_id}"),  # merge or switch carnets
    Route("write", "POST", "/c/{campaign_id}/rejoindre"),
    # Campaign verdicts and voids (issue 25.8, issue 26.5): each stores a line's state.
    Route("write", "POST", "/api/v1/rosters/{roster_id}/battles/{recorded_by}/{battle}/verdict"),
    Route("write", "POST", "/r/{roster_id}/campagne/verdict"),
    Route("write", "POST", "/api/v1/campaigns/{campaign_id}/voids"),
    Route("write", "POST", "/c/{campaign_id}/annuler"),
    Route("write", "POST", "/c/{campaign_id}/retablir"),  # a voided battle counts again
    Route("write", "POST", "/listes/carnet/oublier"),  # forgets the carnet on this device
    # A kept version restored: a new save of the list (issue 30, docs/history.md).
    Route("write", "POST", "/api/v1/rosters/{roster_id}/versions/{version}/restore"),
    Route("write", "POST", "/r/{roster_id}/historique/{version}/retablir"),
    # A new secret: a carnet's key, a campaign's join link.
    Route("key", "POST", "/api/v1/carnets/{carnet_id}/key"),
    Route("key", "POST", "/listes/carnet/cle"),
    Route("key", "POST", "/c/{campaign_id}/invitation"),
)


@lru_cache(maxsize=8)
def _of_method(method: str) -> tuple[re.Pattern[str] | None, tuple[Route, ...]]:
    """The ROUTES of `method`, and one pattern matching any of their paths."""
    mine = tuple(route for route in ROUTES if route.method == method)
    if not mine:
        return None, ()
    return re.compile("|".join(f"(?:{route.path.pattern})" for route in mine)), mine


def counted(method: str, path: str) -> list[Route]:
    """The ROUTES a request counts against, in their order: none after one match of a
    single pattern for most requests (a calculator's, a page's), instead of one match per
    route of its method (about 60 for a POST, issue 29)."""
    pattern, mine = _of_method(method)
    if pattern is None or pattern.fullmatch(path) is None:
        return []
    return [route for route in mine if route.path.fullmatch(path)]


# Unsafe routes that store nothing and check no secret: calculators and previews. Counted
# by no limit (their work is bounded by the body's size and the heavy pool).
COMPUTE_ONLY: tuple[Route, ...] = (
    Route("compute", "POST", "/api/v1/systems/{system}/{rest}"),  # cost, validate, odds...
    Route("compute", "POST", "/{system}/score"),
    Route("compute", "POST", "/{system}/createur"),  # the creator's live preview
    Route("compute", "POST", "/{system}/batiment"),
    Route("compute", "POST", "/{system}/chances"),
    Route("compute", "POST", "/{system}/tir"),
)
# Where a secret is checked (an edit token, a carnet's key, a campaign's join code or
# token); 401/403 there are failed checks, counted per client and per thing (the id).
CHECKED_PATHS = (
    re.compile(
        r"/(?:api/v1/rosters|api/v1/carnets|api/v1/books|api/v1/campaigns|r|carnet|c)"
        r"/(?P<id>[^/]+)(?:/.*)?"
    ),
    re.compile(r"/listes/(?P<id>[^/]+)/(?:renommer|dupliquer|supprimer)"),
    # Without an id: a carnet's key in the Authorization header (a campaign put in a
    # carnet) or the carnet's cookie (its key rotation).
    re.compile(r"/api/v1/campaigns|/listes/carnet/cle"),
)
FAILED = (401, 403)
UNSAFE = frozenset({"POST", "PUT", "DELETE", "PATCH"})


def presents_token(scope: Scope, roster_id: str) -> bool:
    """Whether a request carries a secret for what it names: an Authorization header, a
    secret query parameter (the edit link's `t`), the roster's edit cookie, or, for an
    unsafe method, its body (a carnet key in a form, a join code: such a request always
    stakes a secret, the empty one included)."""
    if scope.get("method") in UNSAFE:
        return True
    headers = dict(scope.get("headers") or [])
    if headers.get(b"authorization", b"").strip():
        return True
    if carries_secret(scope.get("query_string", b"")):
        return True
    cookie = headers.get(b"cookie", b"").decode("latin-1")
    return f"{COOKIE_PREFIX}{roster_id}=" in cookie


def checked_id(path: str) -> str | None:
    """The id of what a secret is checked for on `path` ("" for a route without one), or
    None when no secret is checked there."""
    for pattern in CHECKED_PATHS:
        found = pattern.fullmatch(path)
        if found is not None:
            return found.groupdict().get("id") or ""
    return None


def may_be_limited(method: str, path: str) -> bool:
    """Whether a request can get 429 (for the OpenAPI document)."""
    return checked_id(path) is not None or any(
        route.method == method and route.path.fullmatch(path) for route in ROUTES
    )
