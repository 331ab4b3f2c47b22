"""Claim 1, no leaks: what a seat receives is byte-identical whatever it may not see.

For every ruleset (registered in pbem.rules.RULESETS, or a rules/<name> package exposing RULESET
not registered yet, and the duel fixture), hypothesis picks seeded bot games, a position in them,
a seat and bad order lines; tests/trust/perturb.py builds twins that differ only in what that
seat may not see (and the journal entry carries other order texts for the other seats);
tests/trust/leakcheck.py renders sitrep text, HTML, PNG, JSON view, order form and rejections
for both and compares them byte for byte.
"""
import dataclasses
import os

import pytest

from tests.fixtures.duel import RULESET as DUEL
from tests.trust import leakcheck
from tests.trust.perturb import PERTURBERS, all_rulesets

EXAMPLES = int(os.environ.get("PBEM_TRUST_LEAK_EXAMPLES", "12"))
#: Games per ruleset the positions are drawn from (bot games are played once and cached).
SEEDS = int(os.environ.get("PBEM_TRUST_LEAK_SEEDS", "2"))


@pytest.mark.parametrize("name", sorted(all_rulesets()))
def test_no_leak(name):
    if name not in PERTURBERS:
        pytest.fail(f"ruleset {name!r} has no hidden-information perturber in tests/trust/perturb.py: "
                    "its leak test cannot run (write perturb_{name})")
    tally = leakcheck.scan(name, EXAMPLES, seeds=SEEDS)
    assert tally.comparisons >= EXAMPLES, f"only {tally.comparisons} twins were built: the perturber finds nothing"
    assert not tally.leaks, "\n".join(sorted(set(tally.leaks))[:20])


class LeakyDuel:
    """The duel with a view that lets slip the other gunner's post, to show the check can fail."""

    info = dataclasses.replace(DUEL.info, name="leaky_duel")

    def __getattr__(self, name):
        return getattr(DUEL, name)

    def view(self, state, seat):
        v = DUEL.view(state, seat)
        foe = state.gunners[1 - ("east", "west").index(seat)]
        return {**v, "enemy_near": foe.post in (v["post"] - 1, v["post"] + 1)}


def test_the_check_finds_a_planted_leak():
    tally = leakcheck.scan("duel", 20, seeds=2, ruleset=LeakyDuel())
    assert tally.comparisons and any("json view" in x for x in tally.leaks), tally.leaks[:3]


def test_twins_really_differ_in_the_hidden_thing():
    import random

    from pbem.core.play import setup_dice

    state = DUEL.setup("standard", {}, setup_dice(b"x"))
    twins = PERTURBERS["duel"](DUEL, state, "east", random.Random(1))
    assert len(twins) == 3
    for what, twin in twins:
        assert DUEL.dump(twin) != DUEL.dump(state) and DUEL.view(twin, "east") == DUEL.view(state, "east")
        assert DUEL.view(twin, "west") != DUEL.view(state, "west"), what


def test_acknowledgements_and_rejections_do_not_depend_on_the_other_sides_orders(server, keys):
    """East's ack and rejection are byte-identical whatever west sent (nothing, or other orders)."""
    import email
    import email.policy
    import re

    from pbem.crypto import sshsig
    from sqlmodel import select

    from pbem.store.models import Outbox
    from tests.helpers import orders_mail

    def replies_to_east(gid, west_body):
        server.new_game(gid, "duel", "standard", seed=b"the same seed for both")
        for seat in ("east", "west"):
            server.add_player(gid, seat, f"{seat}@players.test", sshsig.public_key_of(keys[seat]).line())
        if west_body:
            assert server.ingest(orders_mail(server, gid, "west", west_body, keys["west"])).status == "accepted"
        bad = server.ingest(orders_mail(server, gid, "east", "FIRE 9\nDANCE\n", keys["east"], msg_id="<bad@x>"))
        good = server.ingest(orders_mail(server, gid, "east", "MOVE 0\n", keys["east"], msg_id="<good@x>"))
        assert (bad.status, good.status) == ("rejected", "accepted")
        with server.session() as s:
            rows = s.exec(select(Outbox).where(Outbox.to_addr == "east@players.test", Outbox.game_id == gid,
                                               Outbox.kind != "sitrep").order_by(Outbox.id)).all()
        out = []
        for r in rows:
            raw = server.outbox_bytes(r) if hasattr(server, "outbox_bytes") else r.raw
            msg = email.message_from_bytes(raw, policy=email.policy.default)
            body = msg.get_body(("plain",)).get_content() + msg.get_body(("html",)).get_content()
            out.append((r.kind, re.sub(r"\b" + gid + r"\b", "GAME", body), r.subject.replace(gid, "GAME")))
        return out

    nothing = replies_to_east("a-none", None)
    fire = replies_to_east("a-fire", "FIRE 1\nMOVE +1\n")
    standing = replies_to_east("a-standing", "ON_HIT RUN\nFIRE 5\n")
    assert [k for k, *_ in nothing] == ["reject", "ack"]
    assert nothing == fire == standing
