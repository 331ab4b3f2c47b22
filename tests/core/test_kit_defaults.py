"""The contract's defaults by composition: dataclass dump/load, seats from sides, Assembled."""
from __future__ import annotations

import enum
import json
from dataclasses import dataclass

import pytest

from pbem.core.defaults import Assembled, DataclassCodec, seats_from_sides
from pbem.core.errors import RulesetDefinitionError
from pbem.core.flow import Flow
from pbem.core.interrupts import Ask, Pending
from pbem.core.ruleset import RulesetInfo, Scenario, Seat
from pbem.core.standing import Standing
from tests.fixtures.duel import RULESET as DUEL
from tests.fixtures.duel import STEPS


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True)
class Unit:
    id: str
    colour: Colour
    at: tuple[int, int] | None = None


@dataclass(frozen=True)
class State:
    units: tuple[Unit, ...]
    pair: tuple[str, int]
    tags: frozenset[str]
    scores: dict[str, float]
    flow: Flow


def test_dataclass_codec_round_trips_through_json():
    flow = Flow("ask", 2, 1, Pending("ask", (Ask("a", "k", "?", "NO"),), {"x": [1, 2]}),
                Standing().set("a", "K", "K ON")[0])
    state = State((Unit("u1", Colour.RED, (3, 4)), Unit("u2", Colour.BLUE)), ("z", 3), frozenset({"b", "a"}),
                  {"red": 1.5}, flow)
    codec = DataclassCodec(State)
    data = json.loads(json.dumps(codec.dump(state)))
    assert data["units"][0] == {"id": "u1", "colour": "red", "at": [3, 4]} and data["tags"] == ["a", "b"]
    assert codec.load(data) == state


def test_codec_needs_a_dataclass():
    with pytest.raises(RulesetDefinitionError):
        DataclassCodec(dict)


def test_seats_from_sides():
    info = RulesetInfo("x", "X", ("german", "allied"), (Scenario("s", "S"),))
    assert seats_from_sides(info, {"german": "Kriegsmarine"})(None) == (
        Seat("german", "german", "Kriegsmarine"), Seat("allied", "allied", "Allied"))


def test_assembled_needs_its_parts():
    parts = dict(info=DUEL.info, steps=STEPS, setup=None, view=None, order_form=None, outcome=None,
                 bot_orders=None)
    with pytest.raises(RulesetDefinitionError, match="verbs or check_orders"):
        Assembled(**parts, state_type=State)
    with pytest.raises(RulesetDefinitionError, match="state_type"):
        Assembled(**parts, check_orders=lambda v, s, lines: None, dump=lambda s: {})


def test_assembled_fills_the_boring_methods():
    assert DUEL.picture({"post": 1}) is not None
    from pbem.core.play import setup_dice

    state = DUEL.setup("standard", {}, setup_dice(b"sixteen bytes at least"))
    assert DUEL.load(json.loads(json.dumps(DUEL.dump(state)))) == state
    assert DUEL.default_orders(state, "east") == ()
    with pytest.raises(RulesetDefinitionError, match="unknown scenario"):
        DUEL.setup("nope", {}, setup_dice(b"sixteen bytes at least"))
