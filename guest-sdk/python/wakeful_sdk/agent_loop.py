"""An agent loop: a model chooses tool calls, the loop makes them through
the gate, feeds back the results and asks the model again, until it
answers. The same loop as the Rust SDK's ``agent_loop``, with the same keys.

The conversation lives in the run's state: ``new_loop(messages)`` is a
JSON-able dict to keep in the state, and ``advance(chat, config, wake)``
takes one step of it: one model call, or the model's pending tool calls,
or the answer to an approval. Every call's idempotency key is derived from
the loop's turn and the model's tool-call id (``loop:<turn>:model``,
``loop:<turn>:tool:<id>``), so a retried step gets the recorded results:
nothing is sent or charged twice. A call the host refuses with ``needs
approval`` becomes an approval request naming that exact call; the loop
waits for it, then makes the call, or tells the model it was refused::

    config = agent_loop.Config("llm", [agent_loop.LoopTool("kv", "Read a key", {"type": "object"})], self.tools)
    if isinstance(wake, Start):
        state = {"chat": agent_loop.new_loop([{"role": "user", "content": "What is in key a?"}])}
    step = agent_loop.advance(state["chat"], config, wake)
    if isinstance(step, agent_loop.Finished):
        step = Step.done(step.text() or "no answer")
    return step.with_state(state)
"""

import json
from dataclasses import dataclass
from typing import Any, List, Optional

from . import gated, tools
from .agent import StepError
from .step import ApprovalRequest, Step, Wait
from .tools import Denied, ToolError
from .wake import Approval, Expired

#: How long an approval request of the loop is open: a day.
APPROVAL_VALID_MS = 24 * 3_600_000


class LoopTool:
    """The host tool ``tool`` offered to the model as ``name`` (default: the
    tool's name). With ``under``, the model's arguments are sent as that
    field of the tool's arguments (``"body"`` for an ``http`` tool)."""

    def __init__(self, tool: str, description: str, parameters: Any, name: Optional[str] = None,
                 under: Optional[str] = None):
        self.tool = tool
        self.name = name or tool
        self.description = description
        self.parameters = parameters
        self.under = under

    def spec(self) -> dict:
        return {"name": self.name, "description": self.description, "parameters": self.parameters}


class Config:
    """The ``llm`` tool the loop asks, the tools it offers the model, each of
    which (and ``llm``) must be one of ``declared`` (the agent's ``tools``),
    and at most how many model calls it makes. ``model``, the model the
    agent was written against, is sent with every model call: the host
    refuses the call unless its ``llm`` tool is configured for it."""

    def __init__(self, llm: str, offered: List[LoopTool], declared: List[str], max_turns: int = 20,
                 prefix: str = "loop", model: Optional[str] = None):
        if llm not in declared:
            raise ValueError(f"the loop's model tool `{llm}` is not in the agent's tools {declared}")
        names = set()
        for t in offered:
            if t.tool not in declared:
                raise ValueError(f"the loop offers `{t.name}` (tool `{t.tool}`), which is not in the "
                                 f"agent's tools {declared}")
            if t.name in names:
                raise ValueError(f"the loop offers two tools named `{t.name}`")
            names.add(t.name)
        self.llm, self.tools, self.max_turns, self.prefix = llm, offered, max_turns, prefix
        self.model = model

    def find(self, name: str) -> Optional[LoopTool]:
        return next((t for t in self.tools if t.name == name), None)


@dataclass
class Finished:
    """The model answered without asking for tools; ``reply`` is the ``llm``
    tool's result."""

    reply: dict

    def text(self) -> Optional[str]:
        return self.reply["message"].get("content")


def new_loop(messages: List[dict]) -> dict:
    """The state of a loop that starts from ``messages``."""
    return {"messages": list(messages), "pending": [], "asked": None, "turn": 0}


def advance(chat: dict, config: Config, wake: Any):
    """One step of the loop ``chat`` (changed in place): a ``Step`` to return,
    or ``Finished``. A ``ToolError`` of the model call escapes: the step
    fails and is retried, every call made replayed, not repeated."""
    asked = chat.get("asked")
    if asked is not None:
        answer = _answer_to(asked, wake)
        if answer is None:
            return _wait_for(asked)
        chat["asked"] = None
        call = chat["pending"].pop(0)
        if answer is True:
            made = _make_or_ask(chat, config, call, approved=True)
            content = made if isinstance(made, str) else _error("the host still refuses this call after its approval")
        else:
            content = _error(answer)
        chat["messages"].append(_tool_message(call, content))
        return _run_pending(chat, config)
    if chat["pending"]:
        return _run_pending(chat, config)
    return _ask_model(chat, config)


