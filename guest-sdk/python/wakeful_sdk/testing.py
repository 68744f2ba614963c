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

``replay(cassette, "NAME@VERSION")`` answers the tool calls from a cassette,
the recorded calls of a real run that ``wakeful cassette RUN`` writes; a
call it has no answer for raises ``CassetteMiss``.
"""

import copy
import hashlib
import json
import os
from dataclasses import dataclass
from typing import Any, Callable, List, Optional, Tuple

from .export import agent_info, failure_message, run_migrate, run_step
from .step import Step, canonical_json, to_json
from .tools import KINDS, ToolError, Unknown


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
        self.cassette: Optional["_Cassette"] = None

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
            recorded = self._run(name, parsed, key)
            self.ledger[key] = recorded
        kind, value = recorded
        if kind == "err":
            # A fresh exception each time, as the host returns a fresh value.
            raise type(value)(value.message, name)
        return value

    def _run(self, name: str, args: Any, key: str) -> Tuple[str, Any]:
        if self.cassette is not None:
            return self.cassette.answer(name, args, key)
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
    JSON-able value) or raises a ``ToolError`` (``Denied``, ``Failed``, ...).
    It replaces a cassette ``replay`` set."""
    FAKE_HOST.handler = handler
    FAKE_HOST.cassette = None


def replay(cassette, agent) -> None:
    """Answers every tool call from ``cassette``, the JSON ``wakeful cassette
    RUN`` writes of a real run (its text, or the parsed dict), replaying as
    ``agent``: ``"NAME@VERSION"``, or an ``Agent`` class or instance (its
    ``name`` and ``version``). A call gets the result (or raises the error)
    recorded for the same agent version, tool, idempotency key and
    arguments; one with no such entry raises ``CassetteMiss`` naming it and
    the recorded call of that tool and key, if any, with where their
    arguments differ. A cassette that is not one raises ``ValueError``."""
    if not isinstance(agent, str):
        agent = f"{agent.name}@{agent.version}"
    FAKE_HOST.cassette = _Cassette(cassette, agent)


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
    except CassetteMiss:
        raise
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


class CassetteMiss(AssertionError):
    """A tool call that a replayed cassette has no answer for: the test
    fails, naming the call."""


#: The cassette format this SDK reads.
_FORMAT = 1
#: Characters of arguments a miss shows.
_SHOWN = 300
#: Characters of the start two differing texts share that a miss shows.
_KEPT = 20


def fingerprint(agent: str, tool: str, key: str, args: Any) -> str:
    """The fingerprint of a call: the lowercase hex SHA-256 of the canonical
    JSON (keys sorted, no whitespace) of ``{"agent", "tool", "key",
    "args"}``, as ``wakeful cassette`` writes it."""
    call = {"agent": agent, "tool": tool, "key": key, "args": args}
    return hashlib.sha256(canonical_json(call).encode("utf-8")).hexdigest()


