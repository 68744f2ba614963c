"""Waits the SDK remembers: approval requests and callback links a run asked
for, kept by the SDK (under ``"wakeful:waits"`` in the run's state dict,
hidden from the agent's ``step`` and ``migrate``) and re-waited on by every
step that waits, until answered or expired. The same design as the Rust
SDK's ``waits`` module: ``ask``, ``link``, ``answer_to(wake, id)``,
``keep_waiting()``."""

from dataclasses import dataclass
from typing import Any, Optional

from . import callback
from .step import ApprovalRequest, Next, Step, Wait
from .wake import Approval, Event, Expired, Timer

STATE_KEY = "wakeful:waits"

_outstanding = {"approvals": [], "links": []}
_answered = {"approvals": [], "links": []}


@dataclass(frozen=True)
class Answer:
    """What a wake says about a remembered request or link: ``kind`` is
    ``approved`` or ``refused`` (``value`` the ``Approval``), ``called``
    (``value`` the JSON body POSTed to the link) or ``expired``."""

    kind: str
    value: Any = None


def ask(id: str, question: str, details: Any, valid_for_ms: int) -> ApprovalRequest:
    """Asks a human, and remembers the request until answered or expired."""
    request = ApprovalRequest(id, question, details, valid_for_ms)
    kept = {"id": id, "question": question, "details": details, "valid_for_ms": valid_for_ms}
    _outstanding["approvals"] = [a for a in _outstanding["approvals"] if a["id"] != id] + [kept]
    return request


def link(id: str, valid_for_ms: int, idempotency_key: str) -> callback.Link:
    """Makes a callback link and remembers it until called or expired."""
    made = callback.create(id, valid_for_ms, idempotency_key)
    kept = {"id": id, "link": {"url": made.url, "topic": made.topic, "expires_at": made.expires_at}}
    _outstanding["links"] = [x for x in _outstanding["links"] if x["id"] != id] + [kept]
    return made


def outstanding() -> list:
    """The ids still open, approvals first."""
    return [a["id"] for a in _outstanding["approvals"]] + [x["id"] for x in _outstanding["links"]]


def keep_waiting() -> Step:
    """A wait on what the SDK remembers alone."""
    return Step(Next.Wait(()))


def _request(a: dict) -> ApprovalRequest:
    return ApprovalRequest(a["id"], a["question"], a["details"], a["valid_for_ms"])


def answer_to(wake, id: str) -> Optional[Answer]:
    """What ``wake`` says about the remembered request or link ``id``;
    ``None`` when it is about something else. An approval counts only if
    bound to the question and details asked."""
    for a in _answered["approvals"]:
        if a["id"] != id:
            continue
        if isinstance(wake, Approval) and wake.is_for(_request(a)):
            return Answer("approved" if wake.approved else "refused", wake)
        return Answer("expired") if isinstance(wake, Expired) else None
    for x in _answered["links"]:
        if x["id"] == id:
            return Answer("called", wake.payload) if isinstance(wake, Event) else Answer("expired")
    return None


def _settles(wake, kind: str, item: dict) -> bool:
    if kind == "approvals":
        return isinstance(wake, (Approval, Expired)) and item["id"] == getattr(wake, "request_id", getattr(wake, "id", None))
    if isinstance(wake, Event):
        return wake.topic == item["link"]["topic"]
    return isinstance(wake, Timer) and wake.at >= item["link"]["expires_at"]


def begin(state: Any, wake) -> Any:
    """Before a step: takes the memory out of the state, settles it."""
    memory = state.pop(STATE_KEY, None) if isinstance(state, dict) else None
    memory = memory or {}
    for kind in ("approvals", "links"):
        items = memory.get(kind, [])
        _answered[kind] = [i for i in items if _settles(wake, kind, i)]
        _outstanding[kind] = [i for i in items if not _settles(wake, kind, i)]
    return state


def finish(step: Step) -> Step:
    """After a step: adds the re-waits, or forgets all when done."""
    nxt = step.next
    if isinstance(nxt, Next.Done):
        _outstanding["approvals"], _outstanding["links"] = [], []
    if not isinstance(nxt, Next.Wait):
        return step
    waits = list(nxt.waits)
    extra = [Wait.approval(_request(a)) for a in _outstanding["approvals"]]
    for x in _outstanding["links"]:
        extra += [Wait.event(x["link"]["topic"]), Wait.until(x["link"]["expires_at"])]
    waits += [w for w in extra if w not in waits]
    if not waits:
        from .export import StepFailure

        raise StepFailure("the step waits on nothing: it kept waiting, but no approval request or callback link is outstanding")
    return type(step)(Next.Wait(tuple(waits)), step.status_text, step.new_state)


def store(state: Any) -> Any:
    """The state to save, with the memory when there is any."""
    memory = {k: v for k, v in _outstanding.items() if v}
    _outstanding["approvals"], _outstanding["links"] = [], []
    if not memory:
        return state
    if not isinstance(state, dict):
        from .export import StepFailure

        raise StepFailure(f'the SDK keeps approval requests and callback links under "{STATE_KEY}" in the state, but the state is not a dict')
    return {**state, STATE_KEY: memory}
