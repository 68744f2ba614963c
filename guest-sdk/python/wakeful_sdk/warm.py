"""The SDK's code run while componentize-py builds the component, so that
every step finds it already specialised.

The component's memory is a snapshot taken after ``app.py`` is imported,
and every step starts from it. Python specialises bytecode as it runs it,
writing into the code objects: what ran before the snapshot is in it; what
did not is specialised again by every step, and in a guest's interpreter
that doubles the cost of code run once (``kv.put`` took about 105,000
instructions cold, against 50,000 warmed).

``warm_up`` runs the glue around a step (JSON in and out, every kind of
wake and wait, the WIT types) and the tool helpers (``kv``, ``lease``,
``callback``, ``tools.call``, ``log``, ``now``) against a stand-in for the
host's imports, calling neither the agent nor the host.
"""

import types

from . import callback, host, kv, lease, tools
from .jsontext import from_json
from .step import _UNSET, Step, Wait

#: Passes of ``warm_up``: enough for Python to specialise what it runs.
WARM_UP_ROUNDS = 16

# What the stand-in answers, by tool and op: the shapes the host returns.
_ANSWERS = {
    ("kv", "get"): '{"value":{"k":[1,"v"]},"version":3}',
    ("kv", "put"): '{"ok":true,"version":4}',
    ("kv", "delete"): '{"ok":true,"version":5}',
    ("lease", "acquire"): '{"granted":true,"holder":"h","expires_at":5}',
    ("lease", "release"): '{"released":true}',
    ("callback", "create"): '{"url":"http://127.0.0.1/v1/callback/t","topic":"callback:c","expires_at":5}',
}


def warm_up(wit, rounds: int = WARM_UP_ROUNDS) -> None:
    """Runs the step glue and the tool helpers ``rounds`` times; ``wit`` is
    the export's bound WIT types."""
    from .export import check_step, decode_state, encode_state

    t = wit.t
    state_text = '{"a": [1, 2.5, "x", null, true], "b": {"c": {"d": "e"}}, "n": 0}'
    event = t.Event(id="e", topic="t", payload='{"k": [1, "v"]}', received_at=1)
    approval = t.Approval(request_id="r", approved=True, by="b", at=1, comment=None, digest="d")
    wakes = [
        t.Wake_Start("{}"),
        t.Wake_Event(event),
        t.Wake_Approval(approval),
        t.Wake_Timer(1),
        t.Wake_Expired("r"),
        t.Wake_Resume(),
    ]
    steps = [
        lambda s: Step.continue_().with_state(s),
        lambda s: Step.done("done").status("s"),
        lambda s: Step.wait_event("t").or_(Wait.until(1)).or_(Wait.cron("0 * * * *")).status("s"),
        lambda s: Step.wait_approval("r", "q", {"k": s["b"]}, 1000).with_state(s),
    ]
    for _ in range(rounds):
        for wake in wakes:
            wit.wake(wake)
        for make in steps:
            state = decode_state(state_text, "the warm-up state")
            state["n"] += 1
            step = make(state)
            check_step(step)
            new_state = state if step.new_state is _UNSET else step.new_state
            wit.result(step, encode_state(new_state))
    _warm_tools(rounds)


def _warm_tools(rounds: int) -> None:
    """The tool helpers, through the real ``WitHost`` class with stand-ins
    for its imports; the host the steps use is put back after."""
    real = host.current()
    if not isinstance(real, host.WitHost):
        return
    stand_in = host.WitHost(
        tools=types.SimpleNamespace(call=_answer),
        host=types.SimpleNamespace(
            Level=real.host.Level,
            now=lambda: 1,
            run_id=lambda: "warm-up",
            log=lambda level, message: None,
        ),
    )
    host._backend = stand_in
    try:
        for i in range(rounds):
            key = f"warm-up:{i}"
            seen = kv.get("k", key)
            kv.put("k", {"n": i, "seen": seen.value}, seen.version, key)
            kv.put("k", [i], None, key)
            kv.delete("k", seen.version, key)
            lease.acquire("r", 1000, key)
            lease.release("r", key)
            callback.create("c", 1000, key)
            tools.call("llm", {"prompt": "p", "max_tokens": 1}, key)
            host.log.info(f"warm-up {i}")
            host.now()
            host.run_id()
    finally:
        host._backend = real


def _answer(name: str, args: str, key: str) -> str:
    op = from_json(args).get("op") if args.startswith("{") else None
    return _ANSWERS.get((name, op), '{"text":"x"}')
