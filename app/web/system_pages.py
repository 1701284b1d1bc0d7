"""What every system's pages share: catalogue, creator (live cost), "add to a list", score.

A system's pages subclass `SystemPages` and say which pages they have and how their forms
read (a unit, a score, the fields the roster editor adds); routes, validation and rendering
are written once here. Templates, in templates/systems/<id>/: `catalogue.html`,
`creator.html` (with a `result` block), `score.html` (with a `score_result` block, when the
engine has a score) and the editor's `add_unit.html`, `entry_controls.html`,
`roster_extras.html` (optional: generic ones stand in).

A custom entry reopens in its creator (`?liste=<roster>&entree=<index>`) when the pages say
how to turn it back into form values (`values_from_entry`); the creator then saves it over
the same row instead of adding one.
"""

from collections.abc import Mapping
from typing import Any, ClassVar, Generic, TypeVar

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ValidationError
from sqlmodel import Session
from starlette.datastructures import FormData

from app.book_service import BookService
from app.db import SessionDep
from app.deps import ReadSessionDep
from app.store.models import Roster
from app.systems.base import AnySystem
from app.web.deps import ChosenRoster, FormDep
from app.web.editor_form import BookPick
from app.web.forms import error_text, field_errors, roster_choices
from app.web.render import html_error, is_htmx, render
from app.web.targets import (
    CreatorQueryDep,
    EditedEntry,
    Target,
    TargetQueryDep,
    edited_entry,
    target_of,
)
from app.web.toolkit import (
    add_entry_to_roster,
    add_unit_to_book,
    by_id,
    my_book,
    redirect,
    service_of,
)

__all__ = ["EditedEntry", "SystemPages", "Target", "pages_of"]

GONE = "Cette entrée n'est plus dans la liste, ou cette liste n'est pas à vous."
GONE_UNIT = (
    "Cette unité n'est plus dans le livre, ce livre n'est pas à vous, "
    "ou le créateur ne peut pas la montrer telle quelle."
)
SystemT = TypeVar("SystemT", bound=AnySystem)


