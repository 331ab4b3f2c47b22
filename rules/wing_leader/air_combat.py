"""One air combat carried out with dice and reported [10.2-10.7]: leads, rating, the two Air Combat Table
rolls, hit allocation, confirmation, removal, cohesion, ammunition, and the tallies the combat leaves.

Lead squadrons come from the sides' standing ``LEADS`` lists, by default the attacker first to arrive and
the squadron it tallies; ``LEADS ASK`` asks the side (defender first, 10.2).  The rating is the attacker
lead's standing ``TACTIC`` (SPEED, TURN, BEST = the better column, ASK = an interrupt for its owner).  Hits
go round the enemy squadrons in the order of the side's ``HITS`` list; ``HITS ASK`` asks, after the rolls,
when the spread leaves a choice (10.2.2).  A squadron entering a dogfight with its target elsewhere takes a
new tally in it: the first by the side's ``RETALLY`` list, else by ID; ``RETALLY ASK`` asks (10.8.1).
"""
from __future__ import annotations

from collections.abc import Sequence

from pbem.core.interrupts import Ask
from pbem.core.work import Work

from . import combat, dogfight, fighter_bombers, jets, lufbery, radio, tactics, weapons, wings
from .fog import dice_seen_by, tell
from .model import Squadron, max_losses, owner
from .seating import side_standing, speaker
from .sky import name
from .tables import scenario, tables


Picks = dict   # what was chosen before the combat: "dlead", "alead" (squadron IDs), "rating" (speed/turn)


def _sides(w: Work, fight: combat.Fight, picks: Picks | None = None) -> tuple[list[Squadron], list[Squadron],
                                                                             Squadron, Squadron]:
    """Both sides and their leads [10.2]: the defender chooses first, then the attacker, each as answered
    (``picks``), else by its standing ``LEADS`` list; by default the unbroken attacker first to arrive (a
    broken squadron cannot attack, 10.7.1, though it may be someone's target) and the squadron it tallies."""
    air = w.data
    picks = picks or {}
    attackers = sorted((air.squadron(s) for s in _by_arrival(fight.attackers, list(air.moved_last))),
                       key=lambda s: s.broken)
    defenders = [air.squadron(s) for s in fight.defenders]
    dlead = _picked(defenders, picks.get("dlead")) or _preferred(w, defenders, _default_dlead(attackers, defenders))
    able = _able(attackers)
    alead = _picked(able, picks.get("alead")) or _preferred(w, able, attackers[0])
    return attackers, defenders, alead, dlead


def _able(attackers: list[Squadron]) -> list[Squadron]:
    """The attackers that may lead: the unbroken ones (all when none is) [10.7.1]."""
    return [a for a in attackers if not a.broken] or attackers


def _default_dlead(attackers: list[Squadron], defenders: list[Squadron]) -> Squadron:
    return next((d for d in defenders if d.id == attackers[0].tally), defenders[0])


def _picked(side: list[Squadron], sid: str | None) -> Squadron | None:
    return next((s for s in side if s.id == sid), None) if sid else None


def _preferred(w: Work, side: list[Squadron], default: Squadron) -> Squadron:
    """The first squadron of the side's standing ``LEADS`` list that is in this fight, else ``default``."""
    kept = side_standing(w, side[0].side, "LEADS")
    wanted = kept.words[1:] if kept is not None else ()
    return next((s for sid in wanted for s in side if s.id == sid), default)


def _asks(w: Work, side: str, key: str) -> bool:
    """Whether the side's standing order under ``key`` (LEADS, HITS, RETALLY) is ASK."""
    kept = side_standing(w, side, key)
    return kept is not None and kept.words[1:] == ("ASK",)


def _targets(w: Work, shooter_side: str, lead: Squadron, others: list[Squadron], answer: str = "") -> list[Squadron]:
    """The order hits go round the enemy squadrons [10.2.2]: the shooting player's answer, else its standing
    ``HITS`` list, first; then the enemy lead, then the rest."""
    kept = side_standing(w, shooter_side, "HITS")
    wanted = list(dict.fromkeys(answer.split() + (list(kept.words[1:]) if kept is not None else [])))
    everyone = [lead] + [o for o in others if o.id != lead.id]
    return sorted(everyone, key=lambda s: wanted.index(s.id) if s.id in wanted else len(wanted))


