"""The OpenAPI fuzz's probing logic: the whole OpenAPI surface under schemathesis, every
generated request getting an answer that matches the document (status, content type, body
schema, and every header it carries declared) and never a 500; every problem's first code
is a documented one (issue 28). The roster routes are reached with a stored roster and its
edit token (issue 13, finding 7: random ids and tokens only ever met 401/404), the carnet
routes (the carnet file's export and import among them) with a stored carnet and its key;
the app has no rate limits (a 429 where the document expects a 401 was a flake).

The operations are fuzzed in parts, one test file a part (test_fuzz_*.py beside this one),
so that the parallel workers share them: as one test, the fuzz was the suite's long pole
(issue 27). Every operation is in exactly one part (`part_of`), with the same settings and
checks as the one test had; the fixtures are in conftest.py.
"""

import json
from collections.abc import Callable
from dataclasses import fields
from functools import cache
from typing import Any
from urllib.parse import urlsplit

import jsonschema_rs
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig
from schemathesis.core.parameters import ParameterLocation
from schemathesis.specs.openapi.checks import (
    ignored_auth,
    negative_data_rejection,
    positive_data_acceptance,
)

from app.security.ratelimit import Limits
from app.settings import ROOT, Settings
from tests.api.test_openapi_headers import TRANSPORT
from tests.api.test_problem_codes import is_documented
from tests.conftest import ON_POSTGRES

NO_LIMITS = {f"rate_limit_{kind.name}": "" for kind in fields(Limits)}
ROSTER = {"system": "dcsystem", "name": "Fuzz", "entries": [{"unit": "jaffa", "count": 2}]}

# import_carnet's body is a whole carnet file (every system's documents, books and ledger
# lines): the coverage phase made 12,300 bodies of it, each sent to carnet `0` and
# answered 404 before its body was read (5 minutes of the run, nothing learnt); its cases
# come from the fuzzing phase, on the test's carnet.
# The coverage phase's negative cases (three quarters of its cases: each field of each
# system's document made wrong in turn, some 3,400 for create_roster alone) are refused by
# validation: nothing they do on the database (the lookups before it) is not done by the
# positive cases too, and their answers are the same on both. The PostgreSQL run sends the
# coverage phase's positive cases, which reach the store, and not its negative ones again
# (issue 27: they were a third of the PostgreSQL run's fuzz); the SQLite run sends them
# all, and the fuzzing phase both kinds on both databases.
POSTGRES_COVERAGE = {"phases": {"coverage": {"generation": {"mode": "positive"}}}}
CONFIG = SchemathesisConfig.from_dict(
    {
        **(POSTGRES_COVERAGE if ON_POSTGRES else {}),
        "operations": [
            {"include-operation-id": "import_carnet", "phases": {"coverage": {"enabled": False}}}
        ],
    }
)


schema = schemathesis.pytest.from_fixture("api_schema")
# Checks that cannot hold on one operation, and why:
EXCUSED = {
    # The body schema is any system's document: one of another system than the stored
    # roster's is schema-valid and a documented 422 (api-v1.md keeps a roster's system).
    "replace_roster": [positive_data_acceptance],
    # A book whose unit ids repeat is schema-valid (JSON Schema cannot say "unique by id")
    # and a documented 422 (api-v1.md « Army books »: ids unique within the book).
    "create_book": [positive_data_acceptance],
    "replace_book": [positive_data_acceptance],
    # A schema-valid battle line the gang's ledger refuses: a fighter index the gang lacks, XP
    # lost outside a correction, a stat its system does not change, a score body of another
    # system (the document types `score` and `recruits` as every system's, issue 28): a
    # documented 422 with the ledger's code; JSON Schema cannot know the stored roster.
    "record_battle": [positive_data_acceptance],
    # A text is free: JSON Schema cannot say « a list that can be read » (an empty text, a
    # list of no system), and such a text is a documented 422 (api-v1.md « Import »).
    "import_roster_text": [positive_data_acceptance],
    # A line another gang recorded is named by its path (recorded_by, battle): a
    # schema-valid path names no line against the stored roster, a documented 422 (« No
    # such line against this gang, or voided »). Met once the fuzz ran in parts: in one
    # test, delete_roster had deleted the stored roster before this operation came.
    "give_verdict": [positive_data_acceptance],
    # Once the first case deleted the roster, the check's own requests without a token meet
    # a roster that is no more: 404, as documented, not the 401 it expects.
    "delete_roster": [ignored_auth],
}
# The edit token of the roster the current test stored (set by conftest.py's `stored`).
TOKEN: dict[str, str] = {}
# The id and key of the carnet the current test made (set by conftest.py's `carnet`).
CARNET: dict[str, str] = {}


@schema.auth().apply_to(path_regex=r"^/api/v1/rosters/")
class EditToken:
    """The security scheme's bearer: the stored roster's token. Schemathesis also sends
    requests without it or with a wrong one, and checks that they get 401/403."""

    def get(self, case: schemathesis.Case, context: Any) -> str:
        return TOKEN["token"]

    def set(self, case: schemathesis.Case, data: str, context: Any) -> None:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}


