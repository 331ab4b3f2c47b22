"""Shadow Phase choices by Allied standing orders [6]: who shadows (with a TF split), the reply to a
Diversion Maneuver (fast part, slow part or both with a split), and the defaults when no order covers it."""

from pbem.core.dice import FixedDice
from pbem.core.orders import OrderLine
from pbem.rules.bismarck import RULESET, game
from pbem.rules.bismarck import tables as T
from pbem.rules.bismarck.orders import standing_key
from pbem.rules.bismarck.work import Work

from .conftest import at, set_standing, fresh


def face(*rs):
    """The dice faces (1..10) that read as the d10 results ``rs`` (0..9): a 0 is face 10 [2.8]."""
    return [r or 10 for r in rs]


def _setup(allied_std=(), german_std=(), allied_in_hex=("norfolk",)):
    """KG1 (Bismarck ER 30, Prinz Eugen ER 32) Sighted by the Allied player in J29; weather box 5."""
    s = at(fresh(), turn=fresh().start + 1, weather=5,
                standing=(("allied", tuple(allied_std)), ("german", tuple(german_std))))
    w = Work(s)
    for sid in allied_in_hex:  # the others start far from J29
        w.set(sid, hex="J29")
    c = w.mark("allied", "KG1", "sighted", "search")
    return w, c.cid


def _run(w, *rolls):
    dice = FixedDice(face(4, *rolls))  # the weather roll first (4 at box 5: no change)
    game.visibility_phase(w, dice)
    assert dice.unused == 0
    return "\n".join(e.text for e in w.events)


def test_tf_split_lets_the_faster_ship_shadow_alone():
    # Hood (ER 29) split from TF1 (Prince of Wales ER 28): ER difference 29-30 = -1 (+1), Radar I -1 [6]
    w, cid = _setup(allied_in_hex=("hood", "prince-of-wales"))
    set_standing(w, (("allied", (f"SHADOW {cid} WITH hood SPLIT",)), ("german", ())))
    drm = T.shadow_drm(-1, 1, 5, False, False)
    text = _run(w, 4 - drm)
    assert w.ships["hood"].tf is None and w.ships["prince-of-wales"].tf is None  # TF1 is split
    assert w.contact_on("KG1").status == "shadowed"
    assert "hood, split from TF1 shadows, by your order" in text
    assert w.s.shadowers == ("hood",)


def test_without_split_the_whole_tf_shadows_and_its_slowest_ship_counts():
    # the whole TF1: slowest shadower Prince of Wales ER 28 - 30 = -2: shadowing impossible (NP) [6]
    w, cid = _setup(allied_in_hex=("hood", "prince-of-wales"))
    set_standing(w, (("allied", (f"SHADOW {cid} WITH hood",)), ("german", ())))
    text = _run(w)  # no shadow roll at all
    assert w.ships["hood"].tf == "TF1"
    assert "the whole TF1 (the order does not say SPLIT) shadows" in text
    assert "impossible (ER difference -2)" in text
    assert w.contact_on("KG1") is None


def test_a_shadowed_allied_tf_may_not_split():
    w, cid = _setup(allied_in_hex=("hood", "prince-of-wales"))
    w.mark("german", "TF1", "shadowed", "search")
    set_standing(w, (("allied", (f"SHADOW {cid} WITH hood SPLIT",)), ("german", ())))
    text = _run(w)
    assert w.ships["hood"].tf == "TF1"
    assert "the whole TF1: it is Shadowed and may not split" in text


def test_default_picks_the_unit_whose_slowest_ship_is_fastest_and_says_so():
    # TF1 (slowest 28) and Norfolk (31) in the hex, no SHADOW order for the contact
    w, cid = _setup(allied_std=("SHADOW ON",), allied_in_hex=("hood", "prince-of-wales", "norfolk"))
    drm = T.shadow_drm(1, 1, 5, False, False)
    text = _run(w, 4 - drm)
    assert f"shadow {cid}: default applied (no SHADOW order for it): norfolk shadows" in text
    assert w.s.shadowers == ("norfolk",) and w.ships["hood"].tf == "TF1"


