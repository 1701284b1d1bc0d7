"""The OpenAPI document as the API really answers: every 4xx is problem+json."""

import re
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from app.exports.tts import TtsExport
from app.security.routes import may_be_limited

PROBLEM_REF = {"$ref": "#/components/schemas/Problem"}


def install(app: FastAPI, request_models: Sequence[type[BaseModel]]) -> None:
    """`request_models`: bodies that routes parse themselves, documented by reference."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(
                title=app.title, version=app.version, summary=app.summary, routes=app.routes
            )
            _, definitions = models_json_schema(
                [(model, "validation") for model in request_models],
                ref_template="#/components/schemas/{model}",
            )
            schemas = schema.setdefault("components", {}).setdefault("schemas", {})
            for name, definition in definitions.get("$defs", {}).items():
                schemas.setdefault(name, definition)
            for template, path in schema.get("paths", {}).items():
                for method, operation in path.items():
                    _problem_responses(operation)
                    _limit_responses(method.upper(), template, operation)
                    _bearer_security(operation)
                    _required_if_match(operation)
                    _response_headers(operation)
            _links(schema)
            _export_paths(schema)
            schema["components"]["headers"] = HEADERS
            schema["components"].setdefault("securitySchemes", {})[SECURITY] = {
                "type": "http",
                "scheme": "bearer",
                "description": "A roster's edit token, shown once by create_roster "
                "(`Authorization: Bearer <edit_token>`).",
            }
            components = schema.get("components", {}).get("schemas", {})
            components.pop("HTTPValidationError", None)
            components.pop("ValidationError", None)
            _unique_titles(components)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


SECURITY = "editToken"
# The routers whose body routes answer 415 to a body of another type (require_json_body).
JSON_ONLY_TAGS = ("rosters", "books", "carnets", "shares", "campaigns")


def _bearer_security(operation: dict[str, Any]) -> None:
    """The routes that read `Authorization` say so as a security scheme (a client or a
    fuzzer then knows where the edit token goes) instead of a free header parameter."""
    parameters = operation.get("parameters", [])
    read = [p for p in parameters if p["in"] == "header" and p["name"] == "authorization"]
    if read:
        operation["parameters"] = [p for p in parameters if p not in read]
        # Where the route answers without it (no 401: a new book or campaign, placed in a
        # carnet only when its key is sent), the empty requirement says anonymous is allowed.
        optional = "401" not in operation.get("responses", {})
        operation["security"] = [{SECURITY: []}, {}] if optional else [{SECURITY: []}]


def _required_if_match(operation: dict[str, Any]) -> None:
    """If-Match is required where its absence is a 428 (the route takes it as optional only
    to answer 428 rather than 422)."""
    if "428" not in operation.get("responses", {}):
        return
    for parameter in operation.get("parameters", []):
        if parameter["in"] == "header" and parameter["name"] == "if-match":
            parameter["required"] = True
    operation["responses"].setdefault(
        "412",
        {
            "description": "A weak If-Match (W/...): If-Match compares strongly. Nothing changed.",
            "content": {"application/problem+json": {"schema": PROBLEM_REF}},
        },
    )


# Where a created roster's id and version go in the operations that act on it (the edit
# token is the security scheme's).
ROSTER_LINKS = {
    "get_roster": ("GetRoster", {}),
    "replace_roster": ("ReplaceRoster", {"header.if-match": "$response.body#/version"}),
    "delete_roster": ("DeleteRoster", {}),
    "share_roster": ("ShareRoster", {}),
}


def _links(schema: dict[str, Any]) -> None:
    """OpenAPI links from create_roster's answer to the roster's own operations."""
    operations = {
        operation.get("operationId"): operation
        for path in schema.get("paths", {}).values()
        for operation in path.values()
    }
    created = operations.get("create_roster", {}).get("responses", {}).get("201")
    if created is None:
        return
    links = created.setdefault("links", {})
    for operation_id, (name, extra) in ROSTER_LINKS.items():
        if operation_id in operations:
            links[name] = {
                "operationId": operation_id,
                "parameters": {"roster_id": "$response.body#/id", **extra},
                "description": "The roster just stored (its edit token in Authorization).",
            }


def _limit_responses(method: str, template: str, operation: dict[str, Any]) -> None:
    """414 everywhere (app/middleware.py refuses a long query string on every path before
    routing), 413 where a body is read, 429 where a rate limit counts (app/security/)."""
    responses = operation.setdefault("responses", {})
    responses.setdefault("414", {"description": "Query string over MAX_QUERY_BYTES."})
    if "requestBody" in operation:
        responses.setdefault("413", {"description": "Body over MAX_BODY_BYTES."})
        if operation.get("tags", [""])[0] in JSON_ONLY_TAGS:
            responses.setdefault(
                "415", {"description": "A body not sent as application/json: nothing read."}
            )
    if may_be_limited(method, re.sub(r"\{[^/]+\}", "x", template)):
        responses.setdefault(
            "429", {"description": "Too many requests from this client (or on this roster)."}
        )
    for status in ("413", "414", "415", "429"):
        if status in responses:
            responses[status]["content"] = {"application/problem+json": {"schema": PROBLEM_REF}}


def _problem_responses(operation: dict[str, Any]) -> None:
    responses = operation.setdefault("responses", {})
    if "requestBody" in operation or operation.get("parameters"):
        responses.setdefault("422", {"description": "Invalid input."})
    for status, response in responses.items():
        if status.startswith(("4", "5")) and status != "304":
            response["content"] = {"application/problem+json": {"schema": PROBLEM_REF}}


# The headers the API sends, declared once (components.headers) and referred to by each
# response that carries them (issue 28, item 1). Transport headers (Content-Type,
# Content-Length, Content-Encoding, Vary) are HTTP's own and not declared.
def _header(description: str, example: str = "") -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    if example:
        schema["example"] = example
    return {"description": description, "schema": schema}


HEADERS: dict[str, dict[str, Any]] = {
    "ETag": _header(
        "The version of the resource as an entity tag: send it back as `If-Match` to replace "
        "it, or as `If-None-Match` to read it again only if it changed.",
        '"3"',
    ),
    "Cache-Control": _header(
        "How long caches may keep the answer (`no-store` where it carries a secret).",
        "private, no-store",
    ),
    "Location": _header("The path of the resource just created.", "/api/v1/rosters/abc"),
    "Content-Disposition": _header(
        "A download: the file's name to save it under.",
        'attachment; filename="carnet-caserne-2026-12-06.json"',
    ),
    "WWW-Authenticate": _header("The scheme to authenticate with.", "Bearer"),
    "Allow": _header("The methods this path answers.", "GET, POST"),
    "Retry-After": {
        "description": "Seconds to wait before trying again.",
        "schema": {"type": "integer"},
    },
    # app/security/headers.py: on every answer.
    "Content-Security-Policy": _header("The browser's content security policy."),
    "X-Content-Type-Options": _header("Always `nosniff`.", "nosniff"),
    "X-Frame-Options": _header("Always `DENY`.", "DENY"),
    "Cross-Origin-Opener-Policy": _header("Always `same-origin`.", "same-origin"),
    "Referrer-Policy": _header(
        "`same-origin`, or `no-referrer` where the URL may carry a secret.", "same-origin"
    ),
}
EVERY_ANSWER = (
    "Content-Security-Policy",
    "X-Content-Type-Options",
    "X-Frame-Options",
    "Cross-Origin-Opener-Policy",
    "Referrer-Policy",
)
_CREATED = ("ETag", "Location", "Cache-Control")
_READ = ("ETag", "Cache-Control")
# operationId -> status -> the headers its route sets (besides those of every answer).
SENT: dict[str, dict[str, tuple[str, ...]]] = {
    "create_roster": {"201": _CREATED},
    "add_carnet_roster": {"201": _CREATED},
    "create_book": {"201": _CREATED},
    "create_carnet": {"201": ("Location", "Cache-Control")},
    "rotate_carnet_key": {"200": ("Cache-Control",)},
    "share_roster": {"201": ("Location",), "200": ("Location",)},
    "publish_book": {"201": ("Location",), "200": ("Location",)},
    "get_roster": {"200": _READ},
    "get_book": {"200": _READ},
    "get_share": {"200": _READ, "304": _READ},
    "get_book_share": {"200": _READ, "304": _READ},
    "get_carnet": {"200": ("Cache-Control",)},
    "get_roster_updates": {"200": ("Cache-Control",)},
    "replace_roster": {"200": ("ETag",)},
    "replace_book": {"200": ("ETag",)},
    "apply_roster_updates": {"200": ("ETag",)},
    "record_battle": {"201": ("ETag", "Location")},
    "list_battles": {"200": ("Cache-Control",)},
    "create_campaign": {"201": ("Location",)},
    "list_roster_versions": {"200": ("Cache-Control",)},
    "get_roster_version": {"200": ("Cache-Control",)},
    "restore_roster_version": {"200": ("ETag",)},
    "export_carnet": {"200": ("Cache-Control", "Content-Disposition")},
    "carnet_export_schema": {"200": ("Cache-Control",)},
}
# By status, wherever the operation answers it.
SENT_ON = {
    "401": ("WWW-Authenticate",),
    "405": ("Allow",),
    "409": ("ETag",),
    "429": ("Retry-After",),
}
# The reads that answer 304 to a matching If-None-Match.
CONDITIONAL_READS = ("get_share", "get_book_share")
IF_NONE_MATCH = {
    "name": "If-None-Match",
    "in": "header",
    "required": False,
    "description": "An ETag read before: 304 and no body while it is still the current one "
    "(weak comparison, RFC 9110 13.1.2).",
    "schema": {"type": "string"},
}


def _response_headers(operation: dict[str, Any]) -> None:
    """Declares the headers each response carries, and If-None-Match where a 304 answers."""
    operation_id = operation.get("operationId", "")
    sent = SENT.get(operation_id, {})
    for status, response in operation.get("responses", {}).items():
        names = [*sent.get(status, ()), *SENT_ON.get(status, ()), *EVERY_ANSWER]
        headers = response.setdefault("headers", {})
        for name in names:
            headers.setdefault(name, {"$ref": f"#/components/headers/{name}"})
    if operation_id in CONDITIONAL_READS:
        parameters = operation.setdefault("parameters", [])
        if not any(p.get("name", "").lower() == "if-none-match" for p in parameters):
            parameters.append(IF_NONE_MATCH)


# The exports of a share and of a published book (pages for programs: /s/{code}.json is
# get_share's body, /a/{code}.json get_book_share's) and a battle's report, as they answer.
EXPORT_FORMATS = {
    "json": ("application/json", "The same body as"),
    "bbcode": ("text/plain", "BBCode (phpBB-style forums) of"),
    "md": ("text/markdown", "Markdown (CommonMark) of"),
    "txt": ("text/plain", "Plain text of"),
}
EXPORTED = (
    ("s", "export_share", "get_share", "a roster share"),
    ("a", "export_book_share", "get_book_share", "a published book version"),
)
CODE_PARAMETER = {
    "name": "code",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "pattern": "^[0-9a-z]{1,16}$"},
}
PAGE = {"text/html": {"schema": {"type": "string"}}}
PROBLEM = {"application/problem+json": {"schema": PROBLEM_REF}}


def _export(
    summary: str, media: str, body: dict[str, Any], missing: dict[str, Any], gone: bool
) -> dict[str, Any]:
    """One export's GET: its body, the caching headers, 304 to a matching If-None-Match,
    404 (410 for a removed share) as a problem for JSON, a page for text."""
    cached = {name: {"$ref": f"#/components/headers/{name}"} for name in _READ}
    responses: dict[str, Any] = {
        "200": {"description": summary, "content": {media: {"schema": body}}, "headers": cached},
        "304": {"description": "Not modified.", "headers": cached},
        "404": {"description": "No such code.", "content": missing},
    }
    if gone:
        responses["410"] = {"description": "Removed (docs/retention.md).", "content": missing}
    return {
        "tags": ["exports"],
        "summary": summary,
        "parameters": [CODE_PARAMETER, IF_NONE_MATCH],
        "responses": responses,
    }


def _export_paths(schema: dict[str, Any]) -> None:
    paths = schema.setdefault("paths", {})
    operations = {
        operation.get("operationId"): operation
        for path in paths.values()
        for operation in path.values()
    }
    for prefix, name, read, what in EXPORTED:
        if read not in operations:
            continue
        answer = operations[read]["responses"]["200"]["content"]["application/json"]["schema"]
        for ext, (media, said) in EXPORT_FORMATS.items():
            json = ext == "json"
            summary = f"{said} {read}" if json else f"{said} {what}"
            body = answer if json else {"type": "string"}
            missing = PROBLEM if json else {**PAGE, **PROBLEM}
            operation = _export(summary, media, body, missing, gone=prefix == "s")
            operation["operationId"] = f"{name}_{ext}"
            paths[f"/{prefix}/{{code}}.{ext}"] = {"get": operation}
    _tts_exports(paths, schema["components"]["schemas"])
    report = _export(
        "A battle's report in BBCode (the share its line pinned)",
        "text/plain",
        {"type": "string"},
        {**PAGE, **PROBLEM},
        gone=False,
    )
    report["operationId"] = "export_battle_report"
    paths["/campagne/rapport/{code}.bbcode"] = {"get": report}
    for template in [p for p in paths if not p.startswith("/api/")]:
        for method, operation in paths[template].items():
            _limit_responses(method.upper(), template, operation)
            _response_headers(operation)


def _tts_exports(paths: dict[str, Any], components: dict[str, Any]) -> None:
    """/s/{code}.tts.json and .tts.txt (docs/tts.md): Tabletop Simulator's objects."""
    _, definitions = models_json_schema(
        [(TtsExport, "serialization")], ref_template="#/components/schemas/{model}"
    )
    for name, definition in definitions.get("$defs", {}).items():
        components.setdefault(name, definition)
    exported = {"$ref": "#/components/schemas/TtsExport"}
    for ext, media, body, missing in (
        ("tts.json", "application/json", exported, PROBLEM),
        ("tts.txt", "text/plain", {"type": "string"}, {**PAGE, **PROBLEM}),
    ):
        summary = f"Tabletop Simulator's objects of a roster share ({ext})"
        operation = _export(summary, media, body, missing, gone=True)
        operation["operationId"] = f"export_share_{ext.replace('.', '_')}"
        paths[f"/s/{{code}}.{ext}"] = {"get": operation}


def _unique_titles(components: dict[str, Any]) -> None:
    """Two components never share a title: generators name their classes after it, and
    openapi-python-client dropped both (and every answer using them) on a clash (a model and
    its -Input/-Output variants, two modules' models of one name). A shared title becomes the
    component's own name, in CamelCase (FileLine-Output: FileLineOutput)."""
    titles: dict[str, list[str]] = {}
    for name, component in components.items():
        titles.setdefault(component.get("title", name), []).append(name)
    for names in titles.values():
        if len(names) > 1:
            for name in names:
                words = re.split(r"[^0-9A-Za-z]+", name)
                components[name]["title"] = "".join(w[:1].upper() + w[1:] for w in words)
