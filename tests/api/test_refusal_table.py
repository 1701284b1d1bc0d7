"""The one refusal table (app/refusals.py) answers every refusal the roster, book and carnet
services, the campaigns and the page dependencies raise: each has its own row (none falls
through to a catch-all or to a 500)."""

import inspect
from types import ModuleType

import pytest

from app import book_service, carnet_service, roster_service
from app.campaigns import errors as campaign_errors
from app.campaigns import ledger
from app.refusals import TABLE, page_text
from app.roster_service import Refusal
from app.security import cookies

MODULES = (roster_service, book_service, carnet_service, cookies, campaign_errors, ledger)


def refusals(module: ModuleType) -> list[type[Refusal]]:
    return [
        kind
        for _name, kind in inspect.getmembers(module, inspect.isclass)
        if issubclass(kind, Refusal) and kind is not Refusal and kind.__module__ == module.__name__
    ]


@pytest.mark.parametrize("module", MODULES, ids=lambda module: module.__name__)
def test_every_refusal_has_its_row(module: ModuleType) -> None:
    listed = {kind for kind, _answer in TABLE}
    found = refusals(module)
    assert found, module.__name__
    assert [kind.__name__ for kind in found if kind not in listed] == []


def test_a_book_of_another_carnet_is_a_404_page() -> None:
    assert page_text(book_service.NotYourBook("b")) == (
        404,
        "Ce livre d'armée n'est pas dans le carnet de ce navigateur.",
    )