class SystemPages(Generic[SystemT]):
    """Routes under /<system id>/; subclasses fill in the form readers (and name the pages
    they lack). `SystemPages[ItsSystem]` types `self.engine` as the system's own engine."""

    # The pages a system has besides the editor (one without a creator names fewer).
    offers: ClassVar[frozenset[str]] = frozenset({"catalogue", "creator"})
    # The keys of an entry that the creator makes (`custom_entry`); editing a row replaces
    # these and keeps the others (count, group, placement...).
    creator_keys: ClassVar[tuple[str, ...]] = ("unit", "custom", "name")
    # The French names of this system's fields, as its forms label them: an error reads
    # « Blessures légères : au plus 20 », not « light_wounds : au plus 20 » (the fields every
    # roster has are named in app/web/forms.py's LABELS).
    labels: ClassVar[Mapping[str, str]] = {}
    # The catalogue's lists its templates look items up in by id ("units" gives `units`).
    lookups: ClassVar[tuple[str, ...]] = ()
    # Whole numbers an editor row asks for beyond its count (`entry-<i>-<field>`), with the
    # bounds the form takes them within: a value out of them, or not a whole number, keeps
    # the row as stored and is said beside its field, as typed (issue 26).
    entry_bounds: ClassVar[Mapping[str, tuple[int, int]]] = {}

    def __init__(self, system: SystemT) -> None:
        self.system: SystemT = system
        self.system_id = system.id

    @property
    def engine(self) -> SystemT:
        return self.system

    @property
    def catalogue_page(self) -> bool:
        return "catalogue" in self.offers

    @property
    def creator(self) -> bool:
        return "creator" in self.offers

    @property
    def score(self) -> bool:
        return self.system.score_model is not None

    def templates(self) -> list[str]:
        """The templates these pages render (the conformance check looks for them)."""
        names = ["catalogue.html"] if self.catalogue_page else []
        names += ["creator.html"] if self.creator else []
        names += ["score.html"] if self.score else []
        return [f"systems/{self.system_id}/{name}" for name in names]

    # --- what a subclass says ------------------------------------------------------------

    def context(self) -> dict[str, Any]:
        """What the templates need of the catalogue (for every page of the system)."""
        catalogue = self.system.catalogue()
        found = {name: by_id(getattr(catalogue, name)) for name in self.lookups}
        return {"cat": catalogue, **found, **self.catalogue_context(catalogue)}

    def catalogue_context(self, cat: Any) -> dict[str, Any]:
        """What a system's templates need besides its catalogue `cat` and its `lookups`."""
        return {}

    def default_unit(self) -> dict[str, Any]:
        """The creator's starting form values."""
        raise NotImplementedError

    def unit_from_form(self, form: FormData) -> dict[str, Any]:
        """The creator's form as form values (re-rendered) holding a unit definition."""
        raise NotImplementedError

    def definition(self, values: dict[str, Any]) -> dict[str, Any]:
        """The unit definition (as POST .../cost takes it) inside the creator's values."""
        return values

    def custom_entry(self, values: dict[str, Any], unit: BaseModel) -> dict[str, Any]:
        """The roster entry "add to a list" makes of a created unit."""
        return {"custom": unit.model_dump(mode="json"), "name": values.get("name") or None}

    def values_from_entry(self, entry: dict[str, Any]) -> dict[str, Any] | None:
        """The creator's form values that describe a roster entry (to edit it in place), or
        None when the creator cannot show it (then the editor offers no "Modifier")."""
        return None

    def score_from_form(self, form: FormData) -> dict[str, Any]:
        raise NotImplementedError

    def score_context(self, form: FormData | None) -> dict[str, Any]:
        """What the score form shows (a roster's points limit, the values sent)."""
        return {}

    def entry_from_form(self, form: FormData, index: int, entry: dict[str, Any]) -> dict[str, Any]:
        return entry

    def extras_from_form(self, form: FormData) -> dict[str, Any]:
        return {}

    def new_entry(self, form: FormData) -> dict[str, Any] | None:
        unit = form.get("add-unit")
        return {"unit": str(unit)} if unit else None

    def add_refusal(self, form: FormData) -> dict[str, str]:
        """Why the add panel's values cannot make an entry of the list shown (the French
        message under « add », each refused field under « add.<field> »); empty when they
        can (the model still checks the entry they make)."""
        return {}

    def reopened(self, entry: dict[str, Any]) -> dict[str, Any] | None:
        """`values_from_entry`, only when the creator would save exactly the same unit
        (nothing the creator cannot show is lost by editing the row there)."""
        if not self.creator or not isinstance(entry.get("custom"), dict):
            return None
        values = self.values_from_entry(entry)
        if values is None:
            return None
        model = self.system.unit_model
        try:
            again = self.custom_entry(values, model.model_validate(self.definition(values)))
            before = model.model_validate(entry["custom"]).model_dump(mode="json")
        except (ValidationError, KeyError, TypeError):
            return None
        return values if again.get("custom") == before else None

    def edited_entry(
        self, request: Request, session: Session, roster_id: Any, index: Any
    ) -> EditedEntry | None:
        """The row `?liste=&entree=` names, when this browser may edit that list."""
        return edited_entry(self.system, request, session, roster_id, index)

    def target_of(
        self, request: Request, session: Session, roster_id: Any, added: bool = False
    ) -> Target | None:
        """The list `?liste=` names, when this browser holds it and it is of this system."""
        return target_of(self.system, request, session, roster_id, added)

    def errors_of(self, exc: ValidationError) -> dict[str, str]:
        """`exc` as the messages shown beside this system's fields (see `labels`)."""
        return field_errors(exc, labels=self.labels)

    # --- the routes --------------------------------------------------------------------------

    def router(self) -> APIRouter:
        router = APIRouter(prefix=f"/{self.system_id}", include_in_schema=False)
        if self.catalogue_page:
            self._catalogue_route(router)
        if self.creator:
            self._creator_routes(router)
        if self.score:
            self._score_route(router)
        return router

    def _catalogue_route(self, router: APIRouter) -> None:
        @router.get("/catalogue")
        def catalogue(request: Request, session: ReadSessionDep, to: TargetQueryDep) -> Response:
            context = {
                "system": self.system,
                "my_rosters": roster_choices(request, session, self.system_id),
                "target": self.target_of(request, session, to.liste, added=to.added),
                **self.context(),
            }
            return render(request, f"systems/{self.system_id}/catalogue.html", context)

    def _creator_routes(self, router: APIRouter) -> None:
        @router.get("/createur")
        def creator(request: Request, session: ReadSessionDep, opened: CreatorQueryDep) -> Response:
            self.note_book_target(request, session, opened.livre)
            if opened.unite is not None:
                return self.book_unit_page(request, session, opened.unite)
            if opened.entree is None:
                target = self.target_of(request, session, opened.liste, added=opened.added)
                return self.creator_page(request, session, self.default_unit(), target=target)
            edited = self.edited_entry(request, session, opened.liste, opened.entree)
            values = self.reopened(edited.entry) if edited is not None else None
            if edited is None or values is None:
                return html_error(request, 404, GONE)
            return self.creator_page(request, session, values, edited=edited)

        @router.post("/createur")
        def creator_preview(request: Request, session: SessionDep, form: FormDep) -> Response:
            self.note_book_target(request, session, form.get("livre"))
            return self.preview(request, session, form)

        @router.post("/createur/livre")
        def creator_add_to_book(request: Request, session: SessionDep, form: FormDep) -> Response:
            """The creator's unit into the army book it was opened from (kept even when
            invalid: the book shows its issues)."""
            values = self.unit_from_form(form)
            name = str(values.get("name") or form.get("name") or "")
            book_id = str(form.get("livre", ""))
            unit_id = str(form.get("unite", ""))[:64]
            return add_unit_to_book(
                request, session, self.system, book_id, name, self.definition(values), unit_id
            )

        @router.post("/createur/ajouter")
        def creator_add(
            request: Request, session: SessionDep, form: FormDep, chosen: ChosenRoster
        ) -> Response:
            return self.add_created(request, session, form, chosen)

    def add_book_unit(
        self, request: Request, session: Session, form: FormData, pick: BookPick
    ) -> Response:
        """An army book's unit into a list, copied with its origin: the published version
        `pick.code` and the unit's id (api-v1.md « Army books »)."""
        unit = pick.unit
        entry = {
            "custom": unit.definition,
            "name": unit.name,
            "source": {"book": pick.code, "unit": unit.id},
        }
        return add_entry_to_roster(request, session, self.system, form, entry, pick.chosen)

    def book_unit_page(self, request: Request, session: Session, unit_id: str) -> Response:
        """The creator showing one unit of the browser's book (`?livre=&unite=`), to save it
        back over itself; 404 when the book is not this browser's or the creator cannot show
        that unit as it is."""
        book = getattr(request.state, "book_target", None)
        if book is None:
            return html_error(request, 404, GONE_UNIT)
        document = BookService(session, request.app.state.systems).document(book)
        unit = next((u for u in document.units if u.id == unit_id[:64]), None)
        values = None
        if unit is not None:
            values = self.reopened({"custom": unit.definition, "name": unit.name})
        if unit is None or values is None:
            return html_error(request, 404, GONE_UNIT)
        request.state.book_unit = unit
        return self.creator_page(request, session, values)

    def note_book_target(self, request: Request, session: Session, book_id: Any) -> None:
        """Remembers for the page the army book (of this browser, of this system) that
        `?livre=` or the form's `livre` names: the creator then offers « Ajouter au livre »."""
        book = my_book(request, session, str(book_id)) if book_id else None
        request.state.book_target = book if book and book.system == self.system_id else None

    def preview(self, request: Request, session: Session, form: FormData) -> Response:
        edited = None
        if form.get("entree") is not None:
            edited = self.edited_entry(request, session, form.get("liste"), form.get("entree"))
        target = self.target_of(request, session, form.get("roster"))
        values = self.unit_from_form(form)
        return self.creator_page(request, session, values, edited=edited, target=target)

    def add_created(
        self, request: Request, session: Session, form: FormData, chosen: Roster | None
    ) -> Response:
        """The creator's unit added to a list, or saved over the row it was opened from
        (synchronous work: run off the event loop)."""
        edited = None
        if form.get("entree") is not None:
            edited = self.edited_entry(request, session, form.get("liste"), form.get("entree"))
            if edited is None:
                return html_error(request, 404, GONE)
        values = self.unit_from_form(form)
        try:
            unit = self.system.unit_model.model_validate(self.definition(values))
        except ValidationError as exc:
            return self.creator_page(
                request,
                session,
                values,
                status=422,
                errors=self.errors_of(exc),
                edited=edited,
                target=self.target_of(request, session, form.get("roster")),
            )
        entry = self.custom_entry(values, unit)
        if edited is None:
            return add_entry_to_roster(request, session, self.system, form, entry, chosen)
        kept = {k: v for k, v in edited.entry.items() if k not in self.creator_keys}
        replaced = {**kept, **{k: v for k, v in entry.items() if v is not None}}
        try:
            service_of(request, session).replace_entry(edited.roster, edited.index, replaced)
        except (ValidationError, IndexError):
            return html_error(request, 422, "Cette entrée ne tient plus dans la liste.")
        return redirect(request, f"/r/{edited.roster.id}#entry-{edited.index}")

    def _score_route(self, router: APIRouter) -> None:
        score_model: Any = self.system.score_model

        @router.post("/score")
        async def score(request: Request) -> Response:
            form = await request.form()
            context = self.score_context(form)
            status = 200
            try:
                parsed = score_model.model_validate(self.score_from_form(form))
                context["score"] = self.system.score(parsed)
            except ValidationError as exc:
                context["score_error"] = error_text(exc, self.labels)
                status = 422
            template = f"systems/{self.system_id}/score.html"
            if is_htmx(request):
                return render(request, template, context, block="score_result", status=status)
            return render(
                request, "score_page.html", {**context, "score_template": template}, status=status
            )

    def creator_page(
        self,
        request: Request,
        session: Session,
        values: dict[str, Any],
        *,
        status: int = 200,
        errors: dict[str, str] | None = None,
        edited: EditedEntry | None = None,
        target: Target | None = None,
    ) -> Response:
        """The creator with the unit's live cost, or with what is wrong next to the controls."""
        errors = dict(errors or {})
        costed = None
        try:
            costed = self.system.cost(
                self.system.unit_model.model_validate(self.definition(values))
            )
        except ValidationError as exc:
            errors.update(self.errors_of(exc))
            status = 422
        context = {
            "system": self.system,
            "form": values,
            "costed": costed,
            "errors": errors,
            "my_rosters": roster_choices(request, session, self.system_id),
            "editing": edited,
            "target": target,
            "book_target": getattr(request.state, "book_target", None),
            "book_unit": getattr(request.state, "book_unit", None),
            **self.context(),
        }
        template = f"systems/{self.system_id}/creator.html"
        return render(request, template, context, block="result", status=status)


def pages_of(request: Request) -> Mapping[str, SystemPages[Any]]:
    """Each served system's pages, by system id (app.state, set by create_app)."""
    pages: Mapping[str, SystemPages[Any]] = request.app.state.pages
    return pages
