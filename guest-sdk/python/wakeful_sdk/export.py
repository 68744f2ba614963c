"""The glue between the WIT exports and an ``Agent``: JSON state in and out,
typed wakes and steps, and every failure of a step turned into the error
text the operator reads.

``export(MyAgent)`` returns the ``WitWorld`` class componentize-py looks for
in the app module::

    WitWorld = export(InvoiceMail)

The functions ``run_step`` and ``run_migrate`` hold everything but the WIT
conversions, so that ``wakeful_sdk.testing`` runs the same code natively.
"""

import traceback
from typing import Any, Tuple

from . import host
from .agent import Agent, StepError
from . import waits as _waits
from .jsontext import from_json
from .seeding import defer_seeding
from .step import U64_MAX, ApprovalRequest, Next, Step, Wait, _UNSET, to_json
from .tools import ToolError, excerpt
from .warm import warm_up
from .wake import Approval, Event, Expired, Resume, Start, Timer

#: What the host keeps of a guest's error is 4096 bytes; the SDK keeps its
#: message below that, so that the end (the author's line) is never cut.
MAX_ERROR_BYTES = 3500
#: Lines of traceback an error message carries: the innermost frames.
TRACEBACK_LINES = 12
# Budgets (bytes) of the parts: the first line, the cause, each frame line.
_HEAD_BYTES = 1000
_CAUSE_BYTES = 300
_LINE_BYTES = 160


