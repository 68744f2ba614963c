"""JSON text in and out of a step, as ``json`` writes and reads it, without
the Python ``json`` runs around its C code at every call.

In a guest's interpreter every line of Python costs: ``json.loads`` of
``"null"`` was about 19,000 wasm instructions, of which its C scanner took
2,500 (two regular-expression matches for whitespace and a chain of
Python calls took the rest); ``JSONEncoder.encode`` of ``None`` about
22,000, against 3,500 for its C encoder made once. A step reads and writes
JSON several times (its state, its wake, each tool call's arguments and
result), so these are called directly.

Both fall back to ``json`` where its C parts are missing, and the encoder
checks at import that it writes what ``JSONEncoder.encode`` writes.
"""

import json
import json.decoder
import json.encoder
from typing import Any

# JSON's whitespace; ``str.strip()`` would also take Unicode spaces, which
# ``json.loads`` refuses.
_WHITESPACE = " \t\n\r"

_scan = json.decoder.JSONDecoder().scan_once


def from_json(text: str) -> Any:
    """``json.loads(text)`` for a ``str``: the same value, or the same
    ``json.JSONDecodeError``."""
    start = 0
    if text and text[0] in _WHITESPACE:
        start = len(text) - len(text.lstrip(_WHITESPACE))
    try:
        value, end = _scan(text, start)
    except StopIteration as e:
        if text.startswith("\ufeff"):
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0) from None
        raise json.JSONDecodeError("Expecting value", text, e.value) from None
    if end != len(text):
        rest = text[end:].lstrip(_WHITESPACE)
        if rest:
            raise json.JSONDecodeError("Extra data", text, len(text) - len(rest))
    return value


def _encoder(sort_keys: bool) -> json.JSONEncoder:
    return json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False, sort_keys=sort_keys)


class _Writer:
    """``JSONEncoder.encode`` of one encoder, calling its C encoder made
    once (``encode`` makes a new one, in Python, at every call)."""

    def __init__(self, sort_keys: bool):
        self.encoder = _encoder(sort_keys)
        self.markers = {}
        self.write = self._slow
        make = json.encoder.c_make_encoder
        if make is None:
            return
        try:
            self.c = make(
                self.markers,
                self.encoder.default,
                json.encoder.encode_basestring,
                None,
                ":",
                ",",
                sort_keys,
                False,
                False,
            )
            fast = self._fast
            # Another interpreter's C encoder could take other arguments:
            # kept only if it writes exactly what `encode` writes.
            for sample in _SAMPLES:
                if fast(sample) != self._slow(sample):
                    return
        except Exception:  # noqa: BLE001 - any surprise keeps the slow path
            return
        self.write = fast

    def _slow(self, value: Any) -> str:
        return self.encoder.encode(value)

    def _fast(self, value: Any) -> str:
        try:
            return "".join(self.c(value, 0))
        except BaseException:
            # A failure half-way leaves the containers it was in marked as
            # being written: the next call would call them circular.
            self.markers.clear()
            raise


_SAMPLES = (
    None,
    "é\"\\\n",
    {"b": [1, 2.5, -0.0, 1e300, True, None], "a": {"ü": "x"}, "": []},
    [{}, [[]], 123456789012345678901234567890],
)

_WRITERS = {False: _Writer(False).write, True: _Writer(True).write}


def to_json(value: Any, sort_keys: bool = False) -> str:
    """Compact JSON text, UTF-8 as is, as the host and the Rust SDK write it.
    ``NaN`` and infinities are refused (they are not JSON)."""
    return _WRITERS[bool(sort_keys)](value)
