"""Small builders for Wing Leader tests: squadrons and positions written as on the map."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from pbem.core.errors import IllegalOrderError

from pbem.core.flow import Flow
from pbem.rules.wing_leader.model import Squadron, State
from pbem.rules.wing_leader.sky import HEADINGS, parse


def sq(sid: str, side: str, model: str, mission: str, at: str, heading: str = "E", **kw: Any) -> Squadron:
    return Squadron(sid, side, model, mission, parse(at), HEADINGS.index(heading), **kw)


def state(*squadrons: Squadron, step: str = "movement", scenario: str = "sweep") -> State:
    return State(scenario, tuple(squadrons), Flow(step))


@contextmanager
def refused(rule: str) -> Iterator[None]:
    """Expect an IllegalOrderError citing exactly ``rule``."""
    with pytest.raises(IllegalOrderError) as caught:
        yield
    assert caught.value.rule == rule, f"refused under {caught.value.rule}, not {rule}: {caught.value}"
