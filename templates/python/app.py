"""{{name}}: a wakeful agent.

The host calls ``step`` once per wakeup with the run's state and why it
woke; the step changes the state and says what to wait for next. The host
saves the state after every step.

Rules of a step:

- never block: return what to wait for (an event, an approval, a time);
- act on the world only through tool calls, each with an idempotency key
  that names what it means: a step is retried after a crash, and the host
  runs each key once per run;
- use ``now()``, the step's logical time, not the system clock.

Only the state survives a step: each step may run in a fresh instance, so
module globals and attributes are not state.
"""

from wakeful_sdk import Agent, Event, Start, Step, StepError, ToolError, export, kv, log, now, run_id

NAME = "{{name}}"
#: The topic this agent waits on.
TOPIC = f"{NAME}:go"


class MyAgent(Agent):
    name = NAME  # the agent's name in the host
    version = "0.1.0"  # bump it for every build you deploy
    tools = ["kv"]  # what it asks the operator to grant
    description = f"Waits for {TOPIC} and records its payload in kv."

    def init(self):
        # A new run's state: its first step gets it, and every step changes
        # it in place (or returns another with `.with_state(state)`).
        return {"input": None, "started_at": None, "handled": None}

    def step(self, state, wake):
        if isinstance(wake, Start):
            # The first step: keep the input for later steps.
            state["input"] = wake.input
            state["started_at"] = now()
            return Step.wait_event(TOPIC).status(f"waiting for {TOPIC}")
        if isinstance(wake, Event) and wake.topic == TOPIC:
            key = f"{NAME}/{run_id()}"
            # Keyed by the event: a retried step writes it once.
            try:
                kv.put(key, wake.payload, None, f"record:{wake.id}")
            except ToolError as e:
                raise StepError(f"kv put {key}: {e}") from None
            log.info(f"recorded {key}")
            state["handled"] = wake.id
            return Step.done(f"recorded {key}").status("done")
        # Anything else while waiting: keep waiting.
        return Step.wait_event(TOPIC).status(f"waiting for {TOPIC}")


# What componentize-py builds the component from.
WitWorld = export(MyAgent)
