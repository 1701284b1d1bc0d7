"""The carnet on another device: its link (`/carnet/{id}`: open, merge or switch), a new
key (`/listes/carnet/cle`) and « Oublier ce carnet sur cet appareil »
(`/listes/carnet/oublier`). « Mes listes » itself is app/web/library.py."""

import re
from typing import Any

from fastapi import APIRouter, Request, Response
from sqlmodel import Session
from starlette.datastructures import FormData

from app.carnet_service import CarnetError, CarnetFull, CarnetService, parse_cookie
from app.db import SessionDep
from app.security.cookies import CARNET_COOKIE
from app.store.models import Carnet
from app.store.rosters import new_token
from app.web.deps import BrowserCarnet, browser, drop_carnet, my_lists, switch_to
from app.web.forms import with_form
from app.web.library import FULL, REVOKED, back, carnet_link, no_store
from app.web.render import html_error, render

router = APIRouter(include_in_schema=False)

# What « Oublier ce carnet sur cet appareil » clears (a shared computer left clean).
FORGET = b'"cache", "cookies", "storage"'
# A key the rotation's confirmation drew (`new_token()`: 32 bytes, URL-safe base64).
NEW_KEY = re.compile(r"[A-Za-z0-9_-]{43}")


def confirm_rotation(request: Request, carnet: Carnet | None) -> Response:
    """The page that asks before a key change; the new key is drawn now and travels in
    its form, so that a double-click (two POSTs, the first one's answer lost with its
    new cookie) changes the key once and leaves the browser holding it."""
    if carnet is None:
        return no_store(html_error(request, 403, "Ce navigateur n'a pas de carnet."))
    return no_store(render(request, "carnet/rotate.html", {"new_key": new_token()}))


@router.get("/listes/carnet/cle")
def ask_rotation(request: Request, carnet: BrowserCarnet) -> Response:
    return confirm_rotation(request, carnet)


def rotate(request: Request, session: Session, form: FormData) -> Response:
    """A new key, once confirmed: the old link (and every browser still holding the old
    key) opens nothing any more; this browser keeps the carnet with the new key."""
    held = browser(request, session)
    key = str(form.get("cle") or "")
    if form.get("confirm") != "oui" or not NEW_KEY.fullmatch(key):
        return confirm_rotation(request, held.carnet)
    service = CarnetService(session)
    carnet = held.carnet
    if carnet is None:
        # The same confirmation posted twice: the first changed the key to this one.
        sent = parse_cookie(request.cookies.get(CARNET_COOKIE))
        try:
            carnet = service.open(sent[0], key) if sent else None
        except CarnetError:
            carnet = None
        if carnet is None:
            return no_store(html_error(request, 403, REVOKED))
    else:
        try:
            service.rotate(carnet, key)
        except CarnetError:
            # Changed at once by another request: this one's confirmation, posted twice
            # at the same moment, or another device's (then this browser is out).
            try:
                carnet = service.open(carnet.id, key)
            except CarnetError:
                drop_carnet(request)
                return no_store(html_error(request, 403, REVOKED))
    switch_to(request, carnet, key)
    return back(
        request,
        "ok",
        "Nouvelle clé : l'ancien lien du carnet n'ouvre plus rien, ni les appareils qui "
        "l'avaient ouvert. Le nouveau lien est ci-dessous.",
        "#carnet",
    )


router.add_api_route("/listes/carnet/cle", with_form(rotate), methods=["POST"])


@router.get("/listes/carnet/oublier")
def ask_forget(request: Request, session: SessionDep) -> Response:
    """« Oublier ce carnet sur cet appareil » (a shared computer): asks first, with the
    carnet's link to keep (the only way back to its lists afterwards)."""
    held = browser(request, session)
    link = carnet_link(request, held.carnet, held.key or "") if held.carnet else None
    return no_store(render(request, "carnet/forget.html", {"link": link, "done": False}))


def forget(request: Request, session: Session, form: FormData) -> Response:
    """This browser forgets its carnet: the cookie, and with `Clear-Site-Data` every
    page, cookie and storage of the site it kept (the service worker's copies too)."""
    if form.get("confirm") != "oui":
        return ask_forget(request, session)
    drop_carnet(request, FORGET)
    return no_store(render(request, "carnet/forget.html", {"link": None, "done": True}))


router.add_api_route("/listes/carnet/oublier", with_form(forget), methods=["POST"])


@router.get("/carnet/{carnet_id}")
def open_carnet(carnet_id: str, request: Request, session: SessionDep, t: str = "") -> Response:
    """The carnet link asks, and only its form (a POST, with the CSRF token) opens the
    carnet in this browser: a GET never switches a carnet (issue 25: a page on another
    site could send a browser to the attacker's link, whose carnet would then have
    received the lists the victim made next). A browser that holds its own carnet is
    asked whether to merge the two or to switch, with its own carnet's link shown."""
    try:
        opened = CarnetService(session).open(carnet_id[:64], t[:200] or None)
    except CarnetError:
        return no_store(html_error(request, 403, REVOKED))
    held = browser(request, session)
    if held.carnet is not None and held.carnet.id == opened.id:
        return back(request, "ok", "Ce carnet est déjà celui de ce navigateur.")
    context: dict[str, Any] = {
        "carnet_id": opened.id,
        "key": t,
        "theirs": len(CarnetService(session).rosters(opened)),
        "mine": None,
    }
    if held.carnet is not None:
        context["mine"] = len(my_lists(request, session))
        context["mine_link"] = carnet_link(request, held.carnet, held.key or "")
    return no_store(render(request, "carnet/open.html", context))


def choose(request: Request, session: Session, form: FormData) -> Response:
    carnet_id = str(request.path_params["carnet_id"])[:64]
    key = str(form.get("t") or "")[:200]
    service = CarnetService(session)
    try:
        opened = service.open(carnet_id, key or None)
    except CarnetError:
        return no_store(html_error(request, 403, REVOKED))
    mine = browser(request, session).carnet
    choice = form.get("choix")
    if choice not in ("ouvrir", "fusionner", "changer"):
        return html_error(request, 422, "Choisissez : réunir les deux carnets, ou changer.")
    text = "Carnet ouvert dans ce navigateur."
    if mine is not None and mine.id != opened.id and choice == "ouvrir":
        # A browser that has its own carnet must say which (merge or switch).
        return html_error(request, 422, "Choisissez : réunir les deux carnets, ou changer.")
    if choice == "fusionner" and mine is not None and mine.id != opened.id:
        try:
            moved = service.merge(mine, opened)
        except CarnetFull:
            return html_error(request, 409, FULL)
        text = f"Carnets réunis : {moved} liste(s) de ce navigateur ajoutée(s)."
    switch_to(request, opened, key)
    return back(request, "ok", text)


router.add_api_route("/carnet/{carnet_id}", with_form(choose), methods=["POST"])
