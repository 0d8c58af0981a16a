"""Requests whose bytes are not the message they claim to be get INVALID_ARGUMENT.

grpc parses a request before any handler runs; a parse failure becomes UNKNOWN, naming a
Python exception class, with a server traceback logged per request — a log flood anyone
who can reach the port can cause.  This interceptor wraps every method's parser (the job
service's, health's and reflection's alike): bytes that do not parse become a marker, and
the method answers it with INVALID_ARGUMENT naming the expected message, without a log line.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import grpc
from google.protobuf.message import DecodeError

Handler = Any  # grpc.RpcMethodHandler: a named tuple of the method's parts


@dataclass(frozen=True)
class Malformed:
    """Stands in for a request whose bytes did not parse."""

    method: str


def _message(request: Malformed) -> str:
    return f"request: the bytes sent to {request.method} are not a valid request message"


def _parser(method: str, parse: Callable[[bytes], Any] | None) -> Callable[[bytes], Any]:
    def safe(data: bytes) -> Any:
        if parse is None:
            return data
        try:
            return parse(data)
        except (DecodeError, ValueError, TypeError):
            return Malformed(method)

    return safe


async def _checked(
    requests: AsyncIterator[Any], context: grpc.aio.ServicerContext
) -> AsyncIterator[Any]:
    async for request in requests:
        if isinstance(request, Malformed):
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, _message(request))
        yield request


def _guard_unary_request(behaviour: Callable[..., Any], streaming: bool) -> Callable[..., Any]:
    if streaming:

        async def stream(request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
            if isinstance(request, Malformed):
                await context.abort(grpc.StatusCode.INVALID_ARGUMENT, _message(request))
            async for response in behaviour(request, context):
                yield response

        return stream

    async def unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
        if isinstance(request, Malformed):
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, _message(request))
        result = behaviour(request, context)
        return await result if isinstance(result, Awaitable) else result

    return unary


def _guard_stream_request(behaviour: Callable[..., Any], streaming: bool) -> Callable[..., Any]:
    if streaming:

        async def stream(
            requests: AsyncIterator[Any], context: grpc.aio.ServicerContext
        ) -> AsyncIterator[Any]:
            async for response in behaviour(_checked(requests, context), context):
                yield response

        return stream

    async def unary(requests: AsyncIterator[Any], context: grpc.aio.ServicerContext) -> Any:
        result = behaviour(_checked(requests, context), context)
        return await result if isinstance(result, Awaitable) else result

    return unary


def guard(handler: Handler, method: str) -> Handler:
    """The handler with its request parser and behaviour wrapped as described above."""
    parse = _parser(method, handler.request_deserializer)
    if handler.unary_unary is not None:
        return handler._replace(
            request_deserializer=parse,
            unary_unary=_guard_unary_request(handler.unary_unary, streaming=False),
        )
    if handler.unary_stream is not None:
        return handler._replace(
            request_deserializer=parse,
            unary_stream=_guard_unary_request(handler.unary_stream, streaming=True),
        )
    if handler.stream_unary is not None:
        return handler._replace(
            request_deserializer=parse,
            stream_unary=_guard_stream_request(handler.stream_unary, streaming=False),
        )
    return handler._replace(
        request_deserializer=parse,
        stream_stream=_guard_stream_request(handler.stream_stream, streaming=True),
    )


class MalformedRequests(grpc.aio.ServerInterceptor):  # type: ignore[misc]
    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[Handler]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> Handler:
        handler = await continuation(handler_call_details)
        if handler is None:
            return None
        return guard(handler, handler_call_details.method)