def question(w: Work, fight: combat.Fight, picks: Picks) -> tuple[str, Ask] | None:
    """The next decision before the combat that a side asked to be asked, with the step that resumes it:
    the defender's lead, then the attacker's (knowing the defender's) [10.2], then the rating [10.5].
    Decisions taken are written into ``picks``."""
    attackers, defenders, alead, dlead = _sides(w, fight, picks)
    where = name(fight.square)
    if "dlead" not in picks:
        picks["dlead"] = dlead.id
        if len(defenders) > 1 and _asks(w, dlead.side, "LEADS"):
            return "lead_choice", Ask(speaker(w, dlead.side, defenders), "lead",
                                      f"{'+'.join(s.id for s in attackers)} attack you in {where}: which squadron "
                                      f"leads your defence (10.2)?", dlead.id, tuple(s.id for s in defenders))
    if "alead" not in picks:
        picks["alead"] = alead.id
        able = _able(attackers)
        if len(able) > 1 and _asks(w, alead.side, "LEADS"):
            return "lead_choice", Ask(speaker(w, alead.side, able), "lead",
                                      f"you attack {'+'.join(s.id for s in defenders)} in {where}, led by {dlead.id}: "
                                      f"which squadron leads your attack (10.2)?", alead.id, tuple(s.id for s in able))
    if "rating" not in picks:
        ask = ask_rating(w, fight, picks)
        if ask is not None:
            return "combat_choice", ask
    if "evade" not in picks and w.data.state.uses("13.4.2"):
        picks["evade"] = ""
        ask = ask_evade(w, fight, picks)
        if ask is not None:
            return "evade_choice", ask
    return None


def ask_evade(w: Work, fight: combat.Fight, picks: Picks) -> Ask | None:
    """The question for the defending lead's owner when its standing order is ``EVADE <sq> ASK`` and the
    defence may evade [13.4.2]."""
    attackers, defenders, alead, dlead = _sides(w, fight, picks)
    now = w.data.now()
    if _choice(w, dlead, "EVADE") != "ASK" or \
            not tactics.evades(now, alead, defenders, tactics.bounce(now, alead, defenders, attackers,
                                                                     list(w.data.squadrons.values())), "YES"):
        return None
    return Ask(owner(dlead), "evade", f"{alead.id} attacks {'+'.join(d.id for d in defenders)} in "
               f"{name(fight.square)}: does your defence evade (13.4.2)?", "NO", ("YES", "NO"))


def ask_rating(w: Work, fight: combat.Fight, picks: Picks | None = None) -> Ask | None:
    """The question for the attacking lead's owner when its standing order is ``TACTIC <sq> ASK`` and the
    fight is not head-on (head-on is always hit-and-run, 10.3) [10.5]."""
    attackers, defenders, alead, dlead = _sides(w, fight, picks)
    kept = w.standing_order(owner(alead), f"TACTIC {alead.id}")
    if kept is None or kept.words[-1] != "ASK" or alead.dogfight or combat.head_on(alead, dlead):
        return None
    cols = {k: combat.column(_rating(w, alead, attackers, k), _rating(w, dlead, defenders, k))
            for k in (combat.SPEED, combat.TURN)}
    return Ask(owner(alead), "rating", f"{alead.id} attacks {dlead.id} in {name(fight.square)}: SPEED gives column "
               f"{cols[combat.SPEED]:+d}, TURN column {cols[combat.TURN]:+d}", "BEST", ("SPEED", "TURN", "BEST"))


def best_rating(w: Work, fight: combat.Fight, picks: Picks | None = None) -> str:
    attackers, defenders, alead, dlead = _sides(w, fight, picks)
    return _better(w, alead, dlead, attackers, defenders)


