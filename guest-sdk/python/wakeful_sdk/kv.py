"""The built-in ``kv`` tool: a versioned key-value store shared by the host's
runs. Every write bumps the key's version, deletes included, so a
compare-and-set never mistakes a re-created key for the one it read; version
0 means "never written".

    seen = kv.get("counter", "read-counter")
    put = kv.put("counter", (seen.value or 0) + 1, seen.version, "bump-counter")
    if not put.ok:
        ...  # someone else wrote first; put.version is the current version

Arguments and results, as the host reads and writes them::

    {"op": "get", "key": K}                                   -> {"value": V|null, "version": N}
    {"op": "put", "key": K, "value": V, "expected_version": N?} -> {"ok": bool, "version": N}
    {"op": "delete", "key": K, "expected_version": N?}          -> {"ok": bool, "version": N}
"""

from dataclasses import dataclass
from typing import Any, Optional

from . import tools
from .step import check_u64


@dataclass(frozen=True)
class Versioned:
    """A value read with its version."""

    #: The value (parsed JSON), ``None`` when the key is absent (never
    #: written, or deleted).
    value: Any
    #: 0 when never written, then bumped by every write and delete.
    version: int

    def exists(self) -> bool:
        """Whether the key has a value."""
        return self.value is not None


@dataclass(frozen=True)
class Written:
    """The result of ``put`` or ``delete``."""

    #: ``False`` when ``expected_version`` did not match: nothing was written.
    ok: bool
    #: The key's version after the write, or its current version when ``ok``
    #: is false.
    version: int


def get(key: str, idempotency_key: str) -> Versioned:
    """Reads ``key``."""
    result = tools.call("kv", get_args(key), idempotency_key)
    if not (isinstance(result, dict) and _is_u64(result.get("version"))):
        raise tools.cannot_read("kv", "expected {value, version}", result)
    return Versioned(result.get("value"), result["version"])


def put(key: str, value: Any, expected_version: Optional[int] = None, idempotency_key: Optional[str] = None) -> Written:
    """Writes ``value`` (any JSON-able value) at ``key``. With
    ``expected_version``, writes only if the key is still at that version (0:
    only if absent); a mismatch is ``ok=False``, not an error."""
    args = put_args(key, value, expected_version)
    return _written(tools.call("kv", args, _need_key("kv.put", idempotency_key)))


def delete(key: str, expected_version: Optional[int] = None, idempotency_key: Optional[str] = None) -> Written:
    """Deletes ``key``, with the same ``expected_version`` check as ``put``."""
    args = delete_args(key, expected_version)
    return _written(tools.call("kv", args, _need_key("kv.delete", idempotency_key)))


def get_args(key: str) -> dict:
    return {"op": "get", "key": key}


def put_args(key: str, value: Any, expected_version: Optional[int]) -> dict:
    args = {"op": "put", "key": key, "value": value}
    if expected_version is not None:
        args["expected_version"] = check_u64("expected_version", expected_version)
    return args


def delete_args(key: str, expected_version: Optional[int]) -> dict:
    args = {"op": "delete", "key": key}
    if expected_version is not None:
        args["expected_version"] = check_u64("expected_version", expected_version)
    return args


def _written(result: Any) -> Written:
    if not (isinstance(result, dict) and isinstance(result.get("ok"), bool) and _is_u64(result.get("version"))):
        raise tools.cannot_read("kv", "expected {ok, version}", result)
    return Written(result["ok"], result["version"])


def _is_u64(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _need_key(what: str, idempotency_key: Optional[str]) -> str:
    if idempotency_key is None:
        raise TypeError(f"{what} needs an idempotency_key: a name for what this write means, the same on every retry")
    return idempotency_key
