"""The Search Map agrees with every hex the rulebook and its examples name [2.1]."""
import pytest

from pbem.rules.bismarck.board import board, parse_hex


def test_example_adjacency_and_canal():
    b = board()
    assert b.distance("K29", "L30") == 1  # E6: a ship moved through K29 into L30 in a 2-hex move
    assert b.ship_step("O32", "O33", "german") and not b.ship_step("O32", "O33", "allied")  # canal [2.1]


@pytest.mark.parametrize("h", ["F20", "H7", "I28", "J29", "K29", "L2", "L30", "M1", "N23", "O32", "O33", "Q29",
                               "Q30", "S23", "S26", "T26", "U26", "AE12", "AF23", "AF24", "AH13"])
def test_rulebook_hexes_are_sea(h):
    assert h in board().sea


def test_ports_named_by_the_rules():
    b = board()
    assert b.ports["U26"].side == "german" and b.ports["U26"].country == "france"
    assert b.ports["S26"].side == "allied"
    assert {p.country for p in b.ports.values() if p.side == "german"} >= {"france", "norway"}


def test_every_port_is_reachable_from_the_open_atlantic():
    b = board()
    for h, p in sorted(b.ports.items()):
        assert b.route("R10", h, p.side) is not None, p.name


def test_channel_and_zones():
    b = board()
    assert {"Q29", "Q30", "T26", "U26"} <= b.channel <= b.sea
    assert b.convoy and b.sector and b.eastern and b.fog and b.dd_area
    assert all(v in "ecnx" for v in b.convoy.values())
    assert parse_hex("AEI2") is None and parse_hex("AE12") == (30, 12)
