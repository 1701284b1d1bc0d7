"""The roster, carnet, book and campaign refusals, and how each edge answers them: one table,
problem+json for the API (English, for programs) and a French page for people.

`install()` registers one exception handler (app factory): a route or a dependency simply
lets a refusal rise. Edges that keep their own page (the editor keeps the typed values
after a refused save) catch the refusal themselves and may still use `page_text()`.
"""

from collections.abc import Callable
from dataclasses import dataclass

from fastapi import FastAPI, Request, Response

from app.book_service import NoSuchBook, NoSuchBookShare, NotYourBook, UnknownSystem
from app.campaigns.errors import (
    CampaignFull,
    JoinRefused,
    NoSuchCampaign,
    NotOrganiser,
    OrganiserTokenMissing,
)
from app.campaigns.ledger import LedgerError
from app.carnet_file.export import FileTooLarge
from app.carnet_service import (
    CarnetError,
    CarnetFull,
    KeyMissing,
    KeyRefused,
    KeyRotated,
    NoSuchCarnet,
    NotInCarnet,
)
from app.history_service import NoSuchVersion
from app.problems import ApiError, FieldError, problem_response
from app.roster_service import (
    NoSuchRoster,
    Refusal,
    StaleVersion,
    StoredRosterInvalid,
    TokenMissing,
    TokenRefused,
    TooLarge,
    UnstorableText,
    WrongSystem,
)
from app.security.cookies import CarnetRevoked, NotInBrowser

# The API's detail of a refusal and what it is about ("roster" or "book", from the path).
Detail = Callable[[Refusal, str], str]


@dataclass(frozen=True)
class Answer:
    """`page`: the French sentence, or how to say it of the refusal (a ledger's says its
    own). `field`: the (code, loc) of a refusal that names its own (a ledger's)."""

    status: int
    api: Detail
    page: str | Callable[[Refusal], str]
    code: str
    loc: tuple[str, ...] = ()
    headers: Callable[[Refusal], dict[str, str]] | None = None
    field: Callable[[Refusal], tuple[str, list[str | int]]] | None = None


def _const(text: str) -> Detail:
    return lambda _error, _subject: text  # the same words whatever the refusal's subject


def _current(error: Refusal) -> int:
    return error.current if isinstance(error, StaleVersion) else 0


def _stale(error: Refusal, subject: str) -> str:
    sent = error.expected if isinstance(error, StaleVersion) else None
    if sent is not None:
        return f"Version {sent} is stale: the {subject} is at version {_current(error)}."
    return f"The {subject} is at version {_current(error)}: read it again."


def _too_large(error: Refusal, _subject: str) -> str:
    assert isinstance(error, TooLarge)
    return f"The {error.what} would weigh {error.size} bytes; at most {error.limit} are kept."


def _stored_invalid(error: Refusal, subject: str) -> str:
    assert isinstance(error, StoredRosterInvalid)
    return (
        f"The stored {subject} no longer matches the catalogue: "
        f"{error.error.error_count()} problem(s); replace it with PUT."
    )


def _private(_error: Refusal, subject: str) -> str:
    if subject == "book":
        return "This book is private: send 'Authorization: Bearer <edit_token or carnet key>'."
    return "This roster is a private draft: send 'Authorization: Bearer <edit_token>'."


def _wrong_token(_error: Refusal, subject: str) -> str:
    book = subject == "book"
    return "Wrong edit token (or carnet key) for this book." if book else "Wrong edit token."


def _own_words(error: Refusal, _subject: str = "") -> str:
    return str(error)


def _own_field(error: Refusal) -> tuple[str, list[str | int]]:
    """The code and body field a refusal names itself (a ledger's, a join's)."""
    assert isinstance(error, LedgerError | JoinRefused)
    return error.code, ["body", *error.path]


def _authorization(status: int, api: Detail, page: str, code: str) -> Answer:
    """A refusal of the secret sent as `Authorization` (a 401 says how to send one)."""
    challenge = (lambda _error: BEARER) if status == 401 else None
    return Answer(status, api, page, code, AUTHORIZATION, headers=challenge)


def _missing(api: str, page: str, code: str, param: str) -> Answer:
    """A 404 for an id of the path that names nothing."""
    return Answer(404, _const(api), page, code, ("path", param))


def _unknown(error: Refusal, _subject: str) -> str:
    return f"Unknown game system {error.system!r}." if isinstance(error, UnknownSystem) else ""


