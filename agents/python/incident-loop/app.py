"""The incident agent as a model-driven loop, in Python: a port of
``agents/incident-loop`` (Rust) with the same tools, keys and approvals.
The model keeps notes in ``kv``, pages the on-call engineer through the
``pager`` tool and scales the service out with the ``scale`` tool, which a
host configures ``requires_approval``: such a call waits for a human and is
made only once approved. The loop (``wakeful_sdk.agent_loop``) keeps the
conversation in the run's state and keys every call by its turn, so a
crash repeats nothing and charges nothing twice.

Start input: ``{"incident": "INC-7", "service": "payments-api",
"summary": "p99 latency 4s, memory 97%"}``. The run ends with the model's
last answer.
"""

from wakeful_sdk import Agent, Start, Step, StepError, agent_loop, export
from wakeful_sdk.agent_loop import Config, Finished, LoopTool

SYSTEM = ("You are the on-call assistant for a production incident. "
          "Use the tools: keep notes in kv under incidents/<id>/, page the on-call engineer "
          "when a human must know, and scale the service out when it lacks capacity (a human "
          "approves each scale action). Finish with a one-line summary of what you did.")

TOOLS = ["llm", "kv", "pager", "scale"]


def config() -> Config:
    kv = LoopTool("kv", "Read (op get) or write (op put, with a JSON value) a note of the incident.",
                  {"type": "object", "properties": {
                      "op": {"type": "string", "enum": ["get", "put"]},
                      "key": {"type": "string"}, "value": {}},
                   "required": ["op", "key"]})
    pager = LoopTool("pager", "Page the on-call engineer with a short message.",
                     {"type": "object", "properties": {"message": {"type": "string"}},
                      "required": ["message"]}, name="page_oncall", under="body")
    scale = LoopTool("scale", "Scale a service out to more replicas; a human approves each call.",
                     {"type": "object", "properties": {
                         "service": {"type": "string"}, "replicas": {"type": "integer"}},
                      "required": ["service", "replicas"]}, name="scale_out", under="body")
    return Config("llm", [kv, pager, scale], TOOLS)


class IncidentLoop(Agent):
    name = "incident-loop-py"
    version = "0.1.0"
    tools = TOOLS
    description = "Handles a service incident as a model-driven loop over kv, the pager and scaling."

    def step(self, state, wake):
        if isinstance(wake, Start):
            try:
                i = wake.input
                user = f"Incident {i['incident']} on {i['service']}: {i['summary']}"
            except (TypeError, KeyError) as e:
                raise StepError(f"the start input does not fit this agent: missing {e}")
            state = {"chat": agent_loop.new_loop([{"role": "system", "content": SYSTEM},
                                                  {"role": "user", "content": user}])}
        step = agent_loop.advance(state["chat"], config(), wake)
        if isinstance(step, Finished):
            text = step.text() or f"the model stopped ({step.reply['stop_reason']})"
            step = Step.done(text).status("incident handled")
        return step.with_state(state)


WitWorld = export(IncidentLoop)