class StepFailure(Exception):
    """A step or migrate failed; ``message`` is the ``err`` the host gets."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def export(agent):
    """The ``WitWorld`` class componentize-py needs, for an ``Agent``
    subclass (or instance). Checks the manifest at once, so a missing name
    or version fails the build rather than the first step."""
    agent = agent() if isinstance(agent, type) else agent
    manifest = agent_info(agent)
    base = _world_base()
    if base is object:
        # Natively (unit tests without the fake bindings): a plain class.
        class WitWorld:
            pass

        WitWorld.agent = agent
        return WitWorld
    wit = _Wit()

    class WitWorld(base):
        def info(self):
            name, version, tools, description = manifest
            return wit.t.AgentInfo(name=name, version=version, tools=list(tools), description=description)

        def step(self, state, wake):
            try:
                text, step = run_step(agent, state, wit.wake(wake))
                result = wit.result(step, text)
            except BaseException as e:  # noqa: B036 - nothing may escape as a trap
                raise wit.Err(failure_message(e)) from None
            return result

        def migrate(self, from_version, state):
            try:
                return run_migrate(agent, from_version, state)
            except BaseException as e:  # noqa: B036
                raise wit.Err(failure_message(e)) from None

    WitWorld.__qualname__ = WitWorld.__name__ = "WitWorld"
    WitWorld.agent = agent
    # What the steps would otherwise do again each, in the snapshot every
    # step starts from: find the host's imports, seed nothing before a
    # draw, run the glue once.
    host.current()
    defer_seeding()
    warm_up(wit)
    return WitWorld


class _Wit:
    """The generated WIT types and the conversions to and from them, looked
    up once. An ``import`` statement inside a function runs at every call:
    about 7,500 wasm instructions each in a guest's interpreter, three a
    step before these were bound here."""

    def __init__(self):
        import wit_world.imports.types as t
        from componentize_py_types import Err

        self.t = t
        self.Err = Err
        self.wakes = {
            t.Wake_Start: lambda w: Start(_parse(w.value, "the start input")),
            t.Wake_Event: _event,
            t.Wake_Approval: _approval,
            t.Wake_Timer: lambda w: Timer(w.value),
            t.Wake_Expired: lambda w: Expired(w.value),
            t.Wake_Resume: lambda w: Resume(),
        }

    def wake(self, wake):
        """The SDK's wake for the host's."""
        convert = self.wakes.get(type(wake))
        if convert is None:
            raise StepFailure(f"a wake this SDK does not know: {wake!r}")
        return convert(wake)

    def result(self, step: Step, state_text: str):
        """The host's step result, with the already encoded state. Records
        are made with positional arguments, in the WIT's field order:
        keywords cost a guest about 4,000 instructions more per record."""
        t = self.t
        nxt = step.next
        if isinstance(nxt, Next.Wait):
            wit_next = t.Next_Wait([self.wait(w) for w in nxt.waits])
        elif isinstance(nxt, Next.Done):
            wit_next = t.Next_Done(nxt.outcome)
        else:
            wit_next = t.Next_Continue()
        return t.StepResult(state_text, wit_next, step.status_text)

    def wait(self, wait: Wait):
        t = self.t
        kind = wait.kind
        if kind == "event":
            return t.WaitFor_Event(wait.value)
        if kind == "until":
            return t.WaitFor_Until(wait.value)
        if kind == "cron":
            return t.WaitFor_Cron(wait.value)
        r = wait.value
        # Stable JSON: asking again after a retry yields the same request, and
        # answers are bound to this text.
        return t.WaitFor_Approval(t.ApprovalRequest(r.id, r.question, r.details_text(), r.valid_for_ms))


def _event(wake) -> Event:
    e = wake.value
    return Event(e.id, e.topic, _parse(e.payload, "the payload of event {}", e.id), e.received_at)


def _approval(wake) -> Approval:
    a = wake.value
    return Approval(a.request_id, a.approved, a.by, a.at, a.comment, a.digest)


def _world_base():
    try:
        import wit_world

        return wit_world.WitWorld
    except ImportError:
        return object


def agent_info(agent) -> Tuple[str, str, Tuple[str, ...], str]:
    """The manifest of ``agent``: name, version, tools, description."""
    who = type(agent).__name__
    if not isinstance(agent, Agent):
        raise TypeError(f"export takes a subclass of wakeful_sdk.Agent, got {who}")
    for field in ("name", "version", "description"):
        value = getattr(agent, field, None)
        if not isinstance(value, str) or (field != "description" and not value.strip()):
            raise TypeError(f"{who}.{field} must be a non-empty str, got {value!r}")
    tools = agent.tools
    if isinstance(tools, str) or not all(isinstance(t, str) for t in tools):
        raise TypeError(f'{who}.tools must be a list of tool names, e.g. ["kv", "llm"], got {tools!r}')
    return agent.name, agent.version, tuple(tools), agent.description


def decode_state(text: str, what: str) -> Any:
    """The host hands a new run ``""`` or ``"null"``: both are ``None``."""
    if not text or text == "null" or not text.strip():
        return None
    try:
        return from_json(text)
    except ValueError as e:
        raise StepFailure(f"{what} is not JSON: {e}") from None


def encode_state(state: Any) -> str:
    try:
        return to_json(state)
    except (TypeError, ValueError) as e:
        raise StepFailure(f"the new state cannot be written as JSON: {e}") from None


def run_step(agent, state_text: str, wake) -> Tuple[str, Step]:
    """One step: decodes the state, calls ``agent.step``, checks what it
    returned and encodes the new state. Raises what the step raised, or a
    ``StepFailure`` for a state or a result the SDK cannot use."""
    state = _waits.begin(decode_state(state_text, "the saved state"), wake)
    if state is None:
        state = agent.init()
    step = agent.step(state, wake)
    if not isinstance(step, Step):
        raise StepFailure(
            f"{type(agent).__name__}.step returned {excerpt(repr(step), 200)} ({type(step).__name__}), not a Step: "
            "end it with `return Step.continue_()`, `Step.done(...)`, `Step.wait_event(...)`, ..."
        )
    check_step(step)
    step = _waits.finish(step)
    if step.new_state is _UNSET:
        if state is None and not isinstance(step.next, Next.Done):
            raise StepFailure(no_state_left(agent))
        new_state = state
    else:
        new_state = step.new_state
    return encode_state(_waits.store(new_state)), step


def no_state_left(agent) -> str:
    """Why a step that was given no state and set none is refused: the run
    would go on with ``None``, and its next step fail on it, far from the
    cause."""
    who = type(agent).__name__
    return (
        f"the step was given no state (None: {who} has no init, or init returned None) and set none, "
        "so the run would go on with no state: give new runs a state with "
        f"`def init(self): return {{...}}` on {who}, or end the step with `.with_state(state)` "
        "(binding `state` to a new value inside step does not change the run's state)"
    )


def run_migrate(agent, from_version: str, state_text: str) -> str:
    """The ``migrate`` export, without the WIT types."""
    old = decode_state(state_text, f"the state saved by version {from_version}")
    # The SDK's waits cross the upgrade without the agent's migrate seeing them.
    kept = old.pop(_waits.STATE_KEY, None) if isinstance(old, dict) else None
    new = agent.migrate(from_version, old)
    if kept is not None:
        if not isinstance(new, dict):
            raise StepFailure("the run waits on requests the SDK keeps in the state, but migrate returned no dict")
        new = {**new, _waits.STATE_KEY: kept}
    return encode_state(new)


def check_step(step: Step) -> None:
    """Refuses a ``Step`` built by hand with values the host cannot take."""
    nxt = step.next
    if isinstance(nxt, Next.Wait):
        for w in nxt.waits:
            ok = isinstance(w, Wait) and (
                (w.kind in ("event", "cron") and isinstance(w.value, str))
                or (w.kind == "until" and _is_u64(w.value))
                or (w.kind == "approval" and isinstance(w.value, ApprovalRequest))
            )
            if not ok:
                raise StepFailure(f"the step waits for {w!r}, which is not a Wait made by Wait.event/approval/until/cron")
    elif isinstance(nxt, Next.Done):
        if not isinstance(nxt.outcome, str):
            raise StepFailure(f"the outcome must be a str, got {nxt.outcome!r}")
    elif not isinstance(nxt, Next.Continue):
        raise StepFailure(f"Step.next must be Next.Continue, Next.Wait or Next.Done, got {nxt!r}")
    if step.status_text is not None and not isinstance(step.status_text, str):
        raise StepFailure(f"the status must be a str, got {step.status_text!r}")


def _is_u64(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= U64_MAX


def _parse(text: str, what: str, *names) -> Any:
    """Start inputs and event payloads are JSON by contract; empty text is
    no value (a run started without input). ``what`` is formatted with
    ``names`` only when the text is refused: formatting costs a guest at
    every call."""
    if not text or not text.strip():
        return None
    try:
        return from_json(text)
    except ValueError as e:
        raise StepFailure(f"{what.format(*names)} is not JSON: {e}") from None


def failure_message(error: BaseException) -> str:
    """The ``err`` text for an exception that ended a step or a migrate.

    ``StepError`` and the SDK's own refusals are their message alone. An
    uncaught ``ToolError`` reads ``tool kv failed: <message>``; any other
    exception ``<Type>: <message>``; both followed by the innermost frames
    of the traceback, so the operator sees the author's own line.
    """
    if isinstance(error, (StepError, StepFailure)):
        return _bound(error.message)
    if isinstance(error, ToolError):
        head = error.summary()
    else:
        head = _exception_line(error)
    lines = [_cut(head, _HEAD_BYTES)]
    cause = error.__cause__ or (None if error.__suppress_context__ else error.__context__)
    if cause is not None:
        lines.append(_cut("caused by " + _exception_line(cause), _CAUSE_BYTES))
    frames = _author_frames(error)
    if frames:
        lines.append(f"Traceback (innermost {TRACEBACK_LINES} lines at most):")
        text = "".join(traceback.format_list(frames)).splitlines()
        # Python 3.11 underlines the failing expression; the code line is enough.
        tail = [line for line in text if line.strip().strip("^~")][-TRACEBACK_LINES:]
        lines.extend(_cut(line, _LINE_BYTES) for line in tail)
    return _bound("\n".join(lines))


def _exception_line(error: BaseException) -> str:
    name = type(error).__qualname__
    module = type(error).__module__
    if module not in ("builtins", "__main__"):
        name = f"{module}.{name}"
    text = str(error)
    return f"{name}: {text}" if text else name


def _author_frames(error: BaseException):
    """The traceback without the SDK's frames around the author's: the
    export wrapper above, the SDK function that raised below."""
    frames = traceback.extract_tb(error.__traceback__)
    inner = list(frames)
    while inner and _in_sdk(inner[0].filename):
        inner.pop(0)
    while inner and _in_sdk(inner[-1].filename):
        inner.pop()
    return inner or frames


def _in_sdk(filename: str) -> bool:
    return "wakeful_sdk" in filename.replace("\\", "/").split("/")


def _cut(text: str, limit: int) -> str:
    """``text`` in at most about ``limit`` bytes of UTF-8, saying how much
    was cut."""
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    keep = max(limit - 24, 0)
    return data[:keep].decode("utf-8", "ignore") + f"… ({len(data) - keep} more bytes)"


def _bound(text: str) -> str:
    return _cut(text, MAX_ERROR_BYTES)