def _wrong_system(error: Refusal, subject: str) -> str:
    system = error.system if isinstance(error, WrongSystem) else ""
    return f"This {subject} is a {system!r} {subject}: its system cannot change."


PRIVATE = (
    "Cette liste est privée : ouvrez-la depuis votre carnet (« Mes listes ») ou avec son "
    "lien de modification, ou partagez-la pour la montrer."
)
ORGANISER_ONLY = "Seul l'organisateur de la campagne le peut."
KEY_CHANGED = "La clé de ce carnet a été changée : ce lien n'ouvre plus rien."
# The book pages' one refusal (`EditableBook`, app/web/toolkit.py): the same 404 page for a
# book that does not exist and for one of another carnet.
NOT_YOUR_BOOK = "Ce livre d'armée n'est pas dans le carnet de ce navigateur."
AUTHORIZATION = ("header", "authorization")
SYSTEM = ("body", "system")
VERSION = ("path", "version")
NOT_KEPT = "This roster keeps no such version (docs/history.md: how many are kept)."
TOO_BIG_FILE = "Ce carnet tient plus qu'un fichier ne peut (docs/carnet-file.md)."
NOT_KEPT_PAGE = "Cette version n'est pas (ou plus) gardée dans l'historique de la liste."
BEARER = {"WWW-Authenticate": "Bearer"}

# Most specific first: the first class an error is an instance of answers it. Each `code`
# is in docs/api-codes.md (tests/api/test_problem_codes.py checks it).
TABLE: tuple[tuple[type[Refusal], Answer], ...] = (
    (
        NoSuchRoster,
        _missing("No such roster.", "Cette liste n'existe pas.", "roster_not_found", "roster_id"),
    ),
    (NoSuchVersion, Answer(404, _const(NOT_KEPT), NOT_KEPT_PAGE, "version_not_found", VERSION)),
    (FileTooLarge, Answer(413, _own_words, TOO_BIG_FILE, "carnet_file_too_large")),
    (
        NoSuchBook,
        _missing("No such book.", "Ce livre d'armée n'existe pas.", "book_not_found", "book_id"),
    ),
    (
        NoSuchBookShare,
        _missing(
            "No such published book.",
            "Ce livre publié n'existe pas.",
            "book_share_not_found",
            "code",
        ),
    ),
    (
        NotYourBook,
        Answer(
            404,
            _const("This book is not in this carnet."),
            NOT_YOUR_BOOK,
            "not_in_carnet",
            ("path", "book_id"),
        ),
    ),
    (UnknownSystem, Answer(422, _unknown, "Système de jeu inconnu.", "unknown_system", SYSTEM)),
    (TokenMissing, _authorization(401, _private, PRIVATE, "edit_token_missing")),
    (TokenRefused, _authorization(403, _wrong_token, PRIVATE, "edit_token_refused")),
    (
        NotInBrowser,
        Answer(
            403,
            _const("This roster is not in this carnet."),
            PRIVATE,
            "not_in_carnet",
            ("path", "roster_id"),
        ),
    ),
    (
        WrongSystem,
        Answer(
            422,
            _wrong_system,
            "Cette liste est d'un autre système de jeu.",
            "system_mismatch",
            ("body", "system"),
        ),
    ),
    (
        StaleVersion,
        Answer(
            409,
            _stale,
            "La liste a été modifiée ailleurs pendant ce changement : réessayez.",
            "version_stale",
            ("header", "if-match"),
            headers=lambda e: {"ETag": f'"{_current(e)}"'},
        ),
    ),
    (
        TooLarge,
        Answer(
            413,
            _too_large,
            "Cette liste est trop lourde pour être enregistrée : retirez des entrées.",
            "too_large",
            ("body",),
        ),
    ),
    (
        UnstorableText,
        Answer(
            422,
            _const("Text with a U+0000 or an unpaired surrogate cannot be stored."),
            "Un texte contient un caractère invalide.",
            "invalid_text",
            ("body",),
        ),
    ),
    (
        StoredRosterInvalid,
        Answer(
            409,
            _stored_invalid,
            "Cette liste ne correspond plus au catalogue : ouvrez-la pour la corriger.",
            "stored_document_invalid",
        ),
    ),
    (
        NoSuchCarnet,
        _missing("No such carnet.", "Ce carnet n'existe pas.", "carnet_not_found", "carnet_id"),
    ),
    (
        KeyMissing,
        _authorization(
            401,
            _const("Send the carnet's key: 'Authorization: Bearer <key>'."),
            "Ce lien de carnet est incomplet.",
            "carnet_key_missing",
        ),
    ),
    (
        KeyRotated,
        _authorization(
            403,
            _const("This carnet's key was changed since: this one opens nothing now."),
            KEY_CHANGED,
            "carnet_key_rotated",
        ),
    ),
    (
        KeyRefused,
        _authorization(403, _const("Wrong carnet key."), KEY_CHANGED, "carnet_key_refused"),
    ),
    (
        CarnetRevoked,
        Answer(
            403,
            _const("Wrong carnet key."),
            "La clé de ce carnet a été changée : ce navigateur n'ouvre plus rien.",
            "carnet_key_refused",
        ),
    ),
    (
        CarnetFull,
        Answer(
            409,
            lambda e, _s: (
                f"A carnet holds at most {e.limit} rosters." if isinstance(e, CarnetFull) else ""
            ),
            "Ce carnet est plein : supprimez des listes avant d'en ajouter.",
            "carnet_full",
            ("body",),
        ),
    ),
    (
        NotInCarnet,
        Answer(
            404,
            _const("This roster is not in this carnet."),
            PRIVATE,
            "not_in_carnet",
            ("path", "roster_id"),
        ),
    ),
    (CarnetError, Answer(400, _const("Refused."), "Demande refusée.", "carnet_refused")),
    # Campaigns (docs/campaigns.md): a ledger's refusal names its own code and field.
    (LedgerError, Answer(422, _own_words, _own_words, "invalid", field=_own_field)),
    (
        NoSuchCampaign,
        _missing(
            "No such campaign.", "Cette campagne n'existe pas.", "campaign_not_found", "campaign_id"
        ),
    ),
    (
        JoinRefused,
        Answer(
            403,
            _const("Wrong join code or edit token: nothing joined."),
            "Ce lien d'invitation n'est pas celui de cette campagne.",
            "join_code_refused",
            field=_own_field,
        ),
    ),
    (
        CampaignFull,
        Answer(
            409, _const("The campaign is full."), "Cette campagne est complète.", "campaign_full"
        ),
    ),
    (
        OrganiserTokenMissing,
        _authorization(
            401,
            _const("The campaign's edit token is needed."),
            ORGANISER_ONLY,
            "campaign_token_missing",
        ),
    ),
    (
        NotOrganiser,
        _authorization(
            403,
            _const("Not this campaign's edit token: nothing voided."),
            ORGANISER_ONLY,
            "campaign_token_refused",
        ),
    ),
)


