"""ASGI middleware: the request body limit, and access logs without secrets."""

import json
import logging
import re
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.problems import PROBLEM_TYPE, TITLES


class BodyLimit:
    """Refuses bodies over `max_bytes` with a 413 problem before the app reads them."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS", "DELETE"):
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(send)
            return
        messages: list[Message] = []
        size = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            if size > self.max_bytes:
                await self._refuse(send)
                return
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps(
            {
                "type": "about:blank",
                "title": TITLES[413],
                "status": 413,
                "detail": f"The request body is larger than {self.max_bytes} bytes.",
                "errors": [
                    {
                        "loc": ["body"],
                        "msg": f"body over {self.max_bytes} bytes",
                        "code": "body_too_large",
                    }
                ],
            }
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", PROBLEM_TYPE.encode()),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


_SECRET_QUERY = re.compile(r"([?&](?:t|token)=)[^&\s\"]+")


class RedactTokens(logging.Filter):
    """Edit tokens travel in /r/{id}/modifier?t=...: keep them out of access logs."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                _SECRET_QUERY.sub(r"\1[masqué]", arg) if isinstance(arg, str) else arg
                for arg in record.args
            )
        record.msg = _SECRET_QUERY.sub(r"\1[masqué]", str(record.msg))
        return True


def redact_access_log() -> None:
    logger: Any = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, RedactTokens) for f in logger.filters):
        logger.addFilter(RedactTokens())
