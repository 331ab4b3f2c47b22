"""TEST-EX-1: the rulebook's worked combat example, step by step [L227-255, digest 9.2].

Aircraft A (c1, an I-16: base firing 1, hand limit 5) and B (x1) are nose to nose at
medium altitude.  Expected: the Short burst is refused at Front (1 < 2); the Banked turn
survives Dodge / Dodge / Ace's reaction / Feint (5 cards to the discard); the flank gives
1 + 1 = 2 firing; the Short burst is cancelled by Barrel roll x3 (4 more cards): 9 cards
discarded, no damage to B, no firing left for A, B's hand empty.
"""
from skyhelp import doc, pending, position, problems, step

from pbem.rules.sky_ww2.state import State
from pbem.rules.sky_ww2.views import view
from pbem.rules.sky_ww2.rulebook import cite

A_HAND = ["short-burst", "banked-turn", "dodge", "feint", "barrel-roll"]
B_HAND = ["dodge", "ace-reaction", "barrel-roll", "barrel-roll"]


def example(**options) -> State:
    return position({
        "c1": {"number": 8, "alt": "medium", "cell": (2, 2), "facing": "E", "hand": A_HAND},
        "x1": {"number": 2, "alt": "medium", "cell": (3, 2), "facing": "W", "hand": B_HAND},
    }, options={"step_mode": True, **options})


def firing_left(state: State) -> int:
    rel = view(state, "coalition-1")["decide"]["relations"]
    return rel[0]["firing"]


def test_start_position_is_front_dogfight_and_short_burst_is_refused():
    s = example()
    v = view(s, "coalition-1")
    assert v["decide"]["kind"] == "script" and v["decide"]["ac"] == "c1"
    rel = v["decide"]["relations"]
    assert rel == [{"id": "x1", "my_aspect": "nose", "their_aspect": "nose", "position": "front",
                    "firing": 1, "pool": "guns"}]
    # [L229] in a dogfight: no move or turn in the field; altitude change or staying is fine
    assert problems(s, "coalition-1", "MOVE 1,1 FACE N")[0].rule == cite("L119, L135, L295")
    assert not problems(s, "coalition-1", "CLIMB DISCARD feint")
    # [L231] Short burst costs 2, A has 1 at Front
    [p] = problems(s, "coalition-1", "STAY\nATTACK short-burst TARGET x1")
    assert p.text == "ATTACK short-burst TARGET x1" and p.line_no > 0 and "costs 2 firing points" in p.message and p.rule == cite("L41, L231")


def run_example(interrupts: bool):
    s = example()
    # B's standing policy (sent as an optional seat while A's turn is due) settles every answer
    policy = {} if interrupts else {"axis-1": "REACT x1 dodge AGAINST banked-turn\nREACT x1 ace-reaction\n"
                                              "REACT x1 barrel-roll AGAINST attack\nREACT_DEFAULT PASS"}
    # Beat 1 [L231-241]: Banked turn on B, A answers with Dodge then Feint
    s, ev = step(s, {"coalition-1": "STAY\nMANOEUVRE banked-turn TARGET x1 APPLY TARGET ROTATE CW\n"
                                    "ON_CANCELLED dodge feint", **policy})
    if interrupts:
        assert pending(s)["kind"] == "react" and pending(s)["seats"] == ["axis-1"]
        v = view(s, "axis-1")
        assert {"card": "dodge", "source": "hand", "on": 1} in v["decide"]["options"]
        s, ev = step(s, {"axis-1": "PLAY dodge ON 1"})              # [L233] B: Dodge on the Banked turn
        # A's Dodge on B's Dodge comes from ON_CANCELLED; B must answer again [L237-239]
        assert pending(s)["kind"] == "react"
        assert view(s, "axis-1")["exchange"]["nodes"][2]["card"] == "dodge"
        s, ev = step(s, {"axis-1": "PLAY ace-reaction ON 3"})        # Ace's reaction on A's Dodge
        # A plays Feint on B's Dodge; B holds only Barrel rolls: no legal answer, B passes [L241]
        assert pending(s)["kind"] == "react" and view(s, "axis-1")["decide"]["options"] == []
        s, ev = step(s, {"axis-1": "PASS"})
    d = doc(s)
    assert pending(s)["kind"] == "script"                             # step mode: A asked again after the beat
    assert d["aircraft"]["x1"]["facing"] == "N"                       # B turned 90 degrees [L243]
    assert sorted(d["discard"]) == sorted(["banked-turn", "dodge", "dodge", "ace-reaction", "feint"])
    assert firing_left(s) == 2                                        # flank: 1 + 1 [L243]
    assert view(s, "coalition-1")["decide"]["relations"][0]["position"] == "flank"
    # Beat 2 [L245-251]: Short burst, Barrel roll x3
    s, ev = step(s, {"coalition-1": "ATTACK short-burst TARGET x1\nON_CANCELLED barrel-roll"})
    if interrupts:
        s, ev = step(s, {"axis-1": "PLAY barrel-roll ON 1"})
        assert pending(s)["kind"] == "react"                          # A's Barrel roll needs B's answer
        s, ev = step(s, {"axis-1": "PLAY barrel-roll ON 3"})
        # B's hand is now empty: the exchange closes without asking; A has no Barrel roll left
    d = doc(s)
    assert len(d["discard"]) == 9
    assert d["discard"].count("barrel-roll") == 3 and "short-burst" in d["discard"]
    assert d["aircraft"]["x1"]["markers"] == 0 and not d["aircraft"]["x1"]["damaged"]
    assert d["aircraft"]["x1"]["hand"] == []
    assert firing_left(s) == 0                                        # [L253]
    [p] = problems(s, "coalition-1", "ATTACK short-burst TARGET x1") if "short-burst" in d["aircraft"]["c1"]["hand"] \
        else [None]
    assert p is None or "firing" in p.message
    # [L255] A ends the turn: number card turned, the other side activates next
    s, ev = step(s, {"coalition-1": "END"})
    d = doc(s)
    assert d["aircraft"]["c1"]["done"] is True
    assert d["turn"]["ac"] == "x1"
    assert len([c for c in d["discard"]]) == 9
    return s


def test_example_with_interrupts():
    run_example(interrupts=True)


def test_example_with_standing_orders():
    run_example(interrupts=False)
