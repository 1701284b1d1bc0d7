"""Campaign pages: « Après la bataille » (a gang's owner records a battle, several fighters
in one form, from the phone), the gang's public page by its share link, the « Rapport de
bataille » BBCode, a campaign's standings and the page where a player's list joins it."""

from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import RedirectResponse
from pydantic import ValidationError
from sqlmodel import Session

from app.campaigns.ledger import GONE, PROFILE_STATS, LedgerError
from app.campaigns.models import MAX_FIGHTERS, BattleIn, CampaignIn
from app.campaigns.report import RESULTS, STATES, battle_bbcode, fighter_text, french_day
from app.campaigns.service import (
    CampaignFull,
    CampaignService,
    NoSuchCampaign,
    catalogue_figures,
)
from app.db import SessionDep
from app.roster_service import RosterError, StaleVersion, check
from app.store import campaigns as campaign_store
from app.store import rosters as roster_store
from app.store.models import Roster, Share, as_utc
from app.systems.inputs import is_digits
from app.systems.spec import spec_of
from app.urls import public_base
from app.web.deps import (
    EditableRoster,
    FormDep,
    browser_carnet,
    editable,
    my_lists,
    writing_carnet,
)
from app.web.forms import error_text, field_errors
from app.web.render import html_error, render

STATE_LABELS = {
    "active": "actif",
    "recovering": "convalescent",
    "dead": "mort",
    "retired": "retiré",
}
CAMPAIGN_LABELS = {"system": "Système", "name": "Nom", "notes": "Règles de la campagne"}
STALE = (
    "La liste a changé pendant ce temps (un autre appareil ?) : rien n'est enregistré, "
    "vérifiez et recommencez."
)


# The form's names of a battle line's fields (« Après la bataille »).
BATTLE_LABELS = {
    "date": "Date",
    "opponent": "Adversaire",
    "scenario": "Scénario",
    "result": "Résultat",
    "notes": "Notes",
    "corrects": "Corrige la bataille n°",
    "campaign": "Campagne",
    "opponent_roster": "Gang adverse",
    "xp": "XP gagnée",
    "rep": "Nouvelle Rep",
    "state": "État",
    "stat": "Caractéristique",
    "by": "Changement",
    "cause": "Cause",
}
# A fighter's fields in the request, each the suffix of its form control (f{entry}_{field}).
FIGHTER_CONTROLS = frozenset({"xp", "rep", "state", "stat", "by", "cause"})


def figure_prefix(entry: int, figure: int) -> str:
    """The form controls' prefix of figure `figure` (from 1) of entry `entry`: `f{entry}`
    for the first (or only) one, `f{entry}-{figure}` for the others of an entry of several."""
    return f"f{entry}" if figure == 1 else f"f{entry}-{figure}"


def battle_control(body: dict[str, Any], path: Sequence[Any]) -> tuple[str, int | None]:
    """The form control a request path names, and the entry of the fighter it concerns."""
    parts = [str(p) for p in path]
    if len(parts) >= 2 and parts[0] == "fighters" and is_digits(parts[1]):
        fighters = body.get("fighters") or []
        at = int(parts[1])
        entry = fighters[at].get("entry") if at < len(fighters) else None
        field = parts[-1] if parts[-1] in FIGHTER_CONTROLS else ""
        prefixes = body.get("_prefixes") or []
        if isinstance(entry, int):
            prefix = prefixes[at] if at < len(prefixes) else f"f{entry}"
            return (f"{prefix}_{field}" if field else ""), entry
        return "", None
    return (parts[0] if parts else ""), None


def battle_refusal(
    body: dict[str, Any], names: Sequence[str], items: Sequence[tuple[Sequence[Any], str]]
) -> tuple[str, set[str]]:
    """One French line for a refused battle, each problem led by the fighter it concerns,
    and the form controls to mark."""
    said: list[str] = []
    marked: set[str] = set()
    for path, message in items:
        control, entry = battle_control(body, path)
        if control:
            marked.add(control)
        if entry is not None and 0 <= entry < len(names):
            message = f"{names[entry]} — {message}"
        if message not in said:
            said.append(message)
    return " ; ".join(said), marked


def _int(value: Any) -> int | Any:
    text = str(value or "").strip().replace("−", "-")
    if text in ("", "+", "-"):
        return 0
    try:
        return int(text)
    except ValueError:
        return text  # refused by the model, with its field named