def fire(w: Work, fight: combat.Fight, picks: Picks | None = None) -> dict:
    """One air combat up to its two Air Combat Table rolls [10.5]: the volley (JSON) that ``land`` carries
    out; ``picks`` are the leads and rating answered, else the standing orders decide."""
    air = w.data
    attackers, defenders, alead, dlead = _sides(w, fight, picks)
    kind = (picks or {}).get("rating") or _rating_kind(w, alead, dlead, attackers, defenders)
    a_value, d_value = _rating(w, alead, attackers, kind), _rating(w, dlead, defenders, kind)
    weather = air.now().sky.weather_at(fight.square)
    tell(w, f"air combat in {name(fight.square)}: {'+'.join(s.id for s in attackers)} attack "
         f"{'+'.join(s.id for s in defenders)}; leads {alead.id} and {dlead.id}; "
         f"{'hit-and-run (speed)' if kind == combat.SPEED else 'turning fight (turn)'} {a_value} against {d_value}",
         [alead.id, *(s.id for s in attackers + defenders)], kind="combat", square=name(fight.square), attackers=[s.id for s in attackers],
          defenders=[s.id for s in defenders], rating=kind, ratings=[a_value, d_value])
    head_on = combat.head_on(alead, dlead) and not alead.dogfight
    now = air.now()
    why = tactics.bounce(now, alead, defenders, attackers, list(air.squadrons.values()))
    a_bounce, d_bounce = tactics.modifiers() if why else (0, 0)
    if why:
        tell(w, f"{alead.id} bounces {dlead.id}: {why} ({a_bounce:+d} and {d_bounce:+d} to the rolls, 13.4.1)",
             [alead.id, dlead.id], kind="combat")
    evade = tactics.evades(now, alead, defenders, why, (picks or {}).get("evade") or _choice(w, dlead, "EVADE"))
    e_mod = tactics.evasion_modifier() if evade else 0
    if evade:
        for d in defenders:
            air.put(air.squadron(d.id).move(evading=True))
        tell(w, f"{'+'.join(d.id for d in defenders)} evade{'s' if len(defenders) == 1 else ''} {alead.id} "
             f"({e_mod:+d} to both rolls; no dogfight for them after it, 13.4.2)", [dlead.id, alead.id], kind="combat")
    a_bounce, d_bounce = a_bounce + e_mod, d_bounce + e_mod + _lufbery(w, attackers, dlead)
    long = weapons.long_range(now, alead, attackers, defenders, _fire_choice(w, alead))
    specials = tables()["special_weapons"]
    a_long = int(specials["long_range"]) if long else 0
    if long:
        tell(w, f"{alead.id} attacks {dlead.id} at long range with "
             f"{'its rockets' if long == 'rockets' else 'its Heavy Guns'} (firepower "
             f"{weapons.long_firepower(alead, long)}, {a_long:+d} to its roll; the bombers do not fire back, "
             f"{'13.5.3' if long == 'rockets' else '13.5.2'})", [alead.id, dlead.id], kind="combat")
    a_gyro, d_gyro = (int(specials["gyro_modifier"]) if weapons.gyro(now, s) else 0 for s in (alead, dlead))
    for s in (alead, dlead):   # high speed [13.8.1]
        if jets.combat_modifier(now, s):
            tell(w, f"{s.id} is at high speed ({jets.combat_modifier(now, s):+d} to its roll, 13.8.1, 13.8.3)",
                 [s.id], kind="combat")
    a_gyro, d_gyro = a_gyro + jets.combat_modifier(now, alead), d_gyro + jets.combat_modifier(now, dlead)
    a_hits = _act_roll(w, alead, combat.column(a_value, d_value), a_bounce + a_long + a_gyro - weather, "attacker")
    d_hits = 0
    grouped = weapons.group_bonus(now, defenders, list(air.squadrons.values()))
    if grouped:
        tell(w, f"{' '.join(sorted(grouped))} defend{'s' if len(grouped) == 1 else ''} at +1 in a heavy bomber group "
             f"(13.5.5)", [*sorted(grouped)], kind="combat")
    if dlead.armed and not long:
        d_mod = combat.defence(defenders, kind, grouped) + d_bounce + d_gyro - weather
        d_hits = _act_roll(w, dlead, combat.column(d_value, a_value), d_mod, "defender")
    elif not long:
        tell(w, f"{dlead.id} is unarmed and does not fire (10.5.3)", [dlead.id], kind="combat")
    volley = {"alead": alead.id, "dlead": dlead.id, "a_hits": a_hits, "d_hits": d_hits, "head_on": head_on,
              "weather": weather}
    return {**volley, "long": long} if long else volley


def _lufbery(w: Work, attackers: Sequence[Squadron], dlead: Squadron) -> int:
    """Attackers in a Lufbery circle leave it before the rolls, at no cost; the defending lead's modifier when it
    defends in one [13.4.3]."""
    air = w.data
    for a in attackers:
        if air.squadron(a.id).lufbery:
            air.put(air.squadron(a.id).move(lufbery=False))
            tell(w, f"{a.id} leaves its Lufbery circle to attack (13.4.3)", [a.id], kind="combat")
    mod = lufbery.defence_modifier(air.now(), dlead)
    if mod:
        tell(w, f"{dlead.id} defends in a Lufbery circle ({mod:+d} to its roll, 13.4.3)", [dlead.id], kind="combat")
    return mod