def _std(w, allied=(), german=()):
    set_standing(w, (("allied", tuple(allied)), ("german", tuple(german))))


def test_shadow_off_for_one_contact_means_no_attempt_and_no_roll():
    w, cid = _setup()
    _std(w, ("SHADOW ON", f"SHADOW {cid} OFF"))
    text = _run(w)
    assert f"{cid} in J29: no shadow attempt, by your order" in text
    assert w.contact_on("KG1") is None  # removed at 2B


def test_a_hex_target_covers_a_contact_made_later():
    w, cid = _setup(allied_std=("SHADOW J29 OFF",))
    text = _run(w)
    assert "no shadow attempt" in text


def test_diversion_both_with_a_tf_split_makes_two_attempts():
    # Norfolk (31, Radar I) and Suffolk (31, Radar II) in TF9; German divides KG1, Prinz Eugen fast.
    w, cid = _setup(german_std=("ON_SHADOW KG1 DIVERT prinz-eugen",),
                    allied_in_hex=("norfolk", "suffolk"))
    w.set("norfolk", tf="TF9")
    w.set("suffolk", tf="TF9")
    _std(w, (f"SHADOW {cid} WITH TF9", f"ON_DIVERSION {cid} BOTH FAST=suffolk"), ("ON_SHADOW KG1 DIVERT prinz-eugen",))
    fuel = w.ships["bismarck"].fuel
    fast = T.shadow_drm(31 - 32, 2, 5, False, True)   # suffolk after Prinz Eugen, +2 for the fast part
    slow = T.shadow_drm(31 - 30, 1, 5, False, False)  # norfolk after Bismarck
    assert (fast, slow) == (2, -2)
    text = _run(w, 4 - fast, 4 - slow)
    assert "suffolk follow the fast part, norfolk the slow part" in text
    shadowed = sorted(c.unit for c in w.contacts if c.status == "shadowed")
    assert shadowed == ["bismarck", "prinz-eugen"]
    assert w.ships["norfolk"].tf is None and w.ships["suffolk"].tf is None
    assert w.ships["bismarck"].fuel == fuel - 1  # the Diversion costs every ship 1 FP


def test_diversion_fast_part_costs_plus_two():
    w, cid = _setup(allied_std=("ON_DIVERSION FAST",), german_std=("ON_SHADOW KG1 DIVERT prinz-eugen",))
    drm = T.shadow_drm(31 - 32, 1, 5, False, True)
    assert drm == 3
    text = _run(w, 4 - drm)
    assert "the fast part, by your order" in text
    assert [c.unit for c in w.contacts if c.status == "shadowed"] == ["prinz-eugen"]


def test_diversion_default_single_ship_follows_the_slow_part():
    w, cid = _setup(german_std=("ON_SHADOW KG1 DIVERT prinz-eugen",))
    text = _run(w, 0)
    assert "the slow part, by default (no ON_DIVERSION order)" in text
    assert [c.unit for c in w.contacts if c.status == "shadowed"] == ["bismarck"]


def test_diversion_default_group_of_two_follows_both_parts():
    w, cid = _setup(german_std=("ON_SHADOW KG1 DIVERT prinz-eugen",), allied_in_hex=("norfolk", "suffolk"))
    w.set("norfolk", tf="TF9")
    w.set("suffolk", tf="TF9")
    text = _run(w, 0, 0)
    assert "both parts, by default (no ON_DIVERSION order)" in text
    assert sorted(c.unit for c in w.contacts if c.status == "shadowed") == ["bismarck", "prinz-eugen"]


def test_both_with_a_single_ship_falls_back_to_the_slow_part():
    w, cid = _setup(allied_std=("ON_DIVERSION BOTH",), german_std=("ON_SHADOW KG1 DIVERT prinz-eugen",))
    text = _run(w, 0)
    assert "a single ship cannot follow both parts: the slow part" in text


def test_orders_for_a_contact_that_is_gone_lapse():
    w, cid = _setup()
    _std(w, (f"SHADOW {cid} OFF", "SHADOW J29 OFF", f"ON_DIVERSION {cid} FAST"))
    text = _run(w)
    assert w.contact_on("KG1") is None
    assert w.std("allied") == ("SHADOW J29 OFF",)
    assert "standing orders lapse" in text