@schema.auth(refresh_interval=None).apply_to(path_regex=r"^/api/v1/carnets/")
class CarnetKeyAuth:
    """The carnet's key, read at each case (rotate_carnet_key's cases change it)."""

    def get(self, case: schemathesis.Case, context: Any) -> str:
        return CARNET["key"]

    def set(self, case: schemathesis.Case, data: str, context: Any) -> None:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}


def operation_id(operation: Any) -> str:
    return str(operation.definition.raw["operationId"])


# The parts, each a test file: an operation is in the first part whose test holds. Sized
# so that no part takes more than about a fifth of the whole (create_roster, replace_roster,
# add_carnet_roster, record_battle and nolimits_validate are the costly operations).
PARTS: dict[str, Callable[[Any], bool]] = {
    "create_roster": lambda operation: operation_id(operation) == "create_roster",
    "carnets": lambda operation: "carnets" in (operation.tags or []),
    "rosters": lambda operation: "rosters" in (operation.tags or []),
    "campaigns": lambda operation: "campaigns" in (operation.tags or []),
    "books": lambda operation: "books" in (operation.tags or []),
    "systems": lambda operation: operation.path.startswith("/api/v1/systems"),
    # Imports, exports, schemas and whatever comes next.
    "other": lambda operation: True,
}


def part_of(operation: Any) -> str:
    return next(name for name, holds in PARTS.items() if holds(operation))


