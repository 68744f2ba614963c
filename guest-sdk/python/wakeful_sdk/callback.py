"""The built-in ``callback`` tool: a single-use link another system answers
on. Send the link's URL with a request, then wait on its topic, with the
link's expiry as a timeout; the answer's JSON body arrives as an event.

    link = callback.create("approval", 3_600_000, "order-9482:link")
    # ... send link.url to the other system (an http tool) ...
    return Step.wait_event(link.topic).or_(Wait.until(link.expires_at))

    {"op": "create", "id": ID, "valid_for_ms": N}
        -> {"url": "<public base>/v1/callback/<token>", "topic": "callback:<ID>", "expires_at": MS}

The host needs ``[api] public_url`` in its config for this tool.
"""

from dataclasses import dataclass

from . import tools
from .kv import _is_u64
from .step import check_u64


@dataclass(frozen=True)
class Link:
    """A link ``create`` made."""

    #: Where the other system POSTs its JSON answer, once.
    url: str
    #: ``callback:<id>``: the topic the answer arrives on.
    topic: str
    #: When the link stops taking answers (ms since the Unix epoch, UTC).
    expires_at: int


def create(id: str, valid_for_ms: int, idempotency_key: str) -> Link:
    """Makes a link named ``id`` (unique within the run; letters, digits,
    ``-_.:``) valid for ``valid_for_ms``. A retried step with the same
    ``idempotency_key`` gets the same link back."""
    result = tools.call("callback", create_args(id, valid_for_ms), idempotency_key)
    if not (
        isinstance(result, dict)
        and isinstance(result.get("url"), str)
        and isinstance(result.get("topic"), str)
        and _is_u64(result.get("expires_at"))
    ):
        raise tools.cannot_read("callback", "expected {url, topic, expires_at}", result)
    return Link(result["url"], result["topic"], result["expires_at"])


def create_args(id: str, valid_for_ms: int) -> dict:
    return {"op": "create", "id": id, "valid_for_ms": check_u64("valid_for_ms", valid_for_ms)}
