"""The class an agent subclasses, and the exception that fails a step with
a message of the author's choosing."""

from typing import Any, Sequence


class StepError(Exception):
    """Fails the step with exactly this message, the way a Rust agent returns
    ``Err(message)``: the operator sees the message and nothing else (no
    traceback). Nothing of the run changes; the host retries the step and
    parks the run after a bounded number of attempts.

        raise StepError(f"kv put {key}: {e}")
    """

    def __init__(self, message: str):
        super().__init__(message)
        self.message = str(message)

    def __str__(self) -> str:
        return self.message


class Agent:
    """An agent: a step function over a JSON state.

    A subclass sets ``name`` and ``version`` (the agent's name in the host and
    the semver of this build), ``tools`` (what it asks the operator to grant)
    and ``description`` (one sentence for operators), implements ``step``,
    and usually ``init`` (the state of a new run). Register it with
    ``WitWorld = export(MyAgent)`` at the top level of ``app.py``.
    """

    #: The agent's name in the host, e.g. ``"invoice-mail"``.
    name: str = ""
    #: The semver of this build, e.g. ``"0.1.0"``.
    version: str = ""
    #: The tools this version asks the operator to grant (``"kv"``,
    #: ``"lease"``, ``"llm"``, ...). A call to any other tool is denied.
    tools: Sequence[str] = ()
    #: One sentence for operators: what this agent does.
    description: str = ""

    def init(self) -> Any:
        """The state of a new run (any JSON value), which its first step
        gets and changes in place::

            def init(self):
                return {"filed": None}

        Without it, the first step gets ``None`` and must set the state
        with ``Step.with_state``: a step given ``None`` that sets none (and
        does not end the run) fails at once, naming the reason, rather than
        a step later on ``None``."""
        return None

    def step(self, state: Any, wake) -> "Step":  # noqa: F821
        """Takes one step of a run: reacts to ``wake`` and says what to wait
        for next by returning a ``Step``.

        ``state`` is what the previous step left (parsed JSON: dicts, lists,
        strings, numbers, booleans), ``init()`` on the first step. Change it
        in place, or return a new one with ``Step.with_state``.

        A step must not block on the outside world; it waits by returning a
        ``Step``. Raising changes nothing of the run, including its state:
        the host keeps the previous checkpoint, retries the step, and parks
        the run after a bounded number of attempts. ``StepError(message)``
        fails with exactly ``message``; any other exception fails with its
        type, message and the end of its traceback.
        """
        raise NotImplementedError(f"{type(self).__name__} does not implement step(self, state, wake)")

    def migrate(self, from_version: str, state: Any) -> Any:
        """Turns the state saved by version ``from_version`` of this agent
        into this version's shape when an operator upgrades a run, and
        returns it. ``state`` is ``None`` for a run that never finished a
        step. The default keeps the state as it is (``init()`` for
        ``None``)."""
        return self.init() if state is None else state
