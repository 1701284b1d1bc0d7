"""What every system's catalogue output is made of (GET /api/v1/systems/<id>/catalogue):
items with an id, a name and a kind, the text's examples, Caserne's decisions."""

from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, Field


class ItemOut(BaseModel):
    """What every catalogue item shows: its stable id and its printed name (a subclass adds
    its `kind` and the rest)."""

    id: str
    name: str


class DescribedOut(ItemOut):
    """An item the rule text describes: its text, and the lines it stands on."""

    text: str
    source: str


class PricedOut(DescribedOut):
    """A described item with its price in points."""

    points: int


class DecisionOut(ItemOut):
    """One of Caserne's decisions where a rule text is unclear, as catalogues show it."""

    kind: Literal["decision"] = "decision"
    text: str


DocumentOutT = TypeVar("DocumentOutT", bound=BaseModel)


class ExampleOut(ItemOut, Generic[DocumentOutT]):
    """A list of the rule text (or Caserne's own), as catalogues show it; a system subclasses
    `ExampleOut[ItsRosterBase]` (an OpenAPI name of its own) and may add fields."""

    kind: Literal["exemple"] = "exemple"
    printed_total: int = Field(0, description="The total the text prints (0 without points).")
    source: str = ""
    document: DocumentOutT


ExampleOutT = TypeVar("ExampleOutT", bound=ExampleOut[Any])


class CatalogueOut(BaseModel):
    """What every system's catalogue output starts with; a system adds `system` (its id as
    a Literal) and its own lists."""

    name: str
    rules_version: str
    catalogue_version: str
    notes: list[DecisionOut] = Field(description="Caserne's decisions where the rules are unclear.")
