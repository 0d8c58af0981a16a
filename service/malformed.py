"""Requests whose bytes are not the message they claim to be get INVALID_ARGUMENT.

grpc parses a request before any handler runs; a parse failure becomes UNKNOWN, naming a
Python exception class, with a server traceback logged per request — a log flood anyone
who can reach the port can cause.  This interceptor wraps every method's parser (the job
service's, health's and reflection's alike): bytes that do not parse become a marker, and
the method answers it with INVALID_ARGUMENT naming the expected message, without a log line.
"""

from __future__ import annotations

import inspect
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
    requests: AsyncIterator[Any], context: grpc.aio.ServicerContext[Any, Any]
) -> AsyncIterator[Any]:
    async for request in requests:
        if isinstance(request, Malformed):
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, _message(request))
        yield request


def _guard_unary_request(behaviour: Callable[..., Any]) -> Callable[..., Any] | None:
    """The behaviour with a malformed request answered first; None for a shape not known."""
    if inspect.isasyncgenfunction(behaviour):  # streams its responses by yielding them

        async def stream(
            request: Any, context: grpc.aio.ServicerContext[Any, Any]
        ) -> AsyncIterator[Any]:
            if isinstance(request, Malformed):
                await context.abort(grpc.StatusCode.INVALID_ARGUMENT, _message(request))
            async for response in behaviour(request, context):
                yield response

        return stream
    if inspect.iscoroutinefunction(behaviour):  # returns its response, or writes a stream

        async def call(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
            if isinstance(request, Malformed):
                await context.abort(grpc.StatusCode.INVALID_ARGUMENT, _message(request))
            return await behaviour(request, context)

        return call
    return None


def _guard_stream_request(behaviour: Callable[..., Any]) -> Callable[..., Any] | None:
    """The behaviour reading its requests through a check; None for a shape not known."""
    if inspect.isasyncgenfunction(behaviour):

        async def stream(
            requests: AsyncIterator[Any], context: grpc.aio.ServicerContext[Any, Any]
        ) -> AsyncIterator[Any]:
            async for response in behaviour(_checked(requests, context), context):
                yield response

        return stream
    if inspect.iscoroutinefunction(behaviour):

        async def call(
            requests: AsyncIterator[Any], context: grpc.aio.ServicerContext[Any, Any]
        ) -> Any:
            return await behaviour(_checked(requests, context), context)

        return call
    return None


def guard(handler: Handler, method: str) -> Handler:
    """The handler with its request parser and behaviour wrapped as described above.

    Only asynchronous behaviours are wrapped, keeping their shape (an async generator
    stays one, a coroutine stays one): grpc calls the two differently.  A handler of any
    other shape is left as it is.
    """
    parse = _parser(method, handler.request_deserializer)
    for kind, wrap in (
        ("unary_unary", _guard_unary_request),
        ("unary_stream", _guard_unary_request),
        ("stream_unary", _guard_stream_request),
        ("stream_stream", _guard_stream_request),
    ):
        behaviour = getattr(handler, kind)
        if behaviour is not None:
            wrapped = wrap(behaviour)
            if wrapped is None:
                return handler
            return handler._replace(request_deserializer=parse, **{kind: wrapped})
    return handler


class MalformedRequests(grpc.aio.ServerInterceptor):
    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[Handler]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> Handler:
        handler = await continuation(handler_call_details)
        if handler is None:
            return None
        return guard(handler, handler_call_details.method)
