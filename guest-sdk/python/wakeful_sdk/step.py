"""What a step returns: ``Step``, ``Next`` and ``Wait``; approval requests
and the digest an answer is bound to.

    # Wait for the email, but give up at a deadline.
    Step.wait_event("mail:invoice").or_(Wait.until(1_800_000_000_000)).status("waiting on the invoice email")

Builders return a new ``Step``; a ``Step`` is never changed in place.
"""

import hashlib
from dataclasses import dataclass, field
from typing import Any, Optional, Tuple

from .jsontext import to_json

U64_MAX = 2**64 - 1


def canonical_json(value: Any) -> str:
    """The stable text of a JSON value: compact, keys sorted. The same value
    always gives the same text, and the text is the one the Rust SDK writes
    for the same value (``serde_json::Value`` keeps keys sorted), so an
    approval asked again after a retry is the same request."""
    return to_json(value, sort_keys=True)


def approval_digest(question: str, details: str) -> str:
    """Lowercase hex SHA-256 of the question's byte length (8 bytes,
    big-endian), the question, then the details text: what the host binds an
    approval answer to (``wit/agent.wit``, record ``approval``)."""
    q = question.encode("utf-8")
    h = hashlib.sha256()
    h.update(len(q).to_bytes(8, "big"))
    h.update(q)
    h.update(details.encode("utf-8"))
    return h.hexdigest()