def _choice(w: Work, sq: Squadron, verb: str) -> str:
    """A squadron's standing order under ``verb`` (its last word), or ""."""
    kept = w.standing_order(owner(sq), f"{verb} {sq.id}")
    return kept.words[-1] if kept is not None else ""


def _fire_choice(w: Work, alead: Squadron) -> str:
    """The attacking lead's standing ``FIRE`` choice (ROCKETS, LONG, CLOSE), or "" [13.5.2, 13.5.3]."""
    kept = w.standing_order(owner(alead), f"FIRE {alead.id}")
    return kept.words[-1] if kept is not None else ""


def _power(w: Work, shooter: Squadron, long: str) -> int:
    """The firepower confirming a squadron's hits: long range [13.5.2], else its own [10.6], +1 with gyro
    sights [13.5.4]."""
    power = weapons.long_firepower(shooter, long) if long else \
        combat.firepower(shooter, wings.experte_fires(w.data.now(), shooter))
    return power + (int(tables()["special_weapons"]["gyro_firepower"]) if weapons.gyro(w.data.now(), shooter) else 0)


def hits_asks(w: Work, fight: combat.Fight, volley: dict) -> list[Ask]:
    """The sides whose standing order is ``HITS ASK`` and whose hits leave a choice (more than one enemy
    squadron, hits not a multiple of their number) are asked how to spread them, both at once [10.2.2]."""
    air = w.data
    asks = []
    for shooter, hits, enemy_lead, enemies in ((volley["alead"], volley["a_hits"], volley["dlead"], fight.defenders),
                                               (volley["dlead"], volley["d_hits"], volley["alead"], fight.attackers)):
        side = air.squadron(shooter).side
        targets = [t for t in _targets(w, side, air.squadron(enemy_lead), [air.squadron(e) for e in enemies])
                   if t.on_map]
        if len(targets) < 2 or hits % len(targets) == 0 or not _asks(w, side, "HITS"):
            continue
        asks.append(Ask(speaker(w, side, [air.squadron(shooter)]), f"hits-{side}",
                        f"{shooter} scored {hits} hit{'s' if hits != 1 else ''} in {name(fight.square)}: every enemy "
                        f"squadron takes one before any takes another; which first (10.2.2)?",
                        targets[0].id, tuple(t.id for t in targets)))
    return asks


def land(w: Work, fight: combat.Fight, volley: dict, answers: dict[str, str] | None = None) -> list[Ask]:
    """The rest of the combat [10.2.2-10.7]: hits spread (as answered by side, else standing orders),
    confirmed, cohesion and ammunition, the tallies it leaves; in a dogfight, the new tallies its owners
    asked to choose (see ``_release``)."""
    air = w.data
    answers = answers or {}
    attackers = [air.squadron(s) for s in fight.attackers]
    defenders = [air.squadron(s) for s in fight.defenders]
    alead, dlead = air.squadron(volley["alead"]), air.squadron(volley["dlead"])
    before = {s.id: s.losses for s in attackers + defenders}
    long = volley.get("long", "")
    _confirm_all(w, alead, _targets(w, alead.side, dlead, defenders, answers.get(alead.side, "")),
                 volley["a_hits"], volley["head_on"], _power(w, alead, long))
    _confirm_all(w, dlead, _targets(w, dlead.side, alead, attackers, answers.get(dlead.side, "")),
                 volley["d_hits"], False, _power(w, dlead, ""))
    if long == "rockets":   # the marker turns to its expended side; no Ammo marker for it [13.5.3]
        air.put(air.squadron(alead.id).move(rockets=2))
    for sid in before:
        _after(w, sid, air.squadron(sid).losses - before[sid], volley["weather"],
               spend=not (long == "rockets" and sid == alead.id))
    _tallies_after(w, [s.id for s in defenders], alead.id)
    fighter_bombers.decline_after_combat(w, [s.id for s in defenders])   # keep the load [15.2.4]
    fighter_bombers.jettison_on_tally(w, "after the air combat")
    return _release(w, fight.square) if alead.dogfight else []


