"""Reading a request body in a middleware, and handing it on unchanged to the app."""

from urllib.parse import parse_qsl

from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.types import Message, Receive, Scope


async def read_body(receive: Receive) -> tuple[bytes, list[Message]]:
    """The whole body (BodyLimit, further out, has bounded it) and the messages it came in."""
    messages: list[Message] = []
    body = b""
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            break
        body += message.get("body", b"")
        if not message.get("more_body", False):
            break
    return body, messages


def replay(messages: list[Message], receive: Receive) -> Receive:
    """A `receive` that gives `messages` again, then whatever comes next."""
    pending = list(messages)

    async def replayed() -> Message:
        return pending.pop(0) if pending else await receive()

    return replayed


async def form_field(scope: Scope, body: bytes, name: str) -> str | None:
    """The first value of the form field `name` in an urlencoded or multipart body."""
    if name.encode() not in body:
        return None
    content_type = Headers(scope=scope).get("content-type", "")
    if content_type.startswith("application/x-www-form-urlencoded"):
        text = body.decode("latin-1")
        pairs = parse_qsl(text, keep_blank_values=True, encoding="utf-8", errors="replace")
        return next((value for key, value in pairs if key == name), None)
    if content_type.startswith("multipart/form-data"):

        async def once() -> Message:
            return {"type": "http.request", "body": body, "more_body": False}

        try:
            async with Request(scope, once).form() as form:
                value = form.get(name)
        except Exception:  # a broken body: the app answers it with its own error
            return None
        return value if isinstance(value, str) else None
    return None