class _Cassette:
    """A parsed cassette, its entries by the fingerprint this SDK computes
    of each (never by position)."""

    def __init__(self, cassette, agent: str):
        doc = json.loads(cassette) if isinstance(cassette, (str, bytes)) else cassette
        if not isinstance(doc, dict) or doc.get("cassette") != _FORMAT:
            raise ValueError(f"not a cassette of format {_FORMAT}; write it with `wakeful cassette RUN`")
        self.recorded_for = doc.get("agent")
        if not isinstance(self.recorded_for, str):
            raise ValueError('the cassette names no agent ("agent": "NAME@VERSION")')
        self.agent = agent
        entries = doc.get("entries")
        if not isinstance(entries, list):
            raise ValueError("the cassette has no `entries` list")
        self.entries = [_entry(i, e) for i, e in enumerate(entries)]
        self.by_fingerprint = {
            fingerprint(self.recorded_for, e["tool"], e["key"], e["args"]): e for e in self.entries
        }

    def answer(self, tool: str, args: Any, key: str) -> Tuple[str, Any]:
        print_ = fingerprint(self.agent, tool, key, args)
        entry = self.by_fingerprint.get(print_)
        if entry is None:
            raise CassetteMiss(self._miss(tool, args, key, print_))
        if "error" in entry:
            error = entry["error"]
            return "err", KINDS[error["kind"]](error["message"], tool)
        return "ok", to_json(entry["result"])

    def _miss(self, tool: str, args: Any, key: str, print_: str) -> str:
        text = (f"cassette miss: no recorded call matches tool `{tool}`, key `{key}` of agent {self.agent} "
                f"(fingerprint {print_})\n  args: {_shown(args)}")
        same = next((e for e in self.entries if e["tool"] == tool and e["key"] == key), None)
        if same is None:
            return text + ("\n  the cassette has no call of this tool with this key: the agent makes a new call, "
                           "or the host refused it with more arguments than its audit keeps")
        if canonical_json(same["args"]) == canonical_json(args):
            return text + (f"\n  the cassette has this call recorded for agent {self.recorded_for}, "
                           f"not {self.agent}: record the run again on this version")
        where = _difference(same["args"], args, "")
        text += (f"\n  the cassette has `{tool}` `{key}` recorded for other arguments"
                 f"{f' (first difference at {where})' if where else ''}:\n  recorded: {_shown(same['args'])}")
        if self.recorded_for != self.agent:
            text += f"\n  and for agent {self.recorded_for}"
        return text


def _entry(i: int, entry) -> dict:
    if not isinstance(entry, dict):
        raise ValueError(f"cassette entry {i} is not an object")
    for field in ("tool", "key"):
        if not isinstance(entry.get(field), str):
            raise ValueError(f"cassette entry {i} has no `{field}` text")
    if "args" not in entry:
        raise ValueError(f"cassette entry {i} has no `args`")
    if ("result" in entry) == ("error" in entry):
        raise ValueError(f"cassette entry {i} needs a `result` or an `error`, not both")
    error = entry.get("error")
    if "error" in entry and not (isinstance(error, dict) and error.get("kind") in KINDS
                                 and isinstance(error.get("message"), str)):
        raise ValueError(f"cassette entry {i} has an `error` that is no tool error: {error!r}")
    return entry


_ABSENT = object()


def _difference(recorded: Any, now: Any, path: str) -> Optional[str]:
    """The JSON path where ``recorded`` and ``now`` first differ, with both
    values there."""
    if isinstance(recorded, dict) and isinstance(now, dict):
        for k in sorted(set(recorded) | set(now)):
            a, b = recorded.get(k, _ABSENT), now.get(k, _ABSENT)
            if a is _ABSENT or b is _ABSENT:
                return _both(f"{path}/{k}", a, b)
            found = _difference(a, b, f"{path}/{k}")
            if found:
                return found
        return None
    if isinstance(recorded, list) and isinstance(now, list) and len(recorded) == len(now):
        for i, (a, b) in enumerate(zip(recorded, now)):
            found = _difference(a, b, f"{path}/{i}")
            if found:
                return found
        return None
    if canonical_json(recorded) == canonical_json(now):
        return None
    return _both(path, recorded, now)


def _both(path: str, recorded: Any, now: Any) -> str:
    def show(v):
        return "(absent)" if v is _ABSENT else _shown(v)

    if isinstance(recorded, str) and isinstance(now, str):
        # Most of the start they share left out, so that a long prompt shows
        # where it changed.
        skip = len(os.path.commonprefix([recorded, now])) - _KEPT
        if skip > 0:
            recorded, now = "…" + recorded[skip:], "…" + now[skip:]
    return f"{path or '/'}: recorded {show(recorded)}, now {show(now)}"


def _shown(value: Any) -> str:
    text = canonical_json(value)
    return text if len(text) <= _SHOWN else f"{text[:_SHOWN]}… ({len(text.encode('utf-8'))} bytes)"
