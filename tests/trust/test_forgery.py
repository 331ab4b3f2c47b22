"""Claim 2, no forgery, no replay: every attack of tests/trust/forgery.py is refused and answered."""
import os

import pytest

from tests.trust import forgery

FLIPS = int(os.environ.get("PBEM_TRUST_FLIPS", "120"))


def test_no_forgery_no_replay(server, keys):
    t = forgery.run(server, keys, flips=FLIPS)
    assert t.forgeries == 0, t.problems
    assert not sum(t.unanswered.values()), t.problems
    assert not t.problems, t.problems
    # every category was really tried, and a flip was mostly refused (not silently accepted as benign)
    for category in ("wrong key", "byte flip", "signed for another game", "signed for another turn",
                     "signed for another phase", "signed for another side", "signature cut from another file",
                     "another side's From", "replay after resolution", "orders for a resolved phase",
                     "replay of replaced orders"):
        assert t.tried[category] >= 1, category
    assert t.rejected["byte flip"] >= FLIPS * 0.9 and t.benign["byte flip"] + t.rejected["byte flip"] == FLIPS


def test_gm_command_signed_by_a_player(server, keys):
    pytest.importorskip("pbem.gm", reason="GM commands (PBEM-COMMAND 1) are not in the platform yet")
    t = forgery.Tally()
    forgery.setup_games(server, keys)
    forgery.gm_commands(server, keys, forgery.Attacker(server, keys, t))
    assert t.tried["GM command signed by a player"] >= 1
    assert t.forgeries == 0 and not t.problems, t.problems