def check_u64(what: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int (ms or a count), got {type(value).__name__}: {value!r}")
    if not 0 <= value <= U64_MAX:
        raise ValueError(f"{what} must be between 0 and 2**64-1, got {value}")
    return value


def check_text(what: str, value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, got {type(value).__name__}: {value!r}")
    return value


@dataclass(frozen=True)
class ApprovalRequest:
    """A question for a human, answered with an ``Approval`` wake or, when
    nobody answers in time, an ``Expired`` wake.

    ``id`` is unique within the run. Asking again with the same id, question
    and details waits for the same request; changed question or details
    replace it (earlier links and answers are void). An id that was answered
    or expired cannot be asked again: use a new one. ``details`` (any JSON
    value) is shown to the approver: the plan and its reason; an answer is
    bound to it. Answers are accepted for ``valid_for_ms``.
    """

    id: str
    question: str
    details: Any
    valid_for_ms: int

    def __post_init__(self):
        check_text("ApprovalRequest.id", self.id)
        check_text("ApprovalRequest.question", self.question)
        check_u64("ApprovalRequest.valid_for_ms", self.valid_for_ms)
        # Fails here, where the author built it, if the details are not JSON.
        self.details_text()

    def details_text(self) -> str:
        """The details as the host receives them (stable JSON)."""
        try:
            return canonical_json(self.details)
        except (TypeError, ValueError) as e:
            raise TypeError(f"the details of approval request {self.id!r} are not JSON: {e}") from None

    def digest(self) -> str:
        """The digest an answer to this request carries when it answered
        exactly this question and these details."""
        return approval_digest(self.question, self.details_text())


@dataclass(frozen=True)
class Wait:
    """One thing a sleeping run can be woken by. Make one with
    ``Wait.event``, ``Wait.approval``, ``Wait.until`` or ``Wait.cron``.

    ``kind`` is ``event`` (``value``: the topic), ``approval`` (an
    ``ApprovalRequest``), ``until`` (ms since the Unix epoch, UTC) or
    ``cron`` (a five-field expression, UTC).
    """

    kind: str
    value: Any

    @staticmethod
    def event(topic: str) -> "Wait":
        """An event on ``topic``."""
        return Wait("event", check_text("the event topic", topic))

    @staticmethod
    def approval(id, question: Optional[str] = None, details: Any = None, valid_for_ms: Optional[int] = None) -> "Wait":
        """An answer to the approval request ``id``; after ``valid_for_ms``
        the run wakes with ``Expired(id)`` instead. ``Wait.approval(request)``
        waits for an ``ApprovalRequest`` made beforehand."""
        if isinstance(id, ApprovalRequest) and question is None and details is None and valid_for_ms is None:
            return Wait("approval", id)
        return Wait("approval", ApprovalRequest(id, question, details, valid_for_ms))

    @staticmethod
    def until(at_ms: int) -> "Wait":
        """The time ``at_ms`` (ms since the Unix epoch, UTC)."""
        return Wait("until", check_u64("the time to wait until", at_ms))

    @staticmethod
    def cron(expression: str) -> "Wait":
        """The next tick of a five-field cron expression (UTC), e.g. ``"0 9 * * *"``."""
        return Wait("cron", check_text("the cron expression", expression))


class Next:
    """What the run does after a step: ``Next.Continue()``,
    ``Next.Wait(waits)`` or ``Next.Done(outcome)``."""

    @dataclass(frozen=True)
    class Continue:
        """Step again right away, with a ``Resume`` wake."""

    @dataclass(frozen=True)
    class Wait:
        """Sleep until any one of ``waits`` happens."""

        waits: Tuple[Wait, ...]

    @dataclass(frozen=True)
    class Done:
        """The run is finished; ``outcome`` is its line for operators."""

        outcome: str


_UNSET = object()


@dataclass(frozen=True)
class Step:
    """The result of a step: what comes next (``next``), and what a user sees
    (``status_text``, set with ``.status(text)``; ``None`` keeps the previous
    one).

    The state the host keeps is the ``state`` object the step was given
    (change it in place), or the value set with ``with_state``.
    """

    next: Any
    status_text: Optional[str] = None
    new_state: Any = field(default=_UNSET, compare=False, repr=False)

    @staticmethod
    def continue_() -> "Step":
        """Step again right away (the next wake is ``Resume``)."""
        return Step(Next.Continue())

    @staticmethod
    def done(outcome: str) -> "Step":
        """Finish the run with ``outcome``, a line for operators."""
        return Step(Next.Done(check_text("the outcome", outcome)))

    @staticmethod
    def wait(*waits: Wait) -> "Step":
        """Sleep until any one of ``waits`` happens."""
        for w in waits:
            if not isinstance(w, Wait):
                raise TypeError(f"Step.wait takes Wait values (Wait.event(...), ...), got {type(w).__name__}: {w!r}")
        return Step(Next.Wait(tuple(waits)))

    @staticmethod
    def wait_event(topic: str) -> "Step":
        """Sleep until an event on ``topic`` arrives."""
        return Step.wait(Wait.event(topic))

    @staticmethod
    def wait_approval(id: str, question: str, details: Any, valid_for_ms: int) -> "Step":
        """Ask a human and sleep until the answer, or until the request expires."""
        return Step.wait(Wait.approval(id, question, details, valid_for_ms))

    @staticmethod
    def wait_until(at_ms: int) -> "Step":
        """Sleep until the time ``at_ms`` (ms since the Unix epoch, UTC)."""
        return Step.wait(Wait.until(at_ms))

    @staticmethod
    def wait_cron(expression: str) -> "Step":
        """Sleep until the next tick of a five-field cron expression (UTC)."""
        return Step.wait(Wait.cron(expression))

    # The builders make the new Step from its three fields rather than with
    # ``dataclasses.replace``, which walks the fields in Python: in a
    # guest's interpreter that was 7-11% of a step's instructions.

    def or_(self, wait: Wait) -> "Step":
        """Also wake on ``wait``: the run wakes on whichever happens first. On
        a step that continues or is done, this makes it a wait on ``wait``
        alone."""
        if not isinstance(wait, Wait):
            raise TypeError(f"Step.or_ takes a Wait, got {type(wait).__name__}: {wait!r}")
        waits = self.next.waits if isinstance(self.next, Next.Wait) else ()
        return type(self)(Next.Wait(waits + (wait,)), self.status_text, self.new_state)

    def status(self, text: str) -> "Step":
        """Sets what a user sees until the next step (``status_text``)."""
        return type(self)(self.next, check_text("the status", text), self.new_state)

    def with_state(self, state: Any) -> "Step":
        """Makes ``state`` the run's new state (instead of the object the
        step was given): needed on the first step, whose state is ``None``."""
        return type(self)(self.next, self.status_text, state)

    @property
    def outcome(self) -> Optional[str]:
        """The outcome of a step that finishes the run, else ``None``."""
        return self.next.outcome if isinstance(self.next, Next.Done) else None

    @property
    def waits(self) -> Tuple[Wait, ...]:
        """What a waiting step waits for (empty otherwise)."""
        return self.next.waits if isinstance(self.next, Next.Wait) else ()
