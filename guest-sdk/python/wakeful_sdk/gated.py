"""Calls of tools the host lets through only with an approval: ask a human
to approve exactly these calls, then make them with the same arguments.

A host configured with ``[approvals.tools.<name>] requires_approval = true``
refuses every call of that tool (``denied: needs approval``) unless the run
holds an approved request whose details name the call: its tool, its
arguments and the SHA-256 of their exact text. Each named call may be made
once::

    refund = gated.Call("refunds", {"order": "9482", "amount_usd": 120.0})
    ask = gated.request("refund-9482", "Refund 120.00 USD?", [refund], {"reason": "late"}, 3_600_000)
    return Step.wait_approval(ask)
    # ... once approved:
    refund.call("refund-9482:pay")
"""

import hashlib
from typing import Any, Iterable, Optional

from . import tools
from .jsontext import from_json
from .step import ApprovalRequest, check_text, to_json


class Call:
    """One call to approve and then make: its tool and the exact argument
    text (``args``), which the approval is bound to."""

    def __init__(self, tool: str, args: Any):
        check_text("the tool name", tool)
        try:
            self.args = to_json(args)
        except (TypeError, ValueError) as e:
            raise tools.Invalid(f"the arguments for tool '{tool}' are not JSON: {e}", tool) from None
        self.tool = tool

    def args_sha256(self) -> str:
        """Lowercase hex SHA-256 of the argument text, as the host computes it."""
        return hashlib.sha256(self.args.encode("utf-8")).hexdigest()

    def named(self) -> dict:
        """How the approval's details name this call."""
        return {"tool": self.tool, "args": from_json(self.args), "args_sha256": self.args_sha256()}

    def call(self, idempotency_key: str) -> Any:
        """Makes the call with the approved arguments; returns its parsed result."""
        return tools.read_result(self.tool, tools.call_raw(self.tool, self.args, idempotency_key))

    def __repr__(self) -> str:
        return f"Call({self.tool!r}, {self.args})"


def details(calls: Iterable[Call], extra: Optional[Any] = None) -> dict:
    """``{"calls": [...]}`` and the fields of ``extra`` (a dict; anything else
    is kept under ``"about"``), shown to the approver."""
    if extra is None:
        out = {}
    elif isinstance(extra, dict):
        out = dict(extra)
    else:
        out = {"about": extra}
    out["calls"] = [c.named() for c in calls]
    return out


def request(id: str, question: str, calls: Iterable[Call], extra: Optional[Any] = None,
            valid_for_ms: int = 3_600_000) -> ApprovalRequest:
    """An approval request for exactly ``calls``."""
    return ApprovalRequest(id, question, details(calls, extra), valid_for_ms)
