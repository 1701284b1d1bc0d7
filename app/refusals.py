"""The roster and carnet services' refusals, and how each edge answers them: one table,
problem+json for the API (English, for programs) and a French page for people.

`install()` registers one exception handler (app factory): a route or a dependency simply
lets a refusal rise. Edges that keep their own page (the editor keeps the typed values
after a refused save) catch the refusal themselves and may still use `page_text()`.
"""

from collections.abc import Callable
from dataclasses import dataclass

from fastapi import FastAPI, Request, Response

from app.book_service import NoSuchBook, NoSuchBookShare, UnknownSystem
from app.carnet_service import (
    CarnetError,
    CarnetFull,
    KeyMissing,
    KeyRefused,
    NoSuchCarnet,
    NotInCarnet,
)
from app.problems import ApiError, FieldError, problem_response
from app.roster_service import (
    NoSuchRoster,
    RosterError,
    StaleVersion,
    StoredRosterInvalid,
    TokenMissing,
    TokenRefused,
    TooLarge,
    UnstorableText,
    WrongSystem,
)
from app.web.deps import CarnetRevoked, NotInBrowser

Detail = Callable[[RosterError], str]


@dataclass(frozen=True)
class Answer:
    status: int
    api: Detail
    page: str
    code: str = ""
    headers: Callable[[RosterError], dict[str, str]] | None = None


def _const(text: str) -> Detail:
    return lambda _error: text


def _current(error: RosterError) -> int:
    return error.current if isinstance(error, StaleVersion) else 0


def _too_large(error: RosterError) -> str:
    assert isinstance(error, TooLarge)
    return f"The {error.what} would weigh {error.size} bytes; at most {error.limit} are kept."


def _stored_invalid(error: RosterError) -> str:
    assert isinstance(error, StoredRosterInvalid)
    return (
        "The stored roster no longer matches the catalogue: "
        f"{error.error.error_count()} problem(s); replace it with PUT."
    )


PRIVATE = (
    "Cette liste est privée : ouvrez-la depuis votre carnet (« Mes listes ») ou avec son "
    "lien de modification, ou partagez-la pour la montrer."
)

# Most specific first: the first class an error is an instance of answers it.
TABLE: tuple[tuple[type[RosterError], Answer], ...] = (
    (NoSuchRoster, Answer(404, _const("No such roster."), "Cette liste n'existe pas.")),
    (NoSuchBook, Answer(404, _const("No such book."), "Ce livre d'armée n'existe pas.")),
    (
        NoSuchBookShare,
        Answer(404, _const("No such published book."), "Ce livre publié n'existe pas."),
    ),
    (
        UnknownSystem,
        Answer(
            422,
            lambda e: f"Unknown game system {e.system!r}." if isinstance(e, UnknownSystem) else "",
            "Système de jeu inconnu.",
        ),
    ),
    (
        TokenMissing,
        Answer(
            401,
            _const("This roster is a private draft: send 'Authorization: Bearer <edit_token>'."),
            PRIVATE,
            headers=lambda _error: {"WWW-Authenticate": "Bearer"},
        ),
    ),
    (TokenRefused, Answer(403, _const("Wrong edit token."), PRIVATE)),
    (NotInBrowser, Answer(403, _const("This roster is not in this carnet."), PRIVATE)),
    (
        WrongSystem,
        Answer(
            422,
            lambda e: (
                f"This roster is a {e.system!r} roster." if isinstance(e, WrongSystem) else ""
            ),
            "Cette liste est d'un autre système de jeu.",
        ),
    ),
    (
        StaleVersion,
        Answer(
            409,
            lambda e: f"The roster is at version {_current(e)}: read it again.",
            "La liste a été modifiée ailleurs pendant ce changement : réessayez.",
            headers=lambda e: {"ETag": f'"{_current(e)}"'},
        ),
    ),
    (
        TooLarge,
        Answer(
            413,
            _too_large,
            "Cette liste est trop lourde pour être enregistrée : retirez des entrées.",
            code="too_large",
        ),
    ),
    (
        UnstorableText,
        Answer(
            422,
            _const("Text with a U+0000 or an unpaired surrogate cannot be stored."),
            "Un texte contient un caractère invalide.",
            code="invalid_text",
        ),
    ),
    (
        StoredRosterInvalid,
        Answer(
            409,
            _stored_invalid,
            "Cette liste ne correspond plus au catalogue : ouvrez-la pour la corriger.",
        ),
    ),
    (NoSuchCarnet, Answer(404, _const("No such carnet."), "Ce carnet n'existe pas.")),
    (
        KeyMissing,
        Answer(
            401,
            _const("Send the carnet's key: 'Authorization: Bearer <key>'."),
            "Ce lien de carnet est incomplet.",
            headers=lambda _error: {"WWW-Authenticate": "Bearer"},
        ),
    ),
    (
        KeyRefused,
        Answer(
            403,
            _const("Wrong carnet key (or a key that was changed since)."),
            "La clé de ce carnet a été changée : ce lien n'ouvre plus rien.",
        ),
    ),
    (
        CarnetRevoked,
        Answer(
            403,
            _const("Wrong carnet key."),
            "La clé de ce carnet a été changée : ce navigateur n'ouvre plus rien.",
        ),
    ),
    (
        CarnetFull,
        Answer(
            409,
            lambda e: (
                f"A carnet holds at most {e.limit} rosters." if isinstance(e, CarnetFull) else ""
            ),
            "Ce carnet est plein : supprimez des listes avant d'en ajouter.",
            code="carnet_full",
        ),
    ),
    (NotInCarnet, Answer(404, _const("This roster is not in this carnet."), PRIVATE)),
    (CarnetError, Answer(400, _const("Refused."), "Demande refusée.")),
)


def answer(error: RosterError) -> Answer:
    return next(found for kind, found in TABLE if isinstance(error, kind))


def api_error(error: RosterError) -> ApiError:
    """The refusal as the API answers it."""
    found = answer(error)
    detail = found.api(error)
    code = f"{error.what}_too_large" if isinstance(error, TooLarge) else found.code
    errors = [FieldError(loc=["body"], msg=str(error), code=code)] if code else []
    headers = found.headers(error) if found.headers else None
    return ApiError(found.status, detail, errors=errors, headers=headers)


def page_text(error: RosterError) -> tuple[int, str]:
    """The refusal as a page says it: its status and its French sentence."""
    found = answer(error)
    return found.status, found.page


def install(app: FastAPI, html_error: Callable[[Request, int, str], Response]) -> None:
    """One handler for every refusal a route or a dependency lets rise."""

    @app.exception_handler(RosterError)
    async def _refused(request: Request, error: RosterError) -> Response:
        if request.url.path.startswith("/api/"):
            found = api_error(error)
            return problem_response(
                found.status, found.detail, errors=found.errors, headers=found.headers
            )
        status, text = page_text(error)
        return html_error(request, status, text)
