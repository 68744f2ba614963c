"""Fails on purpose, the ways an author's agent fails: an exception deep in
its own code, a tool error it does not catch, and an exit after writing to
stderr. The host's tests check that an operator reads the author's own
error, in the author's language, in ``wakeful show``. Started with
``{"draw": true}`` it draws from ``random`` instead, for the tests of the
randomness a Python step sees."""

import os
import random
import sys

from wakeful_sdk import Agent, Start, Step, export, tools


def plan_action(plan):
    # A KeyError-free failure with a message of the author's own.
    if "action" not in plan:
        raise ValueError(f"the plan has no action: {plan!r}")
    return plan["action"]


class Faulty(Agent):
    name = "faulty-py"
    version = "0.1.0"
    tools = []
    description = "Fails on purpose, or draws from random, as its start input says."

    def step(self, state, wake):
        given = wake.input if isinstance(wake, Start) and isinstance(wake.input, dict) else {}
        if given.get("draw"):
            return Step.done("drew").with_state({"draws": [random.random(), random.getrandbits(64)]})
        how = given.get("fail")
        if how == "raise":
            plan_action({"reason": "memory"})
        elif how == "tool":
            tools.call("pager", {"to": "on-call"}, "page:1")
        elif how == "exit":
            print("fatal: the agent cannot continue", file=sys.stderr, flush=True)
            os._exit(3)
        return Step.done("nothing failed").with_state({})


WitWorld = export(Faulty)
