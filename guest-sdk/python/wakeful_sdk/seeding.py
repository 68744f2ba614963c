"""Python's ``random`` seeded when a step first uses it, not before every
step.

Every step runs in a fresh instance of the component's snapshot, and
componentize-py calls ``random.seed()`` at the start of each instance's
first call, so that no two instances share the numbers baked into the
snapshot. That seeding reads 2.5 KB from the host and initialises the
Mersenne Twister: about 100,000 wasm instructions, a third of a step that
does little, paid by every step whether it draws a number or not.

``defer_seeding`` makes ``random.seed()`` (with no argument) only note that
a fresh seed is due, and wraps the module's functions (``random.random``,
``random.choice``, ...) so that the first of them to run in the instance
seeds first. A step that uses ``random`` gets numbers from the host's
randomness, which the host derives from the run and the step, as before;
one that does not pays nothing.

Nothing may hold one of the module's functions from before the wrapping,
since such a function would draw from the snapshot's state. So the
seeding is deferred only when no object but the module holds them; when
one does (``from random import choice`` above the SDK's import, in any
module, class or closure), seeding stays as componentize-py does it. (A
local variable of a function still running when ``export`` is called is
not seen: its frame is not an object the collector knows.)
"""

import functools
import gc
import types

_METHODS = (types.MethodType, types.BuiltinMethodType)


def defer_seeding(module=None) -> bool:
    """Defers the seeding of ``module`` (``random`` by default) to the first
    use of its functions; False, changing nothing, when something else
    holds one of them already."""
    if module is None:
        import random as module
    namespace = vars(module)
    inst = namespace.get("_inst")
    if inst is None:
        return False
    bound = {
        name: value
        for name, value in namespace.items()
        if isinstance(value, _METHODS) and getattr(value, "__self__", None) is inst
    }
    if "seed" not in bound or _held_elsewhere(inst, namespace, bound):
        return False

    real_seed = bound["seed"]
    pending = False

    def seed(a=None, version=2):
        nonlocal pending
        if a is None:
            # From the host's randomness, once the step first draws.
            pending = True
        else:
            pending = False
            real_seed(a, version)

    def setstate(state):
        nonlocal pending
        pending = False
        inst.setstate(state)

    def seeded_first(method):
        @functools.wraps(method)
        def call(*args, **kwargs):
            nonlocal pending
            if pending:
                pending = False
                real_seed()
            return method(*args, **kwargs)

        return call

    for name, method in bound.items():
        if name == "seed":
            namespace[name] = functools.wraps(method)(seed)
        elif name == "setstate":
            namespace[name] = functools.wraps(method)(setstate)
        else:
            namespace[name] = seeded_first(method)
    return True


def _held_elsewhere(inst, namespace, bound) -> bool:
    """Whether an object other than the module holds a function of its
    shared instance: a bound method of it made apart (``r =
    random._inst.random``), or one of the module's own held by another
    module (``from random import choice``) or object."""
    own = {id(m) for m in bound.values()}
    for holder in gc.get_referrers(inst):
        if not isinstance(holder, _METHODS) or id(holder) in own:
            continue
        # `random` registers `_inst.seed` to run in a forked child.
        if getattr(holder, "__name__", None) != "seed":
            return True
    allowed = {id(namespace), id(bound)}
    for method in bound.values():
        for holder in gc.get_referrers(method):
            if id(holder) not in allowed:
                return True
    return False