def battle_from_form(form: Any, counts: Sequence[int]) -> dict[str, Any]:
    """The « Après la bataille » form as a record_battle body: one row per fighter, and
    for an entry of several figures whose system keeps them apart, one row per figure
    (`counts[i]`: the rows of entry i). The body's `_prefixes` (not sent) name each
    fighter's form controls."""
    fighters = []
    prefixes = []
    rows = 0
    for index, figures in enumerate(counts):
        for figure in range(1, figures + 1):
            rows += 1
            if rows > MAX_FIGHTERS:
                break
            prefix = figure_prefix(index, figure)
            fighter = _fighter_from_form(form, prefix, index)
            if len(fighter) > 1:
                fighters.append(fighter)
                prefixes.append(prefix)
    body: dict[str, Any] = {
        "date": str(form.get("date") or "")[:10],
        "opponent": str(form.get("opponent") or "")[:100],
        "scenario": str(form.get("scenario") or "")[:100],
        "result": str(form.get("result") or "")[:8],
        "notes": str(form.get("notes") or "")[:2000],
        "fighters": fighters,
        "_prefixes": prefixes,
    }
    for key in ("campaign", "opponent_roster"):
        if form.get(key):
            body[key] = str(form.get(key))[:32]
    if form.get("corrects"):
        body["corrects"] = _int(form.get("corrects"))
    return body


def _fighter_from_form(form: Any, prefix: str, index: int) -> dict[str, Any]:
    xp = _int(form.get(f"{prefix}_xp"))
    state = str(form.get(f"{prefix}_state") or "")[:16]
    stat = str(form.get(f"{prefix}_stat") or "").strip()[:16]
    by = _int(form.get(f"{prefix}_by"))
    rep = str(form.get(f"{prefix}_rep") or "").strip()
    fighter: dict[str, Any] = {"entry": index}
    if xp:
        fighter["xp"] = xp
    if state:
        fighter["state"] = state
    if stat and by:
        cause = str(form.get(f"{prefix}_cause") or "")[:100]
        fighter["changes"] = [{"stat": stat, "by": by, "cause": cause}]
    if rep:
        fighter["rep"] = _int(rep)
    return fighter


def figure_rows(document: Mapping[str, Any], apart: bool) -> list[int]:
    """The form's rows for each entry: one per figure when the system keeps figures apart
    (`figures_apart`), else one (bounded: a roster holds at most MAX_FIGHTERS entries)."""
    rows = []
    for entry in list(document.get("entries", []))[:MAX_FIGHTERS]:
        count = entry.get("count", 1) if isinstance(entry, dict) else 1
        many = count if isinstance(count, int) and count > 1 else 1
        rows.append(min(many, MAX_FIGHTERS) if apart else 1)
    return rows


def same_fighter(line_fighter: dict[str, Any], entry: dict[str, Any], index: int) -> bool:
    """A ledger line's fighter is this entry: by its stable id (the entry may have moved
    since), or by its index for a line stored without one."""
    if line_fighter.get("id") is not None:
        return bool(line_fighter["id"] == entry.get("id"))
    return bool(line_fighter["entry"] == index)


# Ledger lines a gang page shows at once (newest first; « Plus anciennes » pages on).
PAGE_LINES = 50


def page_number(request: Request) -> int:
    """The page of ledger lines asked for, bounded where it enters (from 1)."""
    text = str(request.query_params.get("page", "1"))[:4]
    return int(text) if text.isdecimal() and 0 < int(text) <= 100 else 1


