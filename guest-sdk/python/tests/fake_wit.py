"""Stand-ins for the modules componentize-py generates from wit/agent.wit
(``wit_world``, ``componentize_py_types``), with the same names and shapes,
so that the SDK's WIT side runs natively. ``install()`` puts them in
``sys.modules``; ``uninstall()`` takes them out again."""

import enum
import sys
import types as pytypes
from dataclasses import dataclass
from typing import List, Optional

NAMES = [
    "componentize_py_types",
    "componentize_py_runtime",
    "wit_world",
    "wit_world.imports",
    "wit_world.imports.types",
    "wit_world.imports.tools",
    "wit_world.imports.host",
]


def _module(name, **attrs):
    m = pytypes.ModuleType(name)
    m.__dict__.update(attrs)
    return m


@dataclass(frozen=True)
class Err(Exception):
    value: object


def _dataclasses(*specs):
    out = {}
    for name, fields in specs:
        out[name] = dataclass(type(name, (), {"__annotations__": dict(fields)}))
    return out


TYPES = _dataclasses(
    ("Event", [("id", str), ("topic", str), ("payload", str), ("received_at", int)]),
    (
        "Approval",
        [("request_id", str), ("approved", bool), ("by", str), ("at", int), ("comment", Optional[str]), ("digest", str)],
    ),
    ("Wake_Start", [("value", str)]),
    ("Wake_Event", [("value", object)]),
    ("Wake_Approval", [("value", object)]),
    ("Wake_Timer", [("value", int)]),
    ("Wake_Expired", [("value", str)]),
    ("Wake_Resume", []),
    ("ApprovalRequest", [("id", str), ("question", str), ("details", str), ("valid_for_ms", int)]),
    ("WaitFor_Event", [("value", str)]),
    ("WaitFor_Approval", [("value", object)]),
    ("WaitFor_Until", [("value", int)]),
    ("WaitFor_Cron", [("value", str)]),
    ("Next_Continue", []),
    ("Next_Wait", [("value", List[object])]),
    ("Next_Done", [("value", str)]),
    ("StepResult", [("state", str), ("next", object), ("status", Optional[str])]),
    ("AgentInfo", [("name", str), ("version", str), ("tools", List[str]), ("description", str)]),
)
TOOL_ERRORS = _dataclasses(*[(f"ToolError_{k}", [("value", str)]) for k in ("Denied", "Unknown", "Budget", "Invalid", "Failed")])


class Level(enum.Enum):
    DEBUG = 0
    INFO = 1
    WARN = 2
    ERROR = 3


class FakeImports:
    """What the fake imports answer, and what they were asked."""

    def __init__(self):
        self.now = 0
        self.run_id = "wit-run"
        self.logs = []
        self.calls = []
        #: ``(name, args, key) -> str``, or raise ``Err(ToolError_...)``.
        self.answer = lambda name, args, key: "null"


IMPORTS = FakeImports()


class WitWorld:
    """The generated Protocol's place: the base of the app's ``WitWorld``."""


def install():
    global IMPORTS
    IMPORTS = FakeImports()
    imports = IMPORTS

    def call(name, args, key):
        imports.calls.append((name, args, key))
        return imports.answer(name, args, key)

    modules = {
        "componentize_py_types": _module("componentize_py_types", Err=Err),
        "componentize_py_runtime": _module("componentize_py_runtime"),
        "wit_world.imports.types": _module("wit_world.imports.types", **TYPES),
        "wit_world.imports.tools": _module("wit_world.imports.tools", call=call, **TOOL_ERRORS),
        "wit_world.imports.host": _module(
            "wit_world.imports.host",
            Level=Level,
            now=lambda: imports.now,
            run_id=lambda: imports.run_id,
            log=lambda level, message: imports.logs.append((level, message)),
        ),
    }
    modules["wit_world.imports"] = _module(
        "wit_world.imports",
        types=modules["wit_world.imports.types"],
        tools=modules["wit_world.imports.tools"],
        host=modules["wit_world.imports.host"],
        __path__=[],
    )
    modules["wit_world"] = _module("wit_world", WitWorld=WitWorld, imports=modules["wit_world.imports"], __path__=[])
    sys.modules.update(modules)
    return imports


def uninstall():
    for name in NAMES:
        sys.modules.pop(name, None)
