"""The rating method on results made up for the purpose: side advantage, uneven sides, inactivity, provisional."""
from __future__ import annotations

from datetime import datetime, timedelta, UTC

from pbem.club import ratings as R

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def result(n, seats, winner, *, days=None, ruleset="duel", scenario="standard"):
    when = T0 + timedelta(days=n if days is None else days)
    return {"game": f"g{n:03}", "ruleset": ruleset, "scenario": scenario, "ended_at": when.isoformat(),
            "phases": 10, "seats": [{"seat": f"{side}-{i}", "side": side, "player": p}
                                    for i, (side, p) in enumerate(seats)],
            "winner": winner, "journal_head": "0" * 64}


def test_a_side_that_wins_most_games_is_learnt_and_discounted():
    """East wins 8 of 10 between players of a pool who take both sides; then a win with West earns more
    than the same win with East."""
    pool = ["p1", "p2", "p3", "p4"]
    games = []
    for n in range(10):
        a, b = pool[n % 4], pool[(n + 1) % 4]
        east, west = (a, b) if n % 2 else (b, a)
        games.append(result(n, [("east", east), ("west", west)], "east" if n not in (3, 7) else "west"))
    table = R.compute(games)["duel"]
    east, west = table["side:duel/standard/east"], table["side:duel/standard/west"]
    assert east["mu"] > west["mu"] + 1 and east["games"] == west["games"] == 10
    adv = R.side_advantages([{"scope": "duel", "fingerprint": k, **v} for k, v in table.items()], "duel")
    assert [x["side"] for x in adv] == ["duel/standard/east", "duel/standard/west"]
    assert adv[0]["advantage"] > 0 > adv[1]["advantage"] and abs(adv[0]["advantage"] + adv[1]["advantage"]) < 0.01

    # two newcomers of equal rating, one winning with each side: the West winner gains more
    after_east = R.compute([*games, result(20, [("east", "new1"), ("west", "x1")], "east")])["duel"]["new1"]["mu"]
    after_west = R.compute([*games, result(20, [("east", "x1"), ("west", "new1")], "west")])["duel"]["new1"]["mu"]
    assert after_west > after_east > 25


def test_uneven_and_several_sides():
    """Two against one (Sky of WWII with three players) and three sides; the order of the input does not matter."""
    games = [result(1, [("coalition", "a"), ("coalition", "b"), ("axis", "c")], "axis", ruleset="sky_ww2"),
             result(2, [("red", "a"), ("blue", "b"), ("green", "c")], "green", ruleset="other"),
             result(3, [("red", "a"), ("blue", "b"), ("green", "c")], None, ruleset="other")]
    table = R.compute(games)
    assert R.compute(list(reversed(games))) == table
    sky = table["sky_ww2"]
    # one who beats two alone gains more than each of two who beat one together (the bigger team was favoured)
    pair = R.compute([result(1, [("coalition", "a"), ("coalition", "b"), ("axis", "c")], "coalition",
                             ruleset="sky_ww2")])["sky_ww2"]
    assert sky["c"]["mu"] - 25 > pair["a"]["mu"] - 25 > 0 and sky["a"]["mu"] == sky["b"]["mu"] < 25
    assert table["overall"]["c"]["games"] == 3 and table["other"]["c"]["games"] == 2
    assert set(table) == {"overall", "sky_ww2", "other"}


def test_uncertainty_grows_with_inactivity_and_ratings_are_provisional_at_first():
    games = [result(n, [("east", "p"), ("west", "q")], "east") for n in range(6)]
    row = R.compute(games)["overall"]["p"]
    now = datetime.fromisoformat(row["last_played"])
    fresh = R.current(row, now)
    year = R.current(row, now + timedelta(days=365))
    assert fresh["sigma"] < year["sigma"] <= R.PARAMETERS["sigma"] + 1e-9 and year["rating"] < fresh["rating"]
    assert not fresh["provisional"] and R.current({**row, "games": 4}, now)["provisional"]
    # a player back after a year moves more than one who kept playing
    back = R.compute([*games, result(400, [("east", "q"), ("west", "p")], "east", days=400)])["overall"]
    kept = R.compute([*games, result(7, [("east", "q"), ("west", "p")], "east")])["overall"]
    assert row["mu"] - back["p"]["mu"] > row["mu"] - kept["p"]["mu"] > 0


def test_differences_name_what_differs():
    table = R.compute([result(1, [("east", "p"), ("west", "q")], "east")])
    published = [{"scope": s, "fingerprint": f, **v} for s, rows in table.items() for f, v in rows.items()]
    assert R.differences(table, published) == []
    published[0] = {**published[0], "sigma": published[0]["sigma"] + 0.001}
    extra = {"scope": "overall", "fingerprint": "ghost", "mu": 30.0, "sigma": 2.0, "games": 9, "last_game": "g9"}
    problems = R.differences(table, [*published[1:], published[0], extra])
    assert len(problems) == 2 and "stored sigma" in problems[0] and problems[1].startswith("ghost (overall)")
    assert R.differences(table, published[1:]) == [f"{published[0]['fingerprint']} ({published[0]['scope']}): "
                                                   "recomputed from the journals, but nothing is stored"]