def _dogfighters(w: Work, fight: combat.Fight) -> list[Squadron]:
    """Unbroken fighters of the fight still in its square, when both sides have some (else none) [10.8]."""
    air = w.data
    if any(air.squadron(s).dogfight for s in fight.attackers):
        return []   # already a dogfight: it goes on
    here = [s for s in dogfight.candidates(list(air.squadrons.values()), fight.square)
            if s.id in fight.attackers + fight.defenders and not s.evading   # evaders decline [13.4.2]
            and not lufbery.in_circle(s)]   # so does a Lufbery circle [13.4.3]
    return here if len({s.side for s in here}) == 2 else []


def dogfight_asks(w: Work, fight: combat.Fight) -> list[Ask]:
    """The sides whose standing order is ``DOGFIGHT ASK`` are asked, both at once, after the combat [10.8]."""
    here = _dogfighters(w, fight)
    sides = sorted({s.side for s in here})
    return [Ask(speaker(w, side, here), f"dogfight-{side}", f"after the combat in {name(fight.square)}: SEEK or DECLINE a dogfight",
                "DECLINE", ("SEEK", "DECLINE")) for side in sides if _standing_dogfight(w, side) == "ASK"]


def offer_dogfight(w: Work, fight: combat.Fight, answers: dict[str, str]) -> list[Ask]:
    """After the cohesion checks, unbroken fighters of both sides left in the square may dogfight [10.8]:
    both SEEK, it starts; one SEEKs, 1d6 + Basic Speed each for its fastest squadron, the seeker wins ties.
    A side's wish is its answer (``answers`` by side), else its standing order (DECLINE when none).
    Returns the questions of the new tallies the owners asked to choose [10.8.1] (the default placed)."""
    air = w.data
    here = _dogfighters(w, fight)
    for sid in fight.defenders:   # the evasion ends with the combat [13.4.2]
        if air.squadron(sid).evading:
            air.put(air.squadron(sid).move(evading=False))
    sides = sorted({s.side for s in here})
    if not here:
        return []
    seeks = {side: answers.get(side, _standing_dogfight(w, side)) == "SEEK" for side in sides}
    if not any(seeks.values()):
        return []
    if not all(seeks.values()):
        seeker = next(side for side in sides if seeks[side])
        decliner = next(side for side in sides if not seeks[side])
        a = dogfight.fastest([s for s in here if s.side == seeker])
        d = dogfight.fastest([s for s in here if s.side == decliner])
        ra = w.roll(6, f"{a.id} seeks a dogfight", seen_by=dice_seen_by(w, [a.id, d.id]))
        rd = w.roll(6, f"{d.id} declines the dogfight", seen_by=dice_seen_by(w, [a.id, d.id]))
        won = dogfight.contest(ra, a, rd, d)
        tell(w, f"{seeker} seeks a dogfight in {name(fight.square)}: {a.id} rolled {ra}, {d.id} rolled {rd}: "
             + ("it starts" if won else "declined") + " (10.8)", [a.id, d.id], kind="dogfight")
        if not won:
            return []
    locked = dogfight.lock(here, scenario(air.state.scenario)["edges"], lambda s, enemies: _retally(w, s, enemies))
    for s in locked:
        air.put(s)
    tell(w, f"dogfight in {name(fight.square)}: {' '.join(sorted(s.id for s in here))} (10.8.1)",
         sorted(s.id for s in here), kind="dogfight")
    return [Ask(owner(s), f"tally-{s.id}", f"{s.id} is in the dogfight in {name(fight.square)} and its target is not: "
                f"which enemy of the dogfight does it tally (10.8.1)?", s.tally, tuple(enemies))
            for was, s in zip(here, locked, strict=True)
            for enemies in [sorted(e.id for e in here if e.side != s.side)]
            if was.tally != s.tally and len(enemies) > 1 and _asks(w, s.side, "RETALLY")]


def _retally(w: Work, sq: Squadron, enemies: list[str]) -> str:
    """A dogfighter's new tally by default: the first of its side's standing ``RETALLY`` list in the
    dogfight, else the first enemy by ID [10.8.1]."""
    kept = side_standing(w, sq.side, "RETALLY")
    wanted = [e for e in (kept.words[1:] if kept is not None else ()) if e in enemies]
    return wanted[0] if wanted else enemies[0]