def conformance_test(part: str) -> Callable[..., None]:
    """The fuzz of the operations of one part of `PARTS`: each operation a subtest."""
    assert part in PARTS, part

    def in_part(context: Any) -> bool:
        return part_of(context.operation) == part

    @schema.include(in_part).parametrize()
    @settings(
        max_examples=25,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    def test(case: schemathesis.Case, stored: dict[str, Any]) -> None:
        conforms(case, stored)

    return test


def conforms(case: schemathesis.Case, stored: dict[str, Any]) -> None:
    """Sends `case` and checks the answer against the document."""
    parameters = case.path_parameters or {}
    # Most cases on the stored roster and carnet; a few on the id generated (a 404 is
    # documented).
    if "roster_id" in parameters and not parameters["roster_id"].startswith("0"):
        parameters["roster_id"] = stored["id"]
    if "carnet_id" in parameters and not parameters["carnet_id"].startswith("0"):
        parameters["carnet_id"] = CARNET["id"]
    operation = operation_id(case.operation)
    excused = list(EXCUSED.get(operation, []))
    if negative_body_made_valid(case) or a_carnet_file(operation, case.body):
        excused.append(negative_data_rejection)
    if repeats_entry_ids(case.body) or weak_if_match(case):
        excused.append(positive_data_acceptance)
    response = case.call()
    if operation == "rotate_carnet_key" and response.status_code == 200:
        CARNET["key"] = response.json()["key"]
    if beyond_free_json_bounds(response):
        excused.append(positive_data_acceptance)
    if response.status_code == 412 and weak_if_match(case):
        # Refused by its precondition before its body is read: a rejection of a negative
        # body too, though not one of the statuses schemathesis counts as such (CI met it
        # on record_battle: a body with a wrong type and `If-Match: W/"939275"`, 412).
        excused.append(negative_data_rejection)
    if response.status_code == 414:
        # app/middleware.py refuses a query string over its bound before any route reads
        # it (documented on every operation, test_openapi_fuzz.py): a rejection, whatever
        # the schema says of its values (the fuzz found one: 60 `share` values, 3 December).
        sent = urlsplit(str(response.request.url)).query
        assert len(sent.encode()) > Settings().max_query_bytes
        return
    if response.status_code == 413:
        # A body over MAX_BODY_BYTES is refused before it is read (documented `413` on every
        # body route): a carnet file's 2,000 gangs of hundreds of lines each can weigh 14 MB.
        assert len(response.request.body or b"") > Settings().max_body_bytes
        return
    case.validate_response(
        response,
        additional_checks=[declared_headers, documented_code],
        excluded_checks=excused,
    )


def declared_headers(ctx: Any, response: Any, case: schemathesis.Case) -> bool | None:
    """Every header of the answer is declared for its status (HTTP's own aside). A status
    the operation does not declare is status_code_conformance's to report, and a method it
    does not have (schemathesis' TRACE, answered 405 with Allow) unsupported_method's."""
    declared = case.operation.definition.raw["responses"].get(str(response.status_code))
    if declared is None or response.request.method != case.operation.method.upper():
        return None
    names = {name.lower() for name in declared.get("headers", {})}
    extra = {name.lower() for name in response.headers} - TRANSPORT - names
    assert not extra, f"{response.status_code}: undeclared headers {sorted(extra)}"
    return None


def documented_code(ctx: Any, response: Any, case: schemathesis.Case) -> bool | None:
    """A 4xx or 5xx problem names its error by a code docs/api-codes.md lists."""
    if (
        response.status_code < 400
        or "problem+json" not in response.headers.get("content-type", [""])[0]
    ):
        return None
    errors = json.loads(response.content)["errors"]
    assert errors, f"{response.status_code}: a problem with no errors"
    assert is_documented(errors[0]["code"]), errors[0]
    return None


@cache
def file_format() -> Any:
    """The carnet file's own JSON Schema (docs/carnet-file.schema.json)."""
    return jsonschema_rs.validator_for(
        json.loads((ROOT / "docs" / "carnet-file.schema.json").read_text(encoding="utf-8"))
    )


def a_carnet_file(operation_id: str, body: Any) -> bool:
    """A body the document refuses that the file format takes: the document types a carnet
    file's documents, units and lines as this server's systems' (issue 28), while a file
    may hold lists of another server or of an older catalogue, which are taken and skipped
    one by one (docs/carnet-file.md), never the whole file refused."""
    if operation_id != "import_carnet" or not isinstance(body, dict):
        return False
    return bool(file_format().is_valid(body))


# app/systems/inputs.py free_json_refusal: what no JSON Schema of an open object can bound.
FREE_JSON_BOUNDS = {"json_too_deep", "int_too_large", "finite_number", "invalid_text"}


def beyond_free_json_bounds(response: Any) -> bool:
    """A schema-valid body refused for what its free parts hold: an integer beyond 2**53 in
    a unit definition's key the model does not name, nesting past 16 levels, a lone
    surrogate. JSON Schema says none of it; each is a documented 422 (docs/api-codes.md).
    A run met an integer beyond 2**53 in a carnet file's book unit."""
    if response.status_code != 422:
        return False
    errors = json.loads(response.content).get("errors") or [{}]
    return errors[0].get("code") in FREE_JSON_BOUNDS


def weak_if_match(case: schemathesis.Case) -> bool:
    """A weak If-Match (`W/"3"`) is schema-valid — the header's pattern reads it, to answer
    it 412 rather than 422 — and a documented 412 (RFC 9110: If-Match compares strongly).
    A run over the history routes met it on restore_roster_version."""
    sent = {k.lower(): v for k, v in (case.headers or {}).items()}.get("if-match")
    return isinstance(sent, str) and sent.strip().startswith("W/")


def repeats_entry_ids(body: Any) -> bool:
    """A list whose entries repeat a stable id (issue 17: a fighter's identity in the
    ledger) is schema-valid — JSON Schema cannot say « unique by id » — and a documented
    422, as a book's repeated unit ids are."""
    entries = body.get("entries") if isinstance(body, dict) else None
    if not isinstance(entries, list):
        return False
    ids = [e["id"] for e in entries if isinstance(e, dict) and isinstance(e.get("id"), str)]
    return len(ids) != len(set(ids))


def negative_body_made_valid(case: schemathesis.Case) -> bool:
    """A case generated negative in its body alone whose body the document accepts:
    schemathesis decides « negative » at generation, and its shrinker can remove the only
    invalid part (schemathesis#4332). CI met `{"rep": 7, "test": "end_of_game_recovery"}`
    on bastos_odds, a valid query (Rep 0-10, a table id), reported as negative data
    accepted. Checked against the document itself, so a really negative body still counts."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_negative:
        return False
    negative = [where for where, part in meta.components.items() if part.mode.is_negative]
    if negative != [ParameterLocation.BODY]:
        return False
    return body_is_valid(case.operation, case.body)


def body_is_valid(operation: Any, body: Any) -> bool:
    """Whether the document's JSON Schema for the operation's body accepts `body`."""
    if not isinstance(body, (dict, list, str, int, float)):
        return False
    validator = body_validator(operation)
    return validator is not None and bool(validator.is_valid(body))


# Compiled once per operation of a document (the schema's components are every system's
# documents: compiling them for each case was 40% of the fuzz's CPU). Keyed by the
# operation's label, kept only while the document is the same object (each test loads its
# own from its app).
BODY_VALIDATORS: dict[str, tuple[object, jsonschema_rs.Validator | None]] = {}


def body_validator(operation: Any) -> jsonschema_rs.Validator | None:
    """The validator of the document's JSON Schema for the operation's body, if it has one."""
    document = operation.schema.raw_schema
    known = BODY_VALIDATORS.get(operation.label)
    if known is not None and known[0] is document:
        return known[1]
    content = operation.definition.raw.get("requestBody", {}).get("content", {})
    body_schema = content.get("application/json", {}).get("schema")
    validator = None
    if body_schema is not None:
        components = document.get("components", {})
        validator = jsonschema_rs.Draft202012Validator({**body_schema, "components": components})
    BODY_VALIDATORS[operation.label] = (document, validator)
    return validator
