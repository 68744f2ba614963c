"""Write wakeful agents in plain Python.

An agent is a step function over a JSON state: the host loads the run's
state, calls ``Agent.step(state, wake)`` with the reason it woke, saves the
new state and puts the run to sleep until what the returned ``Step`` waits
for happens. Side effects go through ``tools`` (and ``kv``, ``lease``,
``callback``), each call with an idempotency key. The component is built
with componentize-py from an ``app.py`` that ends with
``WitWorld = export(MyAgent)``.

A complete agent (``agents/python/invoice-mail/app.py``)::

    from wakeful_sdk import Agent, Event, Step, StepError, ToolError, export, kv, log

    TOPIC = "mail:invoice"

    class InvoiceMail(Agent):
        name = "invoice-mail-py"
        version = "0.1.0"
        tools = ["kv"]
        description = "Files the invoice email once it arrives."

        def step(self, state, wake):
            state = state or {"filed": None}
            if isinstance(wake, Event) and wake.topic == TOPIC:
                key = f"invoices/{wake.id}"
                try:
                    kv.put(key, wake.payload, None, f"file:{wake.id}")
                except ToolError as e:
                    raise StepError(f"kv put {key}: {e}")
                log.info(f"filed {key}")
                state["filed"] = wake.id
                return Step.done(f"filed invoice mail {wake.id}").status("invoice filed").with_state(state)
            return Step.wait_event(TOPIC).status("waiting on the invoice email").with_state(state)

    WitWorld = export(InvoiceMail)

Modules: ``agent`` (Agent, StepError), ``wake`` (the wakes), ``step`` (Step,
Wait, Next, ApprovalRequest, approval_digest), ``tools`` (call, ToolError
and its kinds), ``kv``, ``lease``, ``callback``, ``gated`` (ask approval of calls, then make them), ``agent_loop`` (a model-driven
loop: keyed calls, gated approvals), ``host`` (now, run_id,
log), ``export`` (export), ``testing`` (the fake host for native tests).

Rules of a step: it never blocks (it returns what to wait for); it may be
retried, so everything it does outside its state goes through a tool call
whose idempotency key names what the call means; it reads the time with
``now()``; it keeps its state small and JSON-able.
"""

from . import agent_loop, callback, gated, kv, lease, tools, waits
from .agent import Agent, StepError
from .export import export
from .host import log, now, run_id
from .step import ApprovalRequest, Next, Step, Wait, approval_digest, canonical_json
from .tools import Budget, Denied, Failed, Invalid, ToolError, Unknown
from .wake import Approval, Event, Expired, Resume, Start, Timer, Wake

__all__ = [
    "Agent",
    "Approval",
    "ApprovalRequest",
    "Budget",
    "Denied",
    "Event",
    "Expired",
    "Failed",
    "Invalid",
    "Next",
    "Resume",
    "Start",
    "Step",
    "StepError",
    "Timer",
    "ToolError",
    "Unknown",
    "Wait",
    "Wake",
    "agent_loop",
    "approval_digest",
    "callback",
    "canonical_json",
    "export",
    "gated",
    "kv",
    "lease",
    "log",
    "now",
    "run_id",
    "tools",
    "waits",
]
