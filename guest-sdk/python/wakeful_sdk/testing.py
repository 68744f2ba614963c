"""Test an agent natively with ``python3 -m unittest``. Outside a component
there is no host, so tool calls, ``now``, ``run_id`` and ``log`` go to this
fake host. Like the real host, it runs each idempotency key once and
returns the recorded result (or raises the recorded error) to repeats.

    from wakeful_sdk import kv, testing, Unknown

    testing.reset()
    testing.on_tool(lambda name, args: {"value": "hello", "version": 1} if name == "kv" else testing.refuse(Unknown(name)))
    assert kv.get("greeting", "read-greeting").value == "hello"
    assert testing.calls()[0].args == {"op": "get", "key": "greeting"}

``step(agent, state, wake)`` runs one step the way the host does, through
the same code as the component's export: the state goes through JSON, a
failed step raises ``StepFailed`` carrying the exact message the operator
would read, and the state passed in is left as it was.
"""

import copy
import json
from dataclasses import dataclass
from typing import Any, Callable, List, Optional, Tuple

from .export import agent_info, failure_message, run_migrate, run_step
from .step import Step, to_json
from .tools import ToolError, Unknown


@dataclass(frozen=True)
class ToolCall:
    """A tool call the agent made."""

    #: The tool's name.
    name: str
    #: The arguments, parsed back from the JSON the agent sent.
    args: Any
    #: The call's idempotency key.
    idempotency_key: str
    #: ``True`` when the key was seen before: the recorded result was
    #: returned and the handler did not run.
    replayed: bool


class FakeHost:
    """The host of native tests: a clock, a run id, a log, scripted tool
    answers and the once-per-key ledger."""

    def __init__(self):
        self.reset()

    def reset(self) -> None:
        self.now_ms = 0
        self.run_id_text = "test-run"
        self.log_lines: List[str] = []
        self.tool_calls: List[ToolCall] = []
        self.ledger = {}
        self.handler: Optional[Callable[[str, Any], Any]] = None

    # The backend interface of wakeful_sdk.host.

    def now(self) -> int:
        return self.now_ms

    def run_id(self) -> str:
        return self.run_id_text

    def log(self, level: str, message: str) -> None:
        self.log_lines.append(f"{level}: {message}")

    def call(self, name: str, args: str, key: str) -> str:
        try:
            parsed = json.loads(args)
        except ValueError as e:
            raise ToolError.Invalid(f"arguments are not JSON: {e}", name) from None
        recorded = self.ledger.get(key)
        self.tool_calls.append(ToolCall(name, parsed, key, recorded is not None))
        if recorded is None:
            recorded = self._run(name, parsed)
            self.ledger[key] = recorded
        kind, value = recorded
        if kind == "err":
            # A fresh exception each time, as the host returns a fresh value.
            raise type(value)(value.message, name)
        return value

    def _run(self, name: str, args: Any) -> Tuple[str, Any]:
        if self.handler is None:
            return "err", Unknown(f"no tool handler set for '{name}'")
        try:
            result = self.handler(name, copy.deepcopy(args))
        except ToolError as e:
            return "err", e
        return "ok", to_json(result)


#: The one fake host (tests run one at a time in a process).
FAKE_HOST = FakeHost()


def reset() -> None:
    """Forgets everything: time 0, run id ``test-run``, no tool handler
    (every call raises ``Unknown``), no calls, no logs."""
    FAKE_HOST.reset()


def set_now(ms: int) -> None:
    """Sets what ``now()`` returns."""
    FAKE_HOST.now_ms = ms


def set_run_id(run_id: str) -> None:
    """Sets what ``run_id()`` returns."""
    FAKE_HOST.run_id_text = run_id


def on_tool(handler: Callable[[str, Any], Any]) -> None:
    """Sets the function that answers tool calls: ``handler(name, args)``
    gets the tool's name and its parsed arguments, and returns the result (a
    JSON-able value) or raises a ``ToolError`` (``Denied``, ``Failed``, ...)."""
    FAKE_HOST.handler = handler


def refuse(error: ToolError):
    """Raises ``error``: for handlers written as lambdas."""
    raise error


def calls() -> List[ToolCall]:
    """Every tool call so far, repeats included, oldest first."""
    return list(FAKE_HOST.tool_calls)


def logs() -> List[str]:
    """Every log line so far as ``level: message``, oldest first."""
    return list(FAKE_HOST.log_lines)


class StepFailed(Exception):
    """A step (or migrate) failed; ``message`` is the ``err`` text the host
    would get, and the operator read."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _instance(agent):
    return agent() if isinstance(agent, type) else agent


def step(agent, state: Any, wake) -> Tuple[Any, Step]:
    """Runs one step of ``agent`` (a class or an instance) as the host does
    and returns ``(new_state, step)``. The state goes through JSON both ways,
    so the agent sees what it would see in a component, and ``state`` itself
    is never changed. A failure raises ``StepFailed`` with the exact error
    text of the component."""
    agent = _instance(agent)
    agent_info(agent)
    try:
        text, result = run_step(agent, to_json(state), wake)
    except Exception as e:
        raise StepFailed(failure_message(e)) from e
    return json.loads(text), result


def migrate(agent, from_version: str, state: Any) -> Any:
    """Runs ``migrate`` of ``agent`` as the host does; returns the new state
    or raises ``StepFailed``."""
    agent = _instance(agent)
    try:
        text = run_migrate(agent, from_version, to_json(state))
    except Exception as e:
        raise StepFailed(failure_message(e)) from e
    return json.loads(text)