def retally(w: Work, answers: dict[str, str]) -> None:
    """The owners' answers to the new-tally questions (``tally-<sq>`` -> enemy) [10.8.1]."""
    air = w.data
    for key, enemy in sorted(answers.items()):
        sq = air.squadrons.get(key.removeprefix("tally-"))
        if sq is not None and sq.dogfight and sq.tally != enemy:
            air.put(sq.move(tally=enemy))
            tell(w, f"{sq.id} tallies {enemy} in the dogfight (10.8.1)", [sq.id, enemy], kind="dogfight")


def _release(w: Work, square: tuple[int, int]) -> list[Ask]:
    """A dogfight ends once a side has no unbroken squadron left in it [10.8.1]; while it goes on, a
    squadron whose target broke and left it must tally an enemy still in it: the side's ``RETALLY`` list,
    else the first by ID; ``RETALLY ASK`` asks its owner (the questions are returned)."""
    air = w.data
    stack = [s for s in air.squadrons.values() if s.dogfight and s.at == square and s.on_map and not s.broken]
    if len({s.side for s in stack}) < 2:
        for s in stack:
            air.put(s.move(dogfight=False))
        if stack:
            tell(w, f"the dogfight in {name(square)} is over (10.8.1)", [s.id for s in stack], kind="dogfight")
        return []
    asks = []
    for s in stack:
        enemies = sorted(e.id for e in stack if e.side != s.side)
        if s.tally in enemies:
            continue
        air.put(s.move(tally=_retally(w, s, enemies)))
        tell(w, f"{s.id}'s target left the dogfight: it tallies {air.squadron(s.id).tally} (10.8.1)",
             [s.id, air.squadron(s.id).tally], kind="dogfight")
        if len(enemies) > 1 and _asks(w, s.side, "RETALLY"):
            asks.append(Ask(owner(s), f"tally-{s.id}", f"{s.id}'s target left the dogfight in {name(square)}: which "
                            f"enemy of the dogfight does it tally (10.8.1)?", air.squadron(s.id).tally, tuple(enemies)))
    return asks


def _standing_dogfight(w: Work, side: str) -> str:
    """A side's standing DOGFIGHT order: SEEK, ASK, or DECLINE (also when none is given)."""
    kept = side_standing(w, side, "DOGFIGHT")
    return kept.words[-1] if kept is not None else "DECLINE"


def _by_arrival(ids: tuple[str, ...], moved: list[str]) -> list[str]:
    return sorted(ids, key=lambda s: moved.index(s) if s in moved else len(moved))


def _rating_kind(w: Work, alead: Squadron, dlead: Squadron, attackers: list[Squadron],
                 defenders: list[Squadron]) -> str:
    """A dogfight is a turning fight [10.8.1]; head-on attacks are hit-and-run [10.3]; else the attacker's
    standing TACTIC, or the better column."""
    if alead.dogfight:
        return combat.TURN
    if combat.head_on(alead, dlead):
        return combat.SPEED
    standing = w.standing_order(owner(alead), f"TACTIC {alead.id}")
    if standing is not None and standing.words[-1] in ("SPEED", "TURN"):
        return combat.SPEED if standing.words[-1] == "SPEED" else combat.TURN
    return _better(w, alead, dlead, attackers, defenders)


def _better(w: Work, alead: Squadron, dlead: Squadron, attackers: list[Squadron], defenders: list[Squadron]) -> str:
    """The rating giving the attacker the better column; hit-and-run on a tie."""
    def edge(kind: str) -> int:
        return _rating(w, alead, attackers, kind) - _rating(w, dlead, defenders, kind)
    return combat.TURN if edge(combat.TURN) > edge(combat.SPEED) else combat.SPEED


def _rating(w: Work, lead: Squadron, side: list[Squadron], kind: str) -> int:
    """A side's combat value, a single aircraft leading at -1 [13.6]."""
    state = w.data.now()
    return combat.rating(lead, side, kind, weapons.combat_penalty(state, lead, max_losses(state.scenario, lead)))


