"""Why a step is called: the six kinds of wake and the records they carry.

Every wake has a ``kind`` (``start``, ``event``, ``approval``, ``timer``,
``expired``, ``resume``), handy in messages and in ``match`` statements::

    match wake:
        case Start(input=params): ...
        case Event(topic="mail:invoice") as mail: ...
        case Approval() as answer if answer.is_for(request): ...
        case Timer(at=due): ...
        case Expired(request_id=rid): ...
        case Resume(): ...
"""

from dataclasses import dataclass
from typing import Any, Optional, Union


@dataclass(frozen=True)
class Start:
    """The first step of a run, with the start input: parsed JSON, ``None``
    when the run was started without one."""

    input: Any = None
    kind = "start"


@dataclass(frozen=True)
class Event:
    """An event the run waited for."""

    #: Unique per run: a redelivered event is not delivered twice.
    id: str
    #: The topic the run waited on, e.g. ``mail:invoice``.
    topic: str
    #: The event's body, parsed JSON.
    payload: Any
    #: When the host stored the event (ms since the Unix epoch, UTC).
    received_at: int
    kind = "event"


@dataclass(frozen=True)
class Approval:
    """A human's answer to an approval request."""

    #: The id of the request answered.
    request_id: str
    #: ``True`` to go ahead, ``False`` to refuse.
    approved: bool
    #: Who answered.
    by: str
    #: When the host received the answer (ms since the Unix epoch, UTC).
    at: int
    #: What the approver wrote, if anything.
    comment: Optional[str]
    #: The digest of the question and details that were answered.
    digest: str
    kind = "approval"

    def is_for(self, request) -> bool:
        """Whether this answers exactly ``request`` (an ``ApprovalRequest``):
        the same id, question and details. Act on an approval only if it is
        for the plan you hold."""
        return self.request_id == request.id and self.digest == request.digest()


@dataclass(frozen=True)
class Timer:
    """An ``until`` or ``cron`` wait fired; ``at`` is the time it was due
    (ms since the Unix epoch, UTC)."""

    at: int
    kind = "timer"


@dataclass(frozen=True)
class Expired:
    """The approval request ``request_id`` expired unanswered."""

    request_id: str
    kind = "expired"


@dataclass(frozen=True)
class Resume:
    """After ``Step.continue_()``, or an operator resumed the run."""

    kind = "resume"


Wake = Union[Start, Event, Approval, Timer, Expired, Resume]
