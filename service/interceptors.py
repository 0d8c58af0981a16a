"""The server's interceptors: request metrics, authentication, and the time limit of a call.

They run in this order around every method's handler (``server_interceptors``):

- :class:`RequestMetrics` counts every call of a method the server has, by method name and
  final status code — the refused ones too, so an attacker's guesses show in the metrics —
  and times each unary call.  A method the server does not have is not counted: its name
  is the caller's, unbounded.
- :class:`Authentication` admits a call whose ``authorization`` metadata is ``Bearer
  TOKEN`` with a token of the tokens file, and answers any other ``UNAUTHENTICATED``
  without reading the request; the health service needs no token (probes carry none).  A
  server without tokens admits every call as the one open namespace.  An admitted call's
  handler sees its :class:`~service.auth.Principal` through :func:`caller`.  A stream
  (``WatchJob``) checks its token again between messages and every
  :data:`RECHECK_SECONDS` while it waits for one, and ends ``UNAUTHENTICATED`` once the
  token is no longer in the tokens file: revoking a token ends its open streams too.
- :class:`CallLimit` ends a unary call that runs longer than the server's limit with
  ``DEADLINE_EXCEEDED`` (a client's own shorter deadline ends it sooner, as grpc does).
- :class:`~service.malformed.MalformedRequests` answers bytes that are not a request
  message ``INVALID_ARGUMENT`` (innermost: only admitted requests are parsed at all).

Each wraps a handler's behaviour keeping its shape: an async generator stays one, a
coroutine stays one (grpc calls the two differently).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

import grpc

from service.auth import OPEN, Principal, TokensFile
from service.malformed import MalformedRequests
from service.metrics import ServiceMetrics

Handler = Any  # grpc.RpcMethodHandler: a named tuple of the method's parts
Behaviour = Callable[..., Any]
HEALTH_PREFIX = "/grpc.health.v1.Health/"
# Seconds between two checks of an open stream's token while it waits for a message; with
# the tokens file's own reload (service/auth.py, at most every 2 s) a revoked token's
# streams end within about three seconds.
RECHECK_SECONDS = 1.0
_KINDS = ("unary_unary", "unary_stream", "stream_unary", "stream_stream")


def _kind(handler: Handler) -> str | None:
    return next((kind for kind in _KINDS if getattr(handler, kind) is not None), None)


def method_name(full: str) -> str:
    """``/cardroom.v1.JobService/SubmitJob`` → ``SubmitJob`` (the metrics' label)."""
    return full.rsplit("/", 1)[-1]


class CallerContext:
    """A servicer context that also carries the call's principal; everything else is the
    context's own (``abort``, ``code``, ``invocation_metadata``, ...)."""

    def __init__(self, context: grpc.aio.ServicerContext[Any, Any], principal: Principal):
        self._context = context
        self.principal = principal

    def __getattr__(self, name: str) -> Any:
        return getattr(self._context, name)


def caller(context: object) -> Principal:
    """The principal of a call admitted by :class:`Authentication`.

    Fails closed: a handler reached without the interceptor (a server built without it)
    raises instead of serving some namespace by default.
    """
    if isinstance(context, CallerContext):
        return context.principal
    raise RuntimeError("no principal: the server runs without its Authentication interceptor")


def _with_context(behaviour: Behaviour, change: Callable[[Any], Any]) -> Behaviour | None:
    """The behaviour called with ``change(context)`` for its context; None for a shape that
    is neither an async generator nor a coroutine function."""
    if inspect.isasyncgenfunction(behaviour):

        async def stream(request: Any, context: Any) -> AsyncIterator[Any]:
            async for response in behaviour(request, change(context)):
                yield response

        return stream
    if inspect.iscoroutinefunction(behaviour):

        async def call(request: Any, context: Any) -> Any:
            return await behaviour(request, change(context))

        return call
    return None


def counted(behaviour: Behaviour, method: str, metrics: ServiceMetrics) -> Behaviour | None:
    def outcome(context: Any, error: BaseException | None) -> Any:
        if isinstance(error, asyncio.CancelledError):
            return grpc.StatusCode.CANCELLED
        fallback = grpc.StatusCode.OK if error is None else grpc.StatusCode.UNKNOWN
        return context.code() or fallback

    if inspect.isasyncgenfunction(behaviour):

        async def stream(request: Any, context: Any) -> AsyncIterator[Any]:
            error: BaseException | None = None
            try:
                async for response in behaviour(request, context):
                    yield response
            except BaseException as err:
                error = err
                raise
            finally:
                metrics.request(method, outcome(context, error))

        return stream
    if inspect.iscoroutinefunction(behaviour):

        async def call(request: Any, context: Any) -> Any:
            started = time.perf_counter()
            try:
                response = await behaviour(request, context)
            except BaseException as err:
                metrics.request_time(method, time.perf_counter() - started)
                metrics.request(method, outcome(context, err))
                raise
            metrics.request_time(method, time.perf_counter() - started)
            metrics.request(method, outcome(context, None))
            return response

        return call
    return None


def _replace(handler: Handler, wrap: Callable[[Behaviour], Behaviour | None]) -> Handler:
    kind = _kind(handler)
    if kind is None:
        return handler
    wrapped = wrap(getattr(handler, kind))
    return handler if wrapped is None else handler._replace(**{kind: wrapped})


class RequestMetrics(grpc.aio.ServerInterceptor):
    def __init__(self, metrics: ServiceMetrics) -> None:
        self.metrics = metrics

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[Handler]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> Handler:
        handler = await continuation(handler_call_details)
        if handler is None:
            return None
        name = method_name(handler_call_details.method)
        return _replace(handler, lambda behaviour: counted(behaviour, name, self.metrics))


def bearer_token(metadata: Sequence[tuple[str, Any]] | None) -> str | None:
    """The token of an ``authorization: Bearer TOKEN`` entry; None when there is none."""
    for key, value in metadata or ():
        if key.lower() == "authorization" and isinstance(value, str):
            scheme, _, token = value.strip().partition(" ")
            if scheme.lower() == "bearer" and token.strip():
                return token.strip()
            return None
    return None


def _refusal(handler: Handler, message: str) -> Handler:
    """A handler of the same shape that answers UNAUTHENTICATED, leaving the request's
    bytes unread."""

    async def refuse(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
        await context.abort(grpc.StatusCode.UNAUTHENTICATED, message)

    kind = _kind(handler)
    if kind is None:
        return handler
    return handler._replace(request_deserializer=None, **{kind: refuse})


MISSING = (
    "authorization: this server needs a token: send 'authorization: Bearer TOKEN' "
    "(the cardroom CLI sends $CARDROOM_TOKEN or --token-file)"
)
INVALID = "authorization: the token is not valid on this server"
REVOKED = "authorization: the token is no longer valid on this server (revoked)"


def _revocable(behaviour: Behaviour, admitted: Callable[[], bool]) -> Behaviour | None:
    """A streaming behaviour that ends UNAUTHENTICATED once ``admitted()`` turns false:
    checked before each message is sent, and every RECHECK_SECONDS while the stream waits
    for its next one (a WatchJob may wait minutes between two).  Other shapes: None."""
    if not inspect.isasyncgenfunction(behaviour):
        return None

    async def stream(request: Any, context: Any) -> AsyncIterator[Any]:
        responses = behaviour(request, context).__aiter__()
        try:
            while True:
                # The next message is awaited in a task of its own, so that waiting for it
                # can be interrupted to look at the token without ending the stream.
                following = asyncio.ensure_future(anext(responses))
                try:
                    while not (await asyncio.wait({following}, timeout=RECHECK_SECONDS))[0]:
                        if not admitted():
                            break
                finally:
                    if not following.done():
                        following.cancel()
                        with contextlib.suppress(BaseException):
                            await following
                if following.cancelled() or not admitted():
                    await context.abort(grpc.StatusCode.UNAUTHENTICATED, REVOKED)
                try:
                    response = following.result()
                except StopAsyncIteration:
                    return
                yield response
        finally:
            await responses.aclose()

    return stream


class Authentication(grpc.aio.ServerInterceptor):
    """Bearer tokens of a tokens file; ``tokens`` None admits every call as :data:`OPEN`."""

    def __init__(self, tokens: TokensFile | None) -> None:
        self.tokens = tokens

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[Handler]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> Handler:
        handler = await continuation(handler_call_details)
        if handler is None or handler_call_details.method.startswith(HEALTH_PREFIX):
            return handler
        admitted = OPEN
        tokens = self.tokens
        if tokens is not None:
            token = bearer_token(handler_call_details.invocation_metadata)
            if token is None:
                return _refusal(handler, MISSING)
            principal = tokens.principal(token)
            if principal is None:
                return _refusal(handler, INVALID)
            admitted, presented = principal, token

        def attach(context: Any) -> CallerContext:
            return CallerContext(context, admitted)

        handler = _replace(handler, lambda behaviour: _with_context(behaviour, attach))
        if tokens is None:
            return handler

        def still_admitted() -> bool:
            now = tokens.principal(presented)
            return now is not None and now.namespace == admitted.namespace

        return _replace(handler, lambda behaviour: _revocable(behaviour, still_admitted))


def _limited(behaviour: Behaviour, seconds: float) -> Behaviour | None:
    if not inspect.iscoroutinefunction(behaviour):
        return None

    async def call(request: Any, context: Any) -> Any:
        try:
            async with asyncio.timeout(seconds):
                return await behaviour(request, context)
        except TimeoutError:
            await context.abort(
                grpc.StatusCode.DEADLINE_EXCEEDED,
                f"the call ran longer than this server allows one call ({seconds:g} s, "
                "--call-timeout)",
            )

    return call


class CallLimit(grpc.aio.ServerInterceptor):
    """At most ``seconds`` for each unary call (streams, such as WatchJob, run on)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[Handler]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> Handler:
        handler = await continuation(handler_call_details)
        if handler is None or _kind(handler) != "unary_unary":
            return handler
        return _replace(handler, lambda behaviour: _limited(behaviour, self.seconds))


def server_interceptors(
    metrics: ServiceMetrics, tokens: TokensFile | None, call_timeout: float
) -> tuple[grpc.aio.ServerInterceptor, ...]:
    """The interceptors in the order described above (the first one runs outermost)."""
    return (
        RequestMetrics(metrics),
        Authentication(tokens),
        CallLimit(call_timeout),
        MalformedRequests(),
    )
