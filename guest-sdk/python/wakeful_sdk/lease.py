"""The built-in ``lease`` tool: an expiring lock on a named resource, so that
two runs (or two agents) never act on the same thing at once.

    {"op": "acquire", "resource": R, "ttl_ms": N} -> {"granted": bool, "holder": H, "expires_at": MS}
    {"op": "release", "resource": R}              -> {"released": bool}

``ttl_ms`` is between 1 ms and 24 hours. The holder is the run (the host
takes the lease as ``run:<run id>``), so two runs never both hold one; a
version deployed with ``--grant lease:holder`` may name its holder instead
(``holder=``). Resources are namespaced as kv keys are: a name is this
agent's own, ``shared/<ns>/<name>`` a shared namespace's (``--grant
lease:shared/<ns>``).
"""

from dataclasses import dataclass

from . import tools
from .kv import _is_u64
from .step import check_u64


@dataclass(frozen=True)
class Lease:
    """The answer to ``acquire``."""

    #: Whether this run (or the holder named) now holds the lease.
    granted: bool
    #: Who holds the lease: the caller when granted, else the other holder.
    holder: str
    #: When the current holder's lease expires (ms since the Unix epoch, UTC).
    expires_at: int


def acquire(resource: str, ttl_ms: int, idempotency_key: str, holder: str | None = None) -> Lease:
    """Takes the lease on ``resource`` for this run (or ``holder``, which
    needs ``--grant lease:holder``) for ``ttl_ms``, unless someone else holds
    an unexpired one (then ``granted`` is false and ``holder`` names them)."""
    result = tools.call("lease", acquire_args(resource, ttl_ms, holder), idempotency_key)
    if not (
        isinstance(result, dict)
        and isinstance(result.get("granted"), bool)
        and isinstance(result.get("holder"), str)
        and _is_u64(result.get("expires_at"))
    ):
        raise tools.cannot_read("lease", "expected {granted, holder, expires_at}", result)
    return Lease(result["granted"], result["holder"], result["expires_at"])


def release(resource: str, idempotency_key: str, holder: str | None = None) -> bool:
    """Gives the lease back; ``False`` when this run (or ``holder``) did not
    hold it."""
    result = tools.call("lease", release_args(resource, holder), idempotency_key)
    if not (isinstance(result, dict) and isinstance(result.get("released"), bool)):
        raise tools.cannot_read("lease", "expected {released}", result)
    return result["released"]


def acquire_args(resource: str, ttl_ms: int, holder: str | None = None) -> dict:
    args = {"op": "acquire", "resource": resource}
    if holder is not None:
        args["holder"] = holder
    args["ttl_ms"] = check_u64("ttl_ms", ttl_ms)
    return args


def release_args(resource: str, holder: str | None = None) -> dict:
    args = {"op": "release", "resource": resource}
    if holder is not None:
        args["holder"] = holder
    return args