def _run_pending(chat: dict, config: Config) -> Step:
    while chat["pending"]:
        call = chat["pending"][0]
        made = _make_or_ask(chat, config, call, approved=False)
        if isinstance(made, dict):
            chat["asked"] = made
            return _wait_for(made)
        chat["pending"].pop(0)
        chat["messages"].append(_tool_message(call, made))
    return Step.continue_().status(f"the model's turn {chat['turn']} answered")


def _make_or_ask(chat: dict, config: Config, call: dict, approved: bool):
    """The result text of ``call``, or the approval it needs (a dict)."""
    tool = config.find(call["name"])
    if tool is None:
        return _error(f"there is no tool named `{call['name']}`")
    key = f"{config.prefix}:{chat['turn']}:tool:{call['id']}" + (":approved" if approved else "")
    try:
        return tools.call_raw(tool.tool, call["args"], key)
    except Denied as e:
        if not e.message.startswith("needs approval"):
            return _error(str(e))
    except ToolError as e:
        return _error(str(e))
    named = gated.Call(tool.tool, json.loads(call["args"]))
    named.args = call["args"]  # the exact text that will be sent
    shown = call["args"] if len(call["args"]) <= 300 else call["args"][:300] + "…"
    request = gated.request(f"{config.prefix}-{chat['turn']}-{call['id']}",
                            f"Let the model call `{tool.tool}` with {shown}?", [named],
                            {"model_tool": call["name"], "turn": chat["turn"]}, APPROVAL_VALID_MS)
    return {"id": request.id, "question": request.question, "details": request.details}


def _ask_model(chat: dict, config: Config):
    if chat["turn"] >= config.max_turns:
        raise StepError(f"the loop made its {config.max_turns} model calls (max_turns) without an answer")
    request = {"messages": chat["messages"], "tools": [t.spec() for t in config.tools]}
    if config.model is not None:
        request["model"] = config.model
    reply = tools.call(config.llm, request, f"{config.prefix}:{chat['turn'] + 1}:model")
    chat["turn"] += 1
    message = reply["message"]
    chat["messages"].append(message)
    calls = message.get("tool_calls") or []
    if reply["stop_reason"] != "tool_calls" or not calls:
        return Finished(reply)
    chat["pending"] = [{"id": c["id"], "name": c["name"], "args": _tool_args(config, c)} for c in calls]
    return Step.continue_().status("the model asks for " + ", ".join(c["name"] for c in calls))


def _tool_args(config: Config, call: dict) -> str:
    """The exact argument text for the model's ``call``: compact, keys sorted
    (as the Rust SDK writes it)."""
    tool = config.find(call["name"])
    args = call["arguments"]
    if tool is not None and tool.under:
        args = {tool.under: args}
    return json.dumps(args, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def _request(asked: dict) -> ApprovalRequest:
    return ApprovalRequest(asked["id"], asked["question"], asked["details"], APPROVAL_VALID_MS)


def _answer_to(asked: dict, wake: Any):
    """``None`` while ``wake`` is not the answer; ``True`` to make the call;
    else what to tell the model."""
    if isinstance(wake, Approval) and wake.request_id == asked["id"]:
        if not wake.is_for(_request(asked)):
            return "the approval answered another question"
        if wake.approved:
            return True
        return f"refused: {wake.by} rejected this call ({wake.comment or 'no reason given'})"
    if isinstance(wake, Expired) and wake.request_id == asked["id"]:
        return "refused: nobody approved this call in time"
    return None


def _wait_for(asked: dict) -> Step:
    return Step.wait(Wait.approval(_request(asked))).status(f"waiting for approval {asked['id']}")


def _tool_message(call: dict, content: str) -> dict:
    return {"role": "tool", "tool_call_id": call["id"], "content": content}


def _error(message: str) -> str:
    return json.dumps({"error": message}, separators=(",", ":"), ensure_ascii=False)