def gang_context(
    service: CampaignService,
    roster: Roster,
    *,
    owner: bool = True,
    page: int = 1,
    share: Share | None = None,
) -> dict[str, Any]:
    """The gang as its pages show it: each fighter's numbers and state, the ledger newest
    first (a page of PAGE_LINES), each fighter's own line (XP over time, changes with their
    causes). The ledger is read once; the opponents' list only for the owner's form.
    With `share`: the gang as that share froze it (its document, and the ledger's lines
    up to it), as /s/{code} shows the share."""
    system = service.rosters.system(roster)
    rows = service.lines(roster)
    until = None
    if share is None:
        document = service.rosters.document(roster)
        as_stored = roster.document
    else:
        as_stored = share.snapshot["roster"]
        document = system.roster_model.model_validate(as_stored)
        pinned = (share.snapshot.get("ledger") or {}).get("battle")
        until = as_utc(share.created_at)
        if isinstance(pinned, int):
            rows = [row for row in rows if row.number <= pinned]
        else:
            rows = [row for row in rows if as_utc(row.created_at) <= until]
        until = max([until, *(as_utc(row.created_at) for row in rows)])
    states = service.states(roster, rows, as_stored)
    whole = check(system, document)[0]
    active = check(system, service.active(roster, document, rows))[0]
    entries = document.model_dump(mode="json")["entries"]
    lines = service.battles(roster, rows, as_stored, until=until)
    fighters = []
    # A catalogue fighter's numbers are the catalogue figure's (issue 26.7: « None » XP).
    samples = catalogue_figures(system)
    apart = spec_of(system.id).figures_apart
    figure_count = figure_rows({"entries": entries}, apart)
    for index, (entry, result) in enumerate(zip(entries, whole.entries, strict=True)):
        custom = entry.get("custom") or samples.get(str(entry.get("unit")), {}).get("custom") or {}
        history = [
            (line["battle"], fighter_text(f))
            for line in lines
            for f in line["fighters"]
            if line["recorded_by"] == roster.id and same_fighter(f, entry, index)
        ]
        fighters.append(
            {
                "index": index,
                "name": result.name,
                "rows": figure_count[index],
                "count": int(entry.get("count", 1) or 1),
                "xp": custom.get("xp"),
                "rep": custom.get("rep"),
                "light_wounds": custom.get("light_wounds"),
                "actions": getattr(result.derived, "actions", None),
                "state": states[index] if index < len(states) else "active",
                "gone": index < len(states) and states[index] in GONE,
                "history": history,
            }
        )
    campaigns = [
        {"id": c.id, "name": c.name, "gangs": [{"id": i, "name": n} for i, n in gangs]}
        for c, gangs in (
            campaign_store.opponents(session=service.session, roster_id=roster.id) if owner else []
        )
    ]
    newest = list(reversed(lines))
    pages = max(1, -(-len(newest) // PAGE_LINES))
    page = min(page, pages)
    return {
        "campaigns": campaigns,
        "roster": roster,
        "gang_name": document.name if share is not None else roster.name,  # type: ignore[attr-defined]
        "system": system,
        "fighters": fighters,
        "derived": active.derived,
        "lines": newest[(page - 1) * PAGE_LINES : page * PAGE_LINES],
        "page": page,
        "pages": pages,
        "line_count": len(newest),
        "results": RESULTS,
        "states": STATE_LABELS,
        "report_states": STATES,
        "french_day": french_day,
        "fighter_text": fighter_text,
        "has_xp": system.id == "necrowarzone",
        "has_rep": system.id == "bastos",
        "has_score": system.score_model is not None,
        # A figure's profile can change after a battle (the ledger decides which systems).
        "raises_stats": system.id in PROFILE_STATS,
    }


def router(pages: Mapping[str, Any]) -> APIRouter:
    """`pages`: each system's SystemPages (its score form's fields and labels)."""
    router = APIRouter(include_in_schema=False)

    def service_of(request: Request, session: Session) -> CampaignService:
        return CampaignService(session, request.app.state.systems)

    def gang_page(
        request: Request,
        session: Session,
        roster: Roster,
        error: str = "",
        status: int = 200,
        form: dict[str, Any] | None = None,
        flash: str = "",
        invalid: set[str] | None = None,
    ) -> Response:
        service = service_of(request, session)
        context = gang_context(service, roster, page=page_number(request))
        # The recruit's choice is the editor's « Ajouter » list (the system's add_unit).
        context.update(pages[roster.system].context())
        context.update(
            error=error,
            form=form or {},
            flash=flash,
            owner=True,
            invalid=invalid or set(),
            add={"unit": (form or {}).get("add-unit", ""), "group": (form or {}).get("add-group")},
            doc=roster.document,
            errors={},
        )
        return render(request, "campaign/gang.html", context, status=status)

    @router.get("/r/{roster_id}/campagne")
    def after_battle(roster: EditableRoster, request: Request, session: SessionDep) -> Response:
        flash = {
            "confirmed": "Bataille confirmée.",
            "disputed": "Bataille contestée : elle ne compte plus au classement.",
        }.get(str(request.query_params.get("ok")), "Bataille enregistrée.")
        flash = flash if request.query_params.get("ok") else ""
        return gang_page(request, session, roster, flash=flash)

    @router.post("/r/{roster_id}/campagne")
    def record(
        roster: EditableRoster, request: Request, session: SessionDep, form: FormDep
    ) -> Response:
        service = service_of(request, session)
        apart = spec_of(roster.system).figures_apart
        body = battle_from_form(form, figure_rows(roster.document, apart))
        shown = {k: str(v)[:200] for k, v in form.items() if isinstance(v, str)}
        system = service.rosters.system(roster)
        if system.score_model is not None and form.get("scored"):
            # The system's score form, the same fields as its score page (E.3, No Limits'
            # victory points): the battle's points come from its score engine.
            page = pages[system.id]
            score = page.score_from_form(form)
            try:
                system.score_model.model_validate(score)
            except ValidationError as exc:
                text = "Score : " + error_text(exc, page.labels)
                return gang_page(request, session, roster, text, 422, shown)
            body["score"] = score
        if form.get("recruit"):
            # A fighter recruited or bought: the unit chosen as the editor adds one.
            new = pages[system.id].new_entry(form)
            if new is None:
                text = "Recrue : choisissez-la dans la liste."
                return gang_page(request, session, roster, text, 422, shown, invalid={"add-unit"})
            name = str(form.get("recruit-name") or "").strip()[:81]
            body["recruits"] = [{"count": 1, **new, **({"name": name} if name else {})}]
        names = [e.name for e in check(system, service.rosters.document(roster))[0].entries]
        try:
            parsed = BattleIn.model_validate({k: v for k, v in body.items() if k != "_prefixes"})
            service.record(roster, int(str(form.get("version") or 0)[:9] or 0), parsed)
        except ValidationError as exc:
            errors = field_errors(exc, labels=BATTLE_LABELS)
            items = [(key.split("."), text) for key, text in errors.items() if "." in key]
            items += [([key], text) for key, text in errors.items() if "." not in key]
            items = [(p, t) for p, t in items if p[0] != "fighters" or len(p) > 2]
            text, marked = battle_refusal(body, names, items)
            return gang_page(request, session, roster, text, 422, shown, invalid=marked)
        except LedgerError as exc:
            text, marked = battle_refusal(body, names, [(exc.path, str(exc))])
            return gang_page(request, session, roster, text, 422, shown, invalid=marked)
        except ValueError:  # a version that is no number
            return gang_page(request, session, roster, STALE, 422, shown)
        except StaleVersion:
            session.refresh(roster)
            return gang_page(request, session, roster, STALE, 409, shown)
        return RedirectResponse(f"/r/{roster.id}/campagne?ok=1", status_code=303)

    @router.post("/r/{roster_id}/campagne/verdict")
    def give_verdict(
        roster: EditableRoster, request: Request, session: SessionDep, form: FormDep
    ) -> Response:
        """The gang's owner confirms or disputes a line another gang recorded against it."""
        said = str(form.get("verdict") or "")
        number = str(form.get("battle") or "")[:7]
        if said not in ("confirmed", "disputed") or not number.isdecimal():
            return gang_page(request, session, roster, "Choisissez Confirmer ou Contester.", 422)
        service = service_of(request, session)
        try:
            service.verdict(roster, str(form.get("recorded_by") or "")[:32], int(number), said)
        except LedgerError as exc:
            return gang_page(request, session, roster, str(exc), 422)
        return RedirectResponse(f"/r/{roster.id}/campagne?ok={said}", status_code=303)

    @router.get("/campagne/gang/{code}")
    def public_gang(code: str, request: Request, session: SessionDep) -> Response:
        shared = roster_store.get_share(session=session, code=code[:16])
        if shared is None or shared.roster_id is None:
            return html_error(request, 404, "Ce lien ne mène à aucun gang.")
        service = service_of(request, session)
        try:
            roster = service.rosters.get(shared.roster_id)
            owner = editable_or_none_safe(request, session, roster.id)
            page = page_number(request)
            context = gang_context(service, roster, owner=owner, page=page, share=shared)
        except RosterError:
            return html_error(request, 404, "Ce gang n'existe plus.")
        context.update(error="", form={}, flash="", owner=owner, code=code)
        return render(request, "campaign/gang.html", context)

    @router.get("/campagne/rapport/{code}.bbcode")
    def report(code: str, request: Request, session: SessionDep) -> Response:
        service = service_of(request, session)
        shared = roster_store.get_share(session=session, code=code[:16])
        roster = None
        if shared is not None and shared.roster_id is not None:
            roster = roster_store.get_roster(session=session, roster_id=shared.roster_id)
        if roster is None or roster.system not in service.systems:
            return html_error(request, 404, "Ce rapport n'existe pas.")
        row = campaign_store.line_by_share(session=session, roster_id=roster.id, code=code)
        if row is None:
            return html_error(request, 404, "Ce rapport n'existe pas.")
        line = service.line(roster, row)
        url = f"{public_base(request)}/campagne/gang/{code}"
        text = battle_bbcode(roster.name or "Gang sans nom", line, url)
        return Response(text, media_type="text/plain; charset=utf-8")

    def new_form(
        request: Request,
        form: dict[str, str] | None = None,
        errors: dict[str, str] | None = None,
        status: int = 200,
    ) -> Response:
        systems = request.app.state.systems
        return render(
            request,
            "campaign/new.html",
            {"systems": systems, "form": form or {}, "errors": errors or {}},
            status=status,
        )

    @router.get("/campagnes/nouvelle")
    def new_campaign(request: Request) -> Response:
        chosen = str(request.query_params.get("systeme", ""))[:32]
        return new_form(request, {"system": chosen})

    @router.post("/campagnes/nouvelle")
    def create_campaign(request: Request, session: SessionDep, form: FormDep) -> Response:
        """An organiser creates a campaign from the pages: it goes in this browser's carnet
        and the page gives the link players join by (its code is shown this once)."""
        # Bounded where it enters, past the model's own bounds so that they refuse it.
        shown = {k: str(form.get(k) or "")[:4001] for k in ("system", "name", "notes")}
        body = {k: v.strip() for k, v in shown.items()}
        try:
            parsed = CampaignIn.model_validate(body)
        except ValidationError as exc:
            return new_form(request, shown, field_errors(exc, labels=CAMPAIGN_LABELS), 422)
        service = service_of(request, session)
        if parsed.system not in service.systems:
            return new_form(request, shown, {"system": "Système : choisissez-en un."}, 422)
        carnet = writing_carnet(request, session)
        campaign, _token, join_code = service.create(parsed, carnet)
        base = public_base(request)
        return render(
            request,
            "campaign/created.html",
            {
                "campaign": campaign,
                "system": service.systems[campaign.system],
                "join_url": f"{base}/c/{campaign.id}/rejoindre?code={join_code}",
                "url": f"{base}/c/{campaign.id}",
            },
            status=201,
        )

    def organiser_of(request: Request, session: Session, campaign: Any) -> bool:
        carnet = browser_carnet(request, session)
        return carnet is not None and campaign_store.is_organiser(
            session=session, carnet_id=carnet.id, campaign_id=campaign.id
        )

    def campaign_view(
        request: Request,
        session: Session,
        campaign_id: str,
        flash: str = "",
        error: str = "",
        status: int = 200,
    ) -> Response:
        service = service_of(request, session)
        try:
            campaign = service.get(campaign_id)
        except NoSuchCampaign:
            return html_error(request, 404, "Cette campagne n'existe pas.")
        view = service.view(campaign)
        system = service.systems[campaign.system]
        context: dict[str, Any] = {
            "campaign": view,
            "system": system,
            "has_points": system.score_model is not None,
            "organiser": False,
            "flash": flash,
            "error": error,
        }
        organiser = organiser_of(request, session, campaign)
        if organiser:
            # The organiser's page: the join link again, a new one on demand, and the
            # campaign's battles (a page of PAGE_LINES) to void.
            page = page_number(request)
            lines, total = campaign_store.recent_lines(
                session=session,
                campaign_id=campaign.id,
                offset=(page - 1) * PAGE_LINES,
                limit=PAGE_LINES,
            )
            names = {g["roster"]: g["name"] for g in view["gangs"]}
            base = public_base(request)
            code = campaign.join_code
            context.update(
                organiser=True,
                join_url=f"{base}/c/{campaign.id}/rejoindre?code={code}" if code else "",
                join_hash=campaign.join_hash,
                lines=lines,
                names=names,
                page=page,
                pages=max(1, -(-total // PAGE_LINES)),
                results=RESULTS,
                french_day=french_day,
            )
        response = render(request, "campaign/campaign.html", context, status=status)
        if organiser:
            response.headers["Cache-Control"] = "private, no-store"
        return response

    @router.get("/c/{campaign_id}")
    def campaign_page(campaign_id: str, request: Request, session: SessionDep) -> Response:
        flash = {
            "lien": "Nouveau lien d'invitation : l'ancien ne fait plus rejoindre.",
            "annulee": "Bataille annulée : elle reste affichée et ne compte plus.",
        }.get(str(request.query_params.get("ok", "")), "")
        return campaign_view(request, session, campaign_id, flash)

    @router.post("/c/{campaign_id}/invitation")
    def new_invitation(
        campaign_id: str, request: Request, session: SessionDep, form: FormDep
    ) -> Response:
        """The organiser makes a new join link (the old one stops working); of a
        double-click, one click changes it (compare-and-swap on the code shown)."""
        service = service_of(request, session)
        try:
            campaign = service.get(campaign_id)
        except NoSuchCampaign:
            return html_error(request, 404, "Cette campagne n'existe pas.")
        if not organiser_of(request, session, campaign):
            return html_error(request, 403, "Seul l'organisateur de la campagne le peut.")
        expected = str(form.get("current") or "")[:64]
        campaign_store.new_join_code(session=session, campaign=campaign, expected_hash=expected)
        return RedirectResponse(f"/c/{campaign.id}?ok=lien", status_code=303)

    @router.post("/c/{campaign_id}/annuler")
    def void_line(
        campaign_id: str, request: Request, session: SessionDep, form: FormDep
    ) -> Response:
        """The organiser voids a battle of the campaign (it stays shown, counts nowhere)."""
        service = service_of(request, session)
        try:
            campaign = service.get(campaign_id)
        except NoSuchCampaign:
            return html_error(request, 404, "Cette campagne n'existe pas.")
        if not organiser_of(request, session, campaign):
            return html_error(request, 403, "Seul l'organisateur de la campagne le peut.")
        number = str(form.get("battle") or "")[:7]
        try:
            if not number.isdecimal():
                raise LedgerError("no_such_battle", "Choisissez une bataille.", ["battle"])
            service.void(campaign, str(form.get("recorded_by") or "")[:32], int(number))
        except LedgerError as exc:
            return campaign_view(request, session, campaign.id, error=str(exc), status=422)
        return RedirectResponse(f"/c/{campaign.id}?ok=annulee", status_code=303)

    @router.get("/c/{campaign_id}/rejoindre")
    def join_page(campaign_id: str, request: Request, session: SessionDep) -> Response:
        return join_form(
            request, session, campaign_id, str(request.query_params.get("code", ""))[:200]
        )

    def join_form(
        request: Request,
        session: Session,
        campaign_id: str,
        code: str,
        error: str = "",
        status: int = 200,
    ) -> Response:
        service = service_of(request, session)
        try:
            campaign = service.get(campaign_id)
        except NoSuchCampaign:
            return html_error(request, 404, "Cette campagne n'existe pas.")
        lists = my_lists(request, session, campaign.system)
        return render(
            request,
            "campaign/join.html",
            {"campaign": campaign, "lists": lists, "code": code, "error": error},
            status=status,
        )

    @router.post("/c/{campaign_id}/rejoindre")
    def join(campaign_id: str, request: Request, session: SessionDep, form: FormDep) -> Response:
        service = service_of(request, session)
        code = str(form.get("code") or "")[:200]
        try:
            campaign = service.get(campaign_id)
        except NoSuchCampaign:
            return html_error(request, 404, "Cette campagne n'existe pas.")
        if not campaign_store.join_matches(campaign, code):
            return join_form(
                request,
                session,
                campaign_id,
                code,
                "Ce lien d'invitation n'est pas celui de cette campagne.",
                403,
            )
        try:
            roster = editable(request, session, str(form.get("roster") or "")[:64])
        except RosterError:
            return join_form(
                request, session, campaign_id, code, "Choisissez une de vos listes.", 422
            )
        if roster.system != campaign.system:
            return join_form(
                request,
                session,
                campaign_id,
                code,
                "Cette liste est d'un autre système de jeu.",
                422,
            )
        try:
            service.join_held(campaign, roster)
        except CampaignFull:
            return join_form(
                request, session, campaign_id, code, "Cette campagne est complète.", 409
            )
        return RedirectResponse(f"/c/{campaign.id}", status_code=303)

    return router


def editable_or_none_safe(request: Request, session: Session, roster_id: str) -> bool:
    try:
        editable(request, session, roster_id)
    except RosterError:
        return False
    return True