def _act_roll(w: Work, lead: Squadron, col: int, mod: int, role: str) -> int:
    """A side's 2d6 on the Air Combat Table [10.5.1], its modifiers on the lead only."""
    seen_by = dice_seen_by(w, [lead.id])
    roll = w.roll(6, f"{lead.id} air combat", seen_by=seen_by) + w.roll(6, f"{lead.id} air combat", seen_by=seen_by)
    hits = combat.hits(col, roll + mod)
    tell(w, f"{role} {lead.id}: column {col:+d}, rolled {roll}{mod:+d} = {roll + mod}: {hits or 'no'} hit"
         f"{'s' if hits != 1 else ''} (10.5.1)", [lead.id], kind="combat", role=role, lead=lead.id, column=col, roll=roll, modifier=mod,
          modified=roll + mod, hits=hits)
    return hits


def _confirm_all(w: Work, shooter: Squadron, targets: list[Squadron], hits: int, head_on: bool, power: int) -> None:
    """Hits spread evenly [10.2.2], each confirmed with d6 + the shooter's firepower [10.6], one by one."""
    air = w.data
    for tid in combat.allocate(hits, [t.id for t in targets]):
        target = air.squadron(tid)
        if not target.on_map:
            continue
        natural = w.roll(6, f"{shooter.id} confirms a hit on {tid}", seen_by=dice_seen_by(w, [shooter.id, tid]))
        result = combat.confirm(natural, power, target, head_on)
        hit = combat.take(target, result)
        if hit.losses >= max_losses(air.state.scenario, hit):
            hit = hit.move(status="destroyed")
        air.put(hit)
        tell(w, f"{shooter.id} hit on {tid}: rolled {natural} + firepower {power}: {result}"
             + (f"; {tid} is destroyed (10.6)" if hit.status == "destroyed" else ""), [shooter.id, tid], kind="combat",
             result=result)


def _after(w: Work, sid: str, losses_now: int, weather: int, spend: bool = True) -> None:
    """Cohesion for each unbroken participant still in play [10.7], then ammunition [10.7.2]."""
    air = w.data
    sq = air.squadron(sid)
    if sq.on_map and not sq.broken:
        seen_by = dice_seen_by(w, [sid])
        roll = w.roll(6, f"{sid} cohesion", seen_by=seen_by) + w.roll(6, f"{sid} cohesion", seen_by=seen_by)
        mod = combat.cohesion_modifier(sq, losses_now, weather)
        levels = combat.disruption(sq, roll + mod)
        sq = combat.broken_effects(combat.disrupt(sq, levels))
        state = "broken" if sq.broken else f"{levels} disruption level{'s' if levels != 1 else ''}"
        tell(w, f"{sid} cohesion: rolled {roll}{mod:+d} = {roll + mod}: {state} (10.7)", [sid], kind="cohesion")
        leads = wings.leads_wing(air.now(), sq)
        if combat.crew_loss(sq, losses_now, roll, leads):
            marker = "Experte-leader (one marker, 5.2.1)" if leads and sq.experte else \
                "Wing Leader" if leads else "Experte"
            sq = sq.move(experte=False, left_wing=sq.left_wing or leads)
            tell(w, f"{sid} loses its {marker} (10.7.3)"
                 + ("; its wing formation is no more (9.5.2)" if leads else ""), [sid], kind="cohesion")
    if sq.on_map and sq.drop_tanks:   # our reading: tanks help nobody in a fight, so they go after it [13.2]
        sq = sq.move(drop_tanks=False)
        tell(w, f"{sid} jettisons its drop tanks after the combat (13.2)", [sid], kind="combat")
    air.put((combat.spend_ammo(sq) if spend else sq).unescort())   # an escort that fought is a Sweep now [9.2.2 a]


def _tallies_after(w: Work, defenders: list[str], attacker_lead: str) -> None:
    """Attacked fighters are Alert [7.1]; a defending fighter whose target is elsewhere, or who tallied
    nobody, now tallies the attacking lead [7.2.2 item 6, 7.2.4]; an escort that fought becomes a sweep [9.2.2]."""
    air = w.data
    for sid in radio.alerted_by_bombers(air.now(), defenders):
        air.put(air.squadron(sid).move(alert=True))
        tell(w, f"{sid} is alerted by its bombers' radio (9.4.1)", [sid], kind="combat")
    for sid in defenders:
        sq = air.squadron(sid)
        if not sq.fighter or not sq.on_map or sq.broken:
            continue
        target = air.squadron(sq.tally) if sq.tally else None
        keep = target is not None and target.at == sq.at
        air.put(sq.move(alert=True, tally=sq.tally if keep else attacker_lead, vector=None).unescort())
