"""Request size limits: refuse oversized bodies with 413 before anything parses them."""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from simplemem_graph.errors import InputError


class PayloadTooLargeError(InputError):
    """A request body over the server's limit (HTTP 413)."""


class BodySizeLimitMiddleware:
    """Answer 413 to bodies larger than `max_body_bytes`.

    A declared `Content-Length` is checked up front. A chunked body (no length) is read and
    counted first, because a client could otherwise stream an unbounded body past the header check.
    """

    def __init__(self, app: ASGIApp, max_body_bytes: int):
        self.app = app
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_body_bytes:
            await self._refuse(send)
            return

        if declared is None:
            # Chunked body: read it (up to the limit) before the app sees it, then replay it.
            messages, too_large = await self._buffer_body(receive)
            if too_large:
                await self._refuse(send)
                return
            receive = _replay(messages, receive)
        await self.app(scope, receive, send)

    async def _buffer_body(self, receive: Receive) -> tuple[list[Message], bool]:
        messages: list[Message] = []
        received = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                return messages, False
            received += len(message.get("body", b""))
            if received > self.max_body_bytes:
                return messages, True
            if not message.get("more_body", False):
                return messages, False

    async def _refuse(self, send: Send) -> None:
        body = json.dumps(
            {
                "error": {
                    "type": PayloadTooLargeError.__name__,
                    "message": f"request body is larger than the limit of {self.max_body_bytes} bytes; "
                    "send fewer turns or records per request",
                }
            }
        ).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def _replay(messages: list[Message], receive: Receive) -> Receive:
    """A `receive` that returns the buffered messages, then defers to the real one."""
    pending = list(messages)

    async def replaying_receive() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replaying_receive
