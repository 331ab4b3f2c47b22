"""The side-view map, line of sight, weather and the sun [2.2, 4]."""
from __future__ import annotations

import pytest

from pbem.rules.wing_leader.sky import Sky, distance, name, parse, sky_of
from pbem.rules.wing_leader.tables import scenario


def test_squares_are_named_by_column_letter_and_altitude():
    """T-COORD-1 (2.2): B5 is column B at altitude 5, G13 column G at altitude 13; the map is A0-Z19."""
    assert parse("B5") == (1, 5) and parse("G13") == (6, 13) and name((25, 19)) == "Z19"
    for bad in ("A20", "5B", "AA1", ""):
        with pytest.raises(ValueError):
            parse(bad)


def test_distance_counts_diagonal_steps_and_the_same_square_is_zero():
    """1.1, 7.2.1: A1 to C2 is 2; a square to itself is 0."""
    assert distance(parse("A1"), parse("C2")) == 2 and distance(parse("A1"), parse("A1")) == 0


def test_a_dense_cloud_may_be_entered_but_hides_what_lies_beyond():
    """4.6.1: the target inside the dense square is seen (weather 3), one beyond it is not."""
    sky = Sky(clouds=((parse("E5"), "dense"),))
    inside = sky.sight(parse("A5"), parse("E5"))
    assert not inside.blocked and inside.weather == 3
    assert sky.sight(parse("A5"), parse("H5")).blocked


def test_two_broken_squares_may_be_entered_and_block_beyond_the_second():
    """4.6.1: the line may enter two broken squares; squares beyond the second are hidden."""
    sky = Sky(clouds=((parse("C5"), "broken"), (parse("D5"), "broken")))
    assert not sky.sight(parse("A5"), parse("D5")).blocked
    assert sky.sight(parse("A5"), parse("E5")).blocked
    assert sky.sight(parse("A5"), parse("D5")).weather == 2


def test_sight_is_reciprocal():
    """4.6: if A sees B, B sees A (only squares between the ends block, AMB-2)."""
    sky = Sky(clouds=((parse("E5"), "dense"), (parse("C7"), "broken"), (parse("F6"), "broken")))
    for a, b in (("A5", "H5"), ("A5", "E5"), ("B8", "H4"), ("C7", "G5")):
        assert sky.sight(parse(a), parse(b)) == sky.sight(parse(b), parse(a))


def test_a_line_through_only_a_corner_of_a_cloud_square_is_unaffected():
    """4.6.1: A1 to C3 passes the corners of A2/B1 and B3/C2 diagonally; clouds there do not count."""
    sky = Sky(clouds=((parse("B1"), "dense"), (parse("A2"), "dense")))
    assert sky.sight(parse("A1"), parse("C3")) == Sky().sight(parse("A1"), parse("C3"))


def test_weather_is_not_cumulative_and_haze_covers_every_altitude_up_to_its_top():
    """4.3, 4.7: wispy 1, broken 2, dense 3, haze 1; the worst counts."""
    sky = Sky(clouds=((parse("C3"), "wispy"), (parse("D3"), "broken")), haze=3)
    assert sky.weather_at(parse("C3")) == 1 and sky.weather_at(parse("D3")) == 2
    assert sky.weather_at(parse("H3")) == 1 and sky.weather_at(parse("H4")) == 0
    assert sky.sight(parse("A3"), parse("F3")).weather == 2


def test_rain_falls_below_dense_cloud_and_counts_as_broken():
    """4.5.1 (AMB-4 reading b): squares directly below a dense square are in rain, weather 2."""
    sky = Sky(clouds=((parse("E9"), "dense"),), rain=True)
    assert sky.weather_at(parse("E2")) == 2 and sky.weather_at(parse("F2")) == 0
    assert sky.cloud(parse("E2")) == "rain"


def test_up_sun_is_the_scenario_sector_unless_a_cloud_hides_the_sun():
    """4.2, 4.6.2: with the sun high-right, an enemy up and to the right is up-sun; a dense cloud on the
    line beyond it (AMB-33) takes that away; an enemy level to the right is not up-sun."""
    clear = Sky(sun="right_high")
    assert clear.up_sun(parse("E5"), parse("G7")) and not clear.up_sun(parse("E5"), parse("G5"))
    hidden = Sky(clouds=((parse("J10"), "dense"),), sun="right_high")
    assert not hidden.up_sun(parse("E5"), parse("G7"))


def test_the_scenario_cloud_ranges_fill_the_rectangle_between_their_ends():
    """4.5 (AMB-26): "J6-M6" is the four squares J6, K6, L6, M6."""
    sky = sky_of(scenario("sweep"))
    assert {name(sq) for sq, kind in sky.clouds if kind == "broken"} == {"J6", "K6", "L6", "M6"}
