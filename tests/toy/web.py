"""The toy's pages: its catalogue, its figure creator (live cost) and its score form."""

from collections.abc import Mapping
from typing import Any, ClassVar

from starlette.datastructures import FormData

from app.web.forms import form_text, int_or_raw
from app.web.system_pages import SystemPages

from . import ToySystem


class ToyPages(SystemPages[ToySystem]):
    labels: ClassVar[Mapping[str, str]] = {
        "strength": "Force",
        "knocked_over": "Figurines renversées",
        "flag": "Drapeau",
    }

    lookups = ("units",)

    def catalogue_context(self, cat: Any) -> dict[str, Any]:
        return {"per_strength": self.engine.data.pricing.per_strength}

    def default_unit(self) -> dict[str, Any]:
        return {"name": "", "strength": 3}

    def unit_from_form(self, form: FormData) -> dict[str, Any]:
        return {"name": form_text(form, "name"), "strength": int_or_raw(form.get("strength"))}

    def definition(self, values: dict[str, Any]) -> dict[str, Any]:
        return {"strength": values["strength"]}

    def values_from_entry(self, entry: dict[str, Any]) -> dict[str, Any] | None:
        return {"name": entry.get("name") or "", "strength": entry["custom"].get("strength")}

    def score_from_form(self, form: FormData) -> dict[str, Any]:
        return {
            "knocked_over": int_or_raw(form.get("knocked_over")) or 0,
            "flag": bool(form.get("flag")),
        }