# --- checking the orders ------------------------------------------------------------------
def _allied_view():
    w = Work(fresh())
    w.set("norfolk", hex="G21", tf="TF1")
    c = w.mark("allied", "KG1", "sighted", "search")
    s = w.freeze(step="orders")
    return RULESET.view(s, "allied"), c.cid


def _check(view, *texts):
    return RULESET.check_orders(view, "allied", [OrderLine(i + 1, t) for i, t in enumerate(texts)])


def test_check_shadow_orders_and_canonical_form():
    view, cid = _allied_view()
    c = _check(view, f"shadow {cid.lower()} with Norfolk,hood split", "SHADOW j29 WITH tf1",
               f"ON_DIVERSION {cid} both fast=suffolk", "ON_DIVERSION SLOW", f"SHADOW {cid} OFF")
    assert not c.problems, c.problems
    assert [o.text() for o in c.orders] == [f"SHADOW {cid} WITH hood,norfolk SPLIT", "SHADOW J29 WITH TF1",
                                    f"ON_DIVERSION {cid} BOTH FAST=suffolk", "ON_DIVERSION SLOW", f"SHADOW {cid} OFF"]
    # the later per-contact order replaces the earlier one, the global and the hex ones are separate
    keys = [standing_key(o.text().split()) for o in c.orders]
    assert keys == [f"SHADOW {cid}", "SHADOW J29", f"ON_DIVERSION {cid}", "ON_DIVERSION", f"SHADOW {cid}"]
    again = _check(view, *(o.text() for o in c.orders))
    assert again.orders == c.orders


def test_check_shadow_orders_rejects_with_rule_and_line():
    view, cid = _allied_view()
    c = _check(view, f"SHADOW {cid} WITH norfolk", "SHADOW C99 WITH norfolk", "SHADOW J29 WITH",
               "ON_DIVERSION FAST FAST=norfolk", "SHADOW J29 WITH TF1 SPLIT")
    by_line = {p.line_no: p for p in c.problems}
    assert sorted(by_line) == [1, 2, 3, 4, 5]
    assert all(p.rule == "6" for p in c.problems)
    assert "add SPLIT" in by_line[1].message and "TF1" in by_line[1].message
    assert "no contact C99" in by_line[2].message
    assert "FAST=<ships> only follows BOTH" in by_line[4].message


def test_german_may_not_give_shadow_orders():
    w = Work(fresh())
    view = RULESET.view(w.freeze(step="orders"), "german")
    c = RULESET.check_orders(view, "german", [OrderLine(1, "SHADOW J29 OFF")])
    assert c.problems and c.problems[0].rule == "6"  # shadowing is the Allied player's [6]


def test_order_form_shows_the_shadow_orders():
    view, cid = _allied_view()
    form = RULESET.order_form(view, "allied")
    assert "SHADOW <contact|hex> WITH <TF|ship[,ship...]> [SPLIT]" in form
    assert "ON_DIVERSION [<contact|hex>] FAST|SLOW|BOTH" in form
    german = RULESET.order_form(RULESET.view(Work(fresh()).freeze(step="orders"), "german"), "german")
    assert "ON_SHADOW <unit> EVADE|NONE|DIVERT" in german and "ON_DIVERSION" not in german


def test_a_shadowed_allied_tf_cannot_split_to_follow_both_parts():
    w, cid = _setup(german_std=("ON_SHADOW KG1 DIVERT prinz-eugen",), allied_in_hex=("norfolk", "suffolk"))
    w.set("norfolk", tf="TF9")
    w.set("suffolk", tf="TF9")
    w.mark("german", "TF9", "shadowed", "search")
    _std(w, ("ON_DIVERSION BOTH",), ("ON_SHADOW KG1 DIVERT prinz-eugen",))
    text = _run(w, 0)  # one attempt only, on the slow part
    assert "a Shadowed task force may not split [6]: the slow part" in text
    assert w.ships["norfolk"].tf == "TF9"