def answer(error: Refusal) -> Answer:
    return next(found for kind, found in TABLE if isinstance(error, kind))


def subject_of(path: str) -> str:
    """What a request acts on, as its refusals name it."""
    return "book" if path.startswith(("/api/v1/books", "/api/v1/book-shares")) else "roster"


def api_error(error: Refusal, subject: str = "roster") -> ApiError:
    """The refusal as the API answers it: its `code` in the problem's one error entry."""
    found = answer(error)
    detail = found.api(error, subject)
    code = f"{error.what}_too_large" if isinstance(error, TooLarge) else found.code
    loc: list[str | int] = list(found.loc)
    if found.field is not None:
        code, loc = found.field(error)
    # The three refusals that carried a code before keep their message; the others say `detail`.
    kept = isinstance(error, TooLarge | UnstorableText | CarnetFull)
    msg = str(error) if kept else detail
    errors = [FieldError(loc=loc, msg=msg, code=code)]
    headers = found.headers(error) if found.headers else None
    return ApiError(found.status, detail, errors=errors, headers=headers)


def page_text(error: Refusal) -> tuple[int, str]:
    """The refusal as a page says it: its status and its French sentence."""
    found = answer(error)
    return found.status, found.page if isinstance(found.page, str) else found.page(error)


def install(app: FastAPI, html_error: Callable[[Request, int, str], Response]) -> None:
    """One handler for every refusal a route or a dependency lets rise."""

    @app.exception_handler(Refusal)
    async def _refused(request: Request, error: Refusal) -> Response:
        if request.url.path.startswith("/api/"):
            found = api_error(error, subject_of(request.url.path))
            return problem_response(found.status, found.detail, **found.extras)
        status, text = page_text(error)
        return html_error(request, status, text)
