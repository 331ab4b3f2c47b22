"""Combat resolution: attacks, reactive and mutual fire, bombs, unjamming and AA fire [R 5-7].

Functions of the :class:`~.world.World` being resolved.  A report of a shot names the shooter only to
a side that can see it (fog games, digest 5); the reacting side's standing orders decide reactive fire.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from pbem.core.texts import join, t_
from pbem.core.work import EVERYONE

from . import board, combat, tables
from .board import Hex
from .combat import plane
from .orders import AaFire, Action, Bomb, Fire, Unjam
from .setup import scenario_data, targets
from .state import Aircraft, Gun
from .world import OTHER, World, ac_key


def can_fire(world: World, a: Aircraft, target: str = "") -> bool:
    if a.status != "board" or a.jammed:
        return False
    if a.fired_stage == world.stage:
        return world.opts["one_shot"] == "target" and target != "" and a.fired_target == target
    return True


UNSEEN = t_("an unseen aircraft")
HIT, MISS = t_("hit"), t_("miss")


def unseen_by(world: World, a: Aircraft, side: str) -> bool:
    """True when ``side`` may not see aircraft ``a`` (fog games; the British see all by radar)."""
    return world.hidden_from(a, side)


def label(world: World, a: Aircraft, for_side: str) -> str:
    """How ``for_side`` may call aircraft ``a`` in a report everyone reads."""
    return UNSEEN if unseen_by(world, a, for_side) else a.id


def say_shot(world: World, shooter: Aircraft, target: Aircraft, text: Callable[[str], str] | str, kind: str) -> None:
    """A shot's report; the target's side learns only that an unseen aircraft fired if it cannot see
    the shooter [digest 5], so a fog game never names a hidden aircraft."""
    if isinstance(text, str):  # a plain "{shooter} ..." template (English only)
        template = text
        text = lambda who: template.format(shooter=who)  # noqa: E731
    if not unseen_by(world, shooter, target.side):
        world.w.say(text(shooter.id), kind=kind)
        return
    world.w.say(text(shooter.id), to=shooter.side, kind=kind)
    world.w.say(text(UNSEEN), to=target.side, kind=kind)


def shot(world: World, shooter: Aircraft, target: Aircraft, dist: int, strength: int, notes: list[str]) -> bool:
    """Roll one attack; returns True on a hit (the caller applies it) [R 5.2, 5.3.4, Table 2]."""
    world.set(shooter.id, fired_stage=world.stage, fired_target=target.id)
    mods = t_(" (%(notes)s)", notes=join("; ", notes)) if notes else ""
    rng = tables.hit_range(strength, dist)
    if rng is None and world.opts["zero_strength"] == "no_roll":
        say_shot(world, shooter, target, lambda who: t_(
            "%(shooter)s fires at %(target)s at distance %(dist)s with strength %(strength)s%(mods)s: no hit possible, "
            "no roll [R 5.2, Table 2; option zero_strength]", shooter=who, target=target.id, dist=dist,
            strength=strength, mods=mods), "fire")
        return False
    who = UNSEEN if unseen_by(world, shooter, target.side) else shooter.id
    s = world.w.roll(6, t_("%(who)s fires at %(target)s, first die", who=who, target=target.id), seen_by=EVERYONE) + \
        world.w.roll(6, t_("%(who)s fires at %(target)s, second die", who=who, target=target.id), seen_by=EVERYONE)
    if s in tables.jam_sums():
        world.set(shooter.id, jammed=True)
        say_shot(world, shooter, target, lambda who: t_(
            "%(shooter)s fires at %(target)s (distance %(dist)s, strength %(strength)s%(mods)s): rolls %(roll)s, guns "
            "jammed [R 5.3.4]", shooter=who, target=target.id, dist=dist, strength=strength, mods=mods, roll=s), "jam")
        return False
    hit = rng is not None and rng[0] <= s <= rng[1]
    need = t_("needs %(lo)s-%(hi)s", lo=rng[0], hi=rng[1]) if rng else t_("cannot hit")
    say_shot(world, shooter, target, lambda who: t_(
        "%(shooter)s fires at %(target)s (distance %(dist)s, strength %(strength)s%(mods)s, %(need)s): rolls %(roll)s, "
        "%(result)s", shooter=who, target=target.id, dist=dist, strength=strength, mods=mods, need=need, roll=s,
        result=HIT if hit else MISS), "fire")
    return hit


def target(world: World, a: Aircraft) -> tuple[Aircraft, int] | None:
    """The enemy ``a`` may fire at now [R 5.1-5.3.2].  In a fog game its line of fire holds only the
    aircraft its side sees -- the rule the views and the order check use -- since pilots cannot aim at
    (or be stopped by) what they cannot see; so no report names an unseen target to its shooter."""
    planes = [plane(x) for x in world.on_board() if not unseen_by(world, x, a.side)]
    t = combat.target_of(plane(a), planes, world.opts)
    return (world.ac[t[0].id], t[1]) if t else None


def fire(world: World, shooter: Aircraft, expect: str = "") -> None:
    """An attack by the phasing side, results applied at once [R 5.3.7, 5.3.8, G-32]."""
    shooter = world.ac[shooter.id]
    tg = target(world, shooter) if shooter.status == "board" else None
    if shooter.status != "board":
        return
    if tg is None:
        world.w.say(t_("%(ac)s has no enemy as the nearest aircraft on its line of fire; it holds fire", ac=shooter.id),
                    to=world.secret_to(shooter.side))
        return
    t, d = tg
    if expect and t.id.lower() != expect.lower():
        world.w.say(t_("%(ac)s holds fire: the nearest target is not %(expect)s", ac=shooter.id, expect=expect),
                    to=world.secret_to(shooter.side))
        return
    if not can_fire(world, shooter, t.id):
        why = t_("its guns are jammed") if shooter.jammed else t_("it has already fired this stage [R 5.3.1]")
        world.w.say(t_("%(ac)s cannot fire: %(why)s", ac=shooter.id, why=why), to=world.secret_to(shooter.side))
        return
    st, notes = combat.strength(plane(shooter), plane(t), world.s.sun, world.opts)
    if shot(world, shooter, t, d, st, notes):
        world.hit(t, t_("hit by %(who)s", who=label(world, shooter, t.side)))


def reactive_candidates(world: World, phasing: str) -> list[tuple[Aircraft, Aircraft, int]]:
    out = []
    for b in world.on_board(OTHER[phasing]):
        tg = target(world, b)
        if tg and can_fire(world, b, tg[0].id):
            out.append((b, tg[0], tg[1]))
    return out


def hopeless(world: World, b: Aircraft, t: Aircraft, d: int) -> bool:
    """Table 2 gives ``b`` no hit on ``t`` at distance ``d``: a shot would only spend its one shot."""
    st, _ = combat.strength(plane(b), plane(t), world.s.sun, world.opts)
    return tables.hit_range(st, d) is None


def wants_react(world: World, b: Aircraft, t: Aircraft, decisions: dict[str, str], d: int) -> str:
    """FIRE, HOLD or ASK for aircraft b whose nearest target is t at distance d [R 5.3.6, 5.4].

    Every shot is optional [R 5.3.6]: a standing order (or the default) never spends the aircraft's one
    shot of the stage where Table 2 gives no hit, and nobody is asked about such a shot; only an
    explicit answer of its owner fires it."""
    if b.id in decisions:
        return decisions[b.id]
    if hopeless(world, b, t, d):
        return "HOLD"
    pol = world.policy(b.id, "react", world.opts["react_default"].upper())
    if pol == "ALWAYS":
        return "FIRE"
    if pol == "NEVER":
        return "HOLD"
    if pol == "ASK":
        return "ASK"
    if pol == "BOMBER":
        return "FIRE" if tables.type_info(t.type)["vp_class"] == "bomber" else "HOLD"
    if pol.startswith("STRENGTH:"):
        st, _ = combat.strength(plane(b), plane(t), world.s.sun, world.opts)
        return "FIRE" if st >= int(pol.split(":")[1]) else "HOLD"
    return "FIRE"


def reactive_fire(world: World, phasing: str, decisions: dict[str, str]) -> None:
    """Non-phasing aircraft fire first at phasing aircraft on their line [R 3 Faza 2/4, 5.4]; a target
    that has the reacting aircraft as its own target may return fire simultaneously."""
    for b in world.on_board(OTHER[phasing]):
        b = world.ac[b.id]
        if b.status != "board":
            continue
        tg = target(world, b)
        if not tg or not can_fire(world, b, tg[0].id):
            continue
        t, d = tg
        if wants_react(world, b, t, decisions, d) != "FIRE":
            continue
        back = target(world, t)
        mutual = back is not None and back[0].id == b.id and can_fire(world, t, b.id) and \
            world.policy(t.id, "return", "YES") == "YES"
        sb, nb = combat.strength(plane(b), plane(t), world.s.sun, world.opts)
        if mutual:
            st_, nt = combat.strength(plane(t), plane(b), world.s.sun, world.opts)
            world.w.say(t_("%(a)s and %(b)s fire at each other simultaneously [R 5.4]", a=b.id, b=t.id), kind="mutual")
            h1 = shot(world, b, t, d, sb, nb)
            h2 = shot(world, t, b, d, st_, nt)
            if h1:
                world.hit(t, t_("hit by %(who)s", who=label(world, b, t.side)))
            if h2:
                world.hit(b, t_("hit by %(who)s", who=label(world, t, b.side)))
        else:
            say_shot(world, b, t, lambda who, tid=t.id: t_("%(shooter)s fires reactively at %(target)s [R 5.4]",
                                                                shooter=who, target=tid), "react")
            if shot(world, b, t, d, sb, nb):
                world.hit(t, t_("hit by %(who)s", who=label(world, b, t.side)))


def ask_list(world: World, phasing: str) -> list[dict[str, Any]]:
    """Reactive decisions no standing order covers (policy ASK) [digest 4.3 IP-2/IP-5]."""
    out = []
    for b, t, d in reactive_candidates(world, phasing):
        if wants_react(world, b, t, {}, d) == "ASK":
            st, notes = combat.strength(plane(b), plane(t), world.s.sun, world.opts)
            out.append({"ac": b.id, "seat": b.seat, "target": t.id, "dist": d, "strength": st,
                        "range": list(tables.hit_range(st, d) or [])})
    return out


def drop(world: World, a: Aircraft, h: Hex) -> None:
    """One bomb series on a hex [R 7.0-7.0.10, Table 1, 9.2]."""
    a = world.ac[a.id]
    if a.status != "board" or a.bombs <= 0 or h in a.bombed:
        return
    if a.jammed and world.opts["jammed_bombing"] == "no":
        world.w.say(t_("%(ac)s has jammed guns and may not bomb (option jammed_bombing=no)", ac=a.id),
                    to=world.secret_to(a.side))
        return
    a = world.set(a.id, bombs=a.bombs - 1, bombed=a.bombed + (h,))
    ter = board.terrain()
    oid = ter.object_at(h)
    text = t_("%(ac)s drops a bomb series on %(hex)s", ac=a.id, hex=board.fmt(h))
    if oid:
        world.bombed.add(oid)
        if oid in targets(world.s.scenario):
            world.vp["de"] += int(world.opts["vp_per_series"])
            text = t_("%(ac)s drops a bomb series on %(hex)s, strategic object %(obj)s (a scenario target): DE +%(vp)s",
                      ac=a.id, hex=board.fmt(h), obj=oid, vp=world.opts["vp_per_series"])
        else:
            text = t_("%(ac)s drops a bomb series on %(hex)s, strategic object %(obj)s (not a target of this scenario, "
                      "no VP)", ac=a.id, hex=board.fmt(h), obj=oid)
    world.w.say(text, kind="bomb", hex=board.fmt(h))
    for g in sorted(world.guns.values(), key=lambda g: ac_key(g.id)):
        if g.hex == h and not g.destroyed:
            v = world.w.roll(6, t_("bombs on AA gun %(gun)s at %(hex)s (4-6 destroyed) [R 7.0.6]", gun=g.id,
                                   hex=board.fmt(h)),
                             seen_by=EVERYONE)
            if v in tables.dice_table()["bomb_destroys_gun"]:
                world.guns[g.id] = replace(g, destroyed=True, revealed=True)
                world.w.say(t_("AA gun %(gun)s at %(hex)s is destroyed by the bombs", gun=g.id, hex=board.fmt(h)),
                            kind="gun")
            else:
                world.guns[g.id] = replace(g, revealed=True)
                world.w.say(t_("AA gun %(gun)s at %(hex)s survives the bombs", gun=g.id, hex=board.fmt(h)), kind="gun")
    tg = targets(world.s.scenario)
    bonus = scenario_data(world.s.scenario)["all_targets_bonus"]
    if bonus and not world.bonus_done and all(t in world.bombed for t in tg):
        world.bonus_done = True
        world.vp["de"] += bonus
        world.w.say(t_("every target of the scenario has been bombed: DE +%(vp)s [R 9.2]", vp=bonus), kind="bonus")


def bomb(world: World, a: Aircraft, hexes: list[Hex]) -> None:
    a = world.ac[a.id]
    for h in hexes:
        if h not in a.path:
            world.w.say(t_("%(ac)s did not fly over %(hex)s this stage: no bombs there [R 7.0.2]", ac=a.id,
                           hex=board.fmt(h)),
                        to=world.secret_to(a.side))
            continue
        drop(world, a, h)


def unjam(world: World, a: Aircraft) -> None:
    """One unjam try: 6 clears the jam from the next stage [R 5.3.4]."""
    a = world.ac[a.id]
    if a.status != "board" or not a.jammed or a.unjam_stage:
        return
    v = world.w.roll(6, t_("%(ac)s tries to clear its guns (6 succeeds) [R 5.3.4]", ac=a.id),
                     seen_by=world.secret_to(a.side))
    if v in tables.dice_table()["unjam_success"]:
        world.set(a.id, unjam_stage=world.stage)
        world.w.say(t_("%(ac)s clears its guns; it may fire again from the next stage", ac=a.id),
                    to=world.secret_to(a.side), kind="unjam")
    else:
        world.w.say(t_("%(ac)s fails to clear its guns", ac=a.id), to=world.secret_to(a.side), kind="unjam")


def aa_fire(world: World, g: Gun, t: Aircraft) -> None:
    """One AA shot [R 6.1, 6.2, Table 4]."""
    g, t = world.guns[g.id], world.ac[t.id]
    if g.destroyed or g.fired_stage == world.stage or t.status != "board" or t.side != "de":
        return
    rng, why = combat.aa_can_hit(g.hex, plane(t), world.s.sun, world.opts)  # type: ignore[arg-type]
    if why == "out of range":
        world.w.say(t_("%(gun)s: %(ac)s is not within 1 hex of the gun [R 6.1]", gun=g.id, ac=t.id),
                    to=world.secret_to("gb"))
        return
    world.guns[g.id] = replace(g, fired_stage=world.stage, revealed=True)
    if rng is None:
        world.w.say(t_("AA gun %(gun)s fires at %(ac)s: %(why)s [R 6.2.5, Table 4]", gun=g.id, ac=t.id, why=why),
                    kind="aa")
        return
    v = world.w.roll(6, t_("AA gun %(gun)s fires at %(ac)s (hits on %(lo)s-%(hi)s) [Table 4]", gun=g.id, ac=t.id,
                           lo=rng[0], hi=rng[1]), seen_by=EVERYONE)
    ok = rng[0] <= v <= rng[1]
    world.w.say(t_("AA gun %(gun)s at %(hex)s fires at %(ac)s: rolls %(roll)s, %(result)s", gun=g.id,
                   hex=board.fmt(g.hex), ac=t.id, roll=v, result=HIT if ok else MISS),  # type: ignore[arg-type]
                kind="aa")
    if ok:
        world.hit(t, t_("AA gun %(gun)s", gun=g.id))


def best_aa_target(world: World, g: Gun, only_bombers: bool) -> Aircraft | None:
    best = None
    for t in world.on_board("de"):
        if only_bombers and tables.type_info(t.type)["vp_class"] != "bomber":
            continue
        rng, _ = combat.aa_can_hit(g.hex, plane(t), world.s.sun, world.opts)  # type: ignore[arg-type]
        if rng is None:
            continue
        key = (-(rng[1] - rng[0]), tables.type_info(t.type)["vp_class"] != "bomber", not t.damaged, ac_key(t.id))
        if best is None or key < best[0]:
            best = (key, t)
    return best[1] if best else None


def aa_auto(world: World) -> None:
    for g in sorted(world.guns.values(), key=lambda g: ac_key(g.id)):
        if g.destroyed or g.fired_stage == world.stage:
            continue
        pol = world.policy(g.id, "aa", "AUTO")
        if pol == "HOLD":
            continue
        t = best_aa_target(world, g, pol == "BOMBERS")
        if t is not None:
            aa_fire(world, g, t)


def aa_on_movement(world: World, a: Aircraft) -> None:
    """Option aa_timing=movement (G-15): guns fire by standing order as a German aircraft comes near."""
    for g in sorted(world.guns.values(), key=lambda g: ac_key(g.id)):
        a = world.ac[a.id]
        if a.status != "board" or g.destroyed or g.fired_stage == world.stage:
            continue
        if board.distance(g.hex, a.hex) > 1:  # type: ignore[arg-type]
            continue
        pol = world.policy(g.id, "aa", "AUTO")
        if pol == "HOLD" or (pol == "BOMBERS" and tables.type_info(a.type)["vp_class"] != "bomber"):
            continue
        rng, _ = combat.aa_can_hit(g.hex, plane(a), world.s.sun, world.opts)  # type: ignore[arg-type]
        if rng is not None:
            aa_fire(world, g, a)


def written_actions(world: World, acts: Sequence[Action]) -> None:
    """The phasing side's attacks, bombs, unjam tries and AA shots in the order written [R 3.0, 5.3.8]."""
    for act in acts:
        if isinstance(act, Fire):
            a = world.ac.get(act.ac)
            if a is not None and a.status == "board":
                fire(world, a, act.at)
        elif isinstance(act, Bomb) and world.opts["bomb_timing"] == "combat":
            bomb(world, world.ac[act.ac], [board.parse_hex(h) for h in act.hexes])  # type: ignore[misc]
        elif isinstance(act, Unjam):
            unjam(world, world.ac[act.ac])
        elif isinstance(act, AaFire) and world.opts["aa_timing"] == "combat":
            aa_fire(world, world.guns[act.gun], world.ac[act.at])


def combat_phase(world: World, phasing: str, actions: Sequence[Action], decisions: dict[str, str]) -> None:
    reactive_fire(world, phasing, decisions)
    written_actions(world, actions)
    if phasing == "gb" and world.opts["aa_timing"] == "combat":
        aa_auto(world)
