"""Each hosted game played from set-up to its end entirely through the mail path, then replayed byte for byte.

Scripted players read their sitrep mail from the outbox Maildir, fill in the attached order form, sign it and
mail it to the inbox Maildir; daemon passes do the rest (the same path `pbem demo` takes).
"""
import pytest

from pbem.home import Home
from pbem.replay import replay
from pbem.server import Server
from pbem.demo import run_demo

GAMES = [
    ("bismarck", "last-dash", {}),
    ("lew_morski", "w1", {"setup": "auto"}),
    ("sky_ww2", "quick", {"aircraft": 3, "players": 6}),  # 3-v-3 with six players, hands private to each
    ("aa_miniatures", "meeting", {}),
    ("aa_miniatures", "assault", {"visibility": "fog"}),  # sealed deployment, each side sees what its units see
    ("wing_leader", "sweep", {}),
    ("wing_leader", "raid", {"seats_per_side": 3}),  # six players, one a wing, each ordering only its own
    ("wing_leader", "dogfight", {"cadence": "fast"}),
    ("wing_leader", "raid", {"visibility": "fog", "seats_per_side": 2}),  # fog and radar plots, two wings a side
    ("wing_leader", "jets", {"cadence": "single"}),  # advanced rule 13: drop tanks, bomber group, rockets, bounce
    ("wing_leader", "raid", {"setup": "players"}),  # the players set up (5.2.1, 5.3) and place arrivals' vectors (5.3.1)
    ("wing_leader", "flak", {}),  # advanced rule 14: flak barrages and direct fire over the rail yard
    ("wing_leader", "dive_bombing", {"cadence": "fast"}),  # rules 14 and 15: dive bombers on ships under a barrage
    ("wing_leader", "torpedo", {}),  # rule 15: torpedoes and the Anvil, rockets, skip and glide bombing
    ("wing_leader", "carrier", {}),  # rule 13.7: takeoffs one a turn from a carrier and an airstrip, dive bombing
]


@pytest.mark.slow
@pytest.mark.parametrize("ruleset, scenario, options", GAMES, ids=[f"{g[0]}-{g[1]}" for g in GAMES])
def test_whole_game_through_mail(tmp_path, ruleset, scenario, options):
    home = Home(tmp_path / "home")
    game = run_demo(home, ruleset, scenario, 0, "whole", options)
    server = Server(home.load())
    st = server.status(game)
    assert st["status"] == "over" and st["outcome"]["text"], st
    for seat in st["seats"]:
        final = server.sitrep(game, seat["name"]).text
        assert "GAME OVER" in final and "Seed, revealed" in final
    report = replay(server, game)
    assert report.ok, report.problems
    assert report.sitreps >= 2 * len(st["seats"])
