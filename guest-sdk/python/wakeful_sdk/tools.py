"""Calling the host's tools: ``call`` with Python values in and out, and the
``ToolError`` exceptions.

Typed wrappers for the built-in tools live in ``kv``, ``lease`` and
``callback``.

The host runs each idempotency key at most once per run and returns the
recorded result to every repeat, including the repeats of a retried step. So
derive the key from what the call means (``"INC-7001:restart"``), never from
a counter or the time: the same call gets the same key.
"""

from typing import Any, Optional

from . import host
from .jsontext import from_json
from .step import check_text, to_json


class ToolError(Exception):
    """Why a tool call did not return a result. Policy failures are these
    exceptions; a fault of the host itself stops the step instead, so nothing
    of the run changes.

    ``message`` is the host's message, ``tool`` the name of the tool called.
    ``str(error)`` is ``"<kind>: <message>"``, e.g. ``"denied: kv is not
    granted"``, the same text as the Rust SDK's ``ToolError``. Catch one kind
    with ``except Denied`` (also ``ToolError.Denied``), or all with ``except
    ToolError``.
    """

    #: One word for the kind: denied, unknown, budget, invalid, failed.
    kind = "error"
    #: How ``str()`` names the kind.
    label = "error"
    #: How an uncaught error names what happened: "tool kv failed: ...".
    verb = "failed"

    def __init__(self, message: str, tool: Optional[str] = None):
        super().__init__(message)
        self.message = message
        self.tool = tool

    def __str__(self) -> str:
        return f"{self.label}: {self.message}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r})"

    def __eq__(self, other) -> bool:
        return type(self) is type(other) and self.message == other.message

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.message))

    def summary(self) -> str:
        """The line an operator reads when the agent let this error escape
        its step: ``tool kv failed: disk on fire``."""
        return f"tool {self.tool or '?'} {self.verb}: {self.message}"


class Denied(ToolError):
    """Not granted to this agent version."""

    kind, label, verb = "denied", "denied", "denied"


class Unknown(ToolError):
    """No tool of that name on this host."""

    kind, label, verb = "unknown", "unknown tool", "is unknown"


class Budget(ToolError):
    """A budget is spent; the run will be parked."""

    kind, label, verb = "budget", "budget spent", "budget spent"


class Invalid(ToolError):
    """The arguments were rejected before the tool ran."""

    kind, label, verb = "invalid", "invalid arguments", "got invalid arguments"


class Failed(ToolError):
    """The tool ran and failed, or returned a result this agent cannot read."""

    kind, label, verb = "failed", "failed", "failed"


ToolError.Denied = Denied
ToolError.Unknown = Unknown
ToolError.Budget = Budget
ToolError.Invalid = Invalid
ToolError.Failed = Failed

#: The ToolError class of each kind, by the WIT variant's name.
KINDS = {cls.kind: cls for cls in (Denied, Unknown, Budget, Invalid, Failed)}


def call(name: str, args: Any, idempotency_key: str) -> Any:
    """Calls the tool ``name`` with ``args`` (any JSON-able value) and returns
    its result, parsed JSON. Raises a ``ToolError`` when the call does not
    return a result."""
    check_text("the tool name", name)
    try:
        text = to_json(args)
    except (TypeError, ValueError) as e:
        raise Invalid(f"the arguments for tool '{name}' are not JSON: {e}", name) from None
    check_text("the idempotency key", idempotency_key)
    return read_result(name, _call(name, text, idempotency_key))


def call_raw(name: str, args: str, idempotency_key: str) -> str:
    """Calls the tool ``name`` with JSON text and returns its JSON text as is."""
    check_text("the tool name", name)
    check_text("the tool arguments", args)
    check_text("the idempotency key", idempotency_key)
    return _call(name, args, idempotency_key)


def _call(name: str, args: str, idempotency_key: str) -> str:
    # The texts are checked by the caller.
    try:
        return host.current().call(name, args, idempotency_key)
    except ToolError as e:
        if e.tool is None:
            e.tool = name
        raise


def read_result(name: str, text: str) -> Any:
    """A result that is not JSON is the tool's failure as far as the agent can
    tell; the message quotes the start of it for the operator."""
    try:
        return from_json(text)
    except ValueError as e:
        raise cannot_read(name, str(e), text) from None


def cannot_read(name: str, why: str, result: Any) -> Failed:
    """The ``Failed`` error for a result whose shape does not fit."""
    text = result if isinstance(result, str) else to_json(result)
    return Failed(f"tool '{name}' returned a result this agent cannot read ({why}): {excerpt(text, 200)}", name)


def excerpt(text: str, max_chars: int) -> str:
    return text if len(text) <= max_chars else text[:max_chars] + "…"
