"""Club ladders: players climb a ladder of one ruleset by challenging those a few places above them.

A GM makes a ladder (`pbem ladder new`) with its limits; players send signed club command files
(``PBEM-COMMAND 1`` with a ``Ladder: NAME`` header and no game) with ``JOIN``, ``LEAVE``,
``CHALLENGE <player>``, ``ACCEPT <id>`` and ``DECLINE <id>`` lines.  A challenge is refused, with the
reason, when it reaches more than ``above`` places up, when either player already has ``open_max``
challenges open, within ``cooldown_days`` of the challenger's last challenge of the same player, when the
challenged player is away (the ``away`` preference, or a seat's VACATION in force), or when the
challenger's reliability is under ``min_reliability``.  ACCEPT makes the game (both players seated with
their club keys and addresses, the first seat alternating between the pair's games) and starts it.

The daemon's :func:`tick` lapses challenges left unanswered past ``expire_days`` (telling both players)
and settles the ladder's finished games, OGS-style: a winner below the loser takes the loser's place,
and everyone from that place down to the winner's old one moves down one.
"""
from __future__ import annotations

import json
import re
from datetime import datetime, timedelta

from sqlalchemy import and_, or_
from sqlmodel import Session, col, select

from pbem.club.players import identities, sync
from pbem.i18n import When, player_lang, say
from pbem.i18n import said_ as _
from pbem.services.records import ServerError
from pbem.services.wiring import Services
from pbem.store.models import Game, Journal, Ladder, LadderChallenge, LadderRung, Player, Seat
from pbem.store.times import aware

NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,40}$")
SIDES = ("alternate",)
#: The player verbs of a ladder command file, with how many arguments each takes.
VERBS = {"JOIN": 0, "LEAVE": 0, "CHALLENGE": 1, "ACCEPT": 1, "DECLINE": 1}
ENDED = ("over", "archived")


def arguments_problem(verb: str, args: list[str]) -> str:
    """Why a ladder command line is malformed, or "" (checked before any line runs)."""
    if verb not in VERBS:
        return f"{verb or 'an empty line'} is not a ladder command (allowed: {', '.join(sorted(VERBS))})"
    if len(args) != VERBS[verb]:
        return f"{verb} takes {VERBS[verb] or 'no'} argument{'' if VERBS[verb] == 1 else 's'}, not {len(args)}"
    if verb in ("ACCEPT", "DECLINE") and not (args[0].isdigit() and len(args[0]) < 10):
        return f"{verb} takes the number of a challenge, not {args[0][:40]!r}"
    if verb == "CHALLENGE" and len(args[0]) > 200:
        return "CHALLENGE names a player by key fingerprint, address or club name"
    return ""


def new_ladder(sv: Services, name: str, ruleset: str, scenario: str = "", *, above: int = 3, open_max: int = 2,
               cooldown_days: float = 7.0, expire_days: float = 7.0, min_reliability: float = 0.0,
               sides: str = "alternate") -> Ladder:
    """Make a ladder of a two-sided ruleset (and scenario)."""
    if not NAME.match(name):
        raise ServerError(f"a ladder's name is lower-case letters, digits and '-', at most 41: not {name!r}")
    if sides not in SIDES:
        raise ServerError(f"--sides {sides}: only {', '.join(SIDES)} is built (sides alternate between a pair's games)")
    if above < 1 or open_max < 1 or cooldown_days < 0 or expire_days <= 0 or not 0 <= min_reliability <= 100:
        raise ServerError("limits: --above and --open at least 1, --cooldown-days 0 or more, --expire-days more "
                          "than 0, --min-reliability from 0 to 100")
    rules = sv.deps.ruleset(ruleset)
    scen = rules.info.scenario(scenario) if scenario else rules.info.scenarios[0]
    now = sv.deps.clock()
    with sv.deps.session() as s:
        if s.get(Ladder, name) is not None:
            raise ServerError(f"a ladder {name!r} exists already")
        row = Ladder(name=name, ruleset=ruleset, scenario=scen.name, above=above, open_max=open_max,
                     cooldown_days=cooldown_days, expire_days=expire_days, min_reliability=min_reliability,
                     sides=sides, created_at=now)
        s.add(row)
        s.commit()
        s.refresh(row)
        return row


def add_member(sv: Services, email: str, pubkey: str, *, name: str = "", tz: str = "UTC") -> str:
    """Make a club member of a key before any game of theirs (`pbem club add`), so they can join ladders."""
    from pbem.club.players import set_profile
    from pbem.crypto import sshsig

    try:
        key = sshsig.PublicKey.parse(pubkey)
    except ValueError as exc:
        raise ServerError(f"the public key does not parse: {exc}") from None
    now = sv.deps.clock()
    with sv.deps.session() as s:
        sync(s, now)
        if s.get(Player, key.fingerprint) is not None:
            raise ServerError(f"the key {key.fingerprint} is a club member already (see `pbem players`)")
        player = Player(fingerprint=key.fingerprint, pubkey=key.line(), email="", name="", created_at=now,
                        updated_at=now)
        set_profile(s, player, now, name=name or email.split("@")[0], tz=tz, email=email)
        s.commit()
    return f"club member {key.fingerprint}: {name or email.split('@')[0]} <{email}>"


def _ladder(s: Session, name: str) -> Ladder:
    row = s.get(Ladder, name)
    if row is None:
        raise ServerError(_("there is no ladder %(name)s on this server", name=repr(name)))
    return row


def _rungs(s: Session, name: str) -> list[LadderRung]:
    return list(s.exec(select(LadderRung).where(LadderRung.ladder == name).order_by(col(LadderRung.place))).all())


def _renumber(s: Session, rungs: list[LadderRung]) -> None:
    for n, rung in enumerate(rungs, 1):
        if rung.place != n:
            rung.place = n
            s.add(rung)


def _label(s: Session, fingerprint: str) -> str:
    p = s.get(Player, fingerprint)
    return f"{p.name} ({fingerprint})" if p is not None and p.name else fingerprint


def name_of(s: Session, fingerprint: str) -> str:
    p = s.get(Player, fingerprint)
    return p.name if p is not None and p.name else fingerprint


def standings(sv: Services, name: str) -> list[dict[str, object]]:
    """The ladder from the top: place, player's club name and key (never an address)."""
    with sv.deps.session() as s:
        _ladder(s, name)
        out = []
        for rung in _rungs(s, name):
            p = s.get(Player, rung.fingerprint)
            out.append({"place": rung.place, "name": p.name if p else "", "fingerprint": rung.fingerprint})
        return out


def show(sv: Services, name: str) -> str:
    """`pbem ladder show`: the limits, the standings and the challenges not yet settled."""
    with sv.deps.session() as s:
        lad = _ladder(s, name)
        lines = [f"Ladder {lad.name}: {lad.ruleset}/{lad.scenario}; challenge up to {lad.above} place(s) above, "
                 f"{lad.open_max} open at most, {lad.cooldown_days:g} day(s) between challenges of the same "
                 f"player, unanswered ones lapse after {lad.expire_days:g} day(s), reliability "
                 f"{lad.min_reliability:g} or more; sides {lad.sides}"]
        rungs = _rungs(s, name)
        lines += [f"{r.place:>3}. {_label(s, r.fingerprint)}" for r in rungs] or ["  (nobody has joined)"]
        live = s.exec(select(LadderChallenge).where(LadderChallenge.ladder == name, col(LadderChallenge.status)
                                                    .in_(("open", "accepted"))).order_by(col(LadderChallenge.id)))
        for c in live:
            what = f"game {c.game_id}" if c.status == "accepted" else f"open until {aware(c.expires_at):%Y-%m-%d %H:%M} UTC"
            lines.append(f"challenge {c.id}: {_label(s, c.challenger)} -> {_label(s, c.challenged)}, {what}")
    return "\n".join(lines) + "\n"


def run_command(sv: Services, name: str, fingerprint: str, verb: str, args: list[str]) -> str:
    """Carry out one line of a player's signed ladder command file; say what was done.

    :raises ServerError: with every reason the line is refused (nothing of it is done then).
    """
    if verb == "ACCEPT":
        return _accept(sv, name, fingerprint, int(args[0]))
    now = sv.deps.clock()
    score = _reliability(sv, name, fingerprint) if verb == "CHALLENGE" else None
    if verb == "JOIN":
        from pbem.club import reliability

        barred = reliability.sanction(reliability.reliability(sv.deps).get(fingerprint, {}))
        if barred:
            raise ServerError(f"{barred} (see `pbem players`: reliability)")
    with sv.deps.session() as s:
        lad = _ladder(s, name)
        rungs = _rungs(s, name)
        mine = next((r for r in rungs if r.fingerprint == fingerprint), None)
        if verb == "JOIN":
            if mine is not None:
                raise ServerError(_("you are on ladder %(name)s already, in place %(place)s", name=name,
                                place=mine.place))
            s.add(LadderRung(ladder=name, fingerprint=fingerprint, place=len(rungs) + 1, joined_at=now))
            s.commit()
            return _("you joined ladder %(name)s in place %(place)s (the bottom)", name=name, place=len(rungs) + 1)
        if mine is None:
            raise ServerError(_("you are not on ladder %(name)s; send JOIN first", name=name))
        if verb == "LEAVE":
            busy = _live(s, name, fingerprint, ("accepted",))
            if busy:
                raise ServerError(_("your ladder game %(game)s is still being played; leave once it is over",
                                    game=busy[0].game_id))
            for c in _live(s, name, fingerprint, ("open",)):  # withdrawn: the other player is told
                c.status, c.decided_at = "declined", now
                s.add(c)
                other = c.challenged if c.challenger == fingerprint else c.challenger
                tell(sv, s, other, f"[{name}] ", _("challenge %(id)s withdrawn", id=c.id),
                     _("%(who)s left ladder %(name)s; challenge %(id)s is withdrawn.", who=_label(s, fingerprint),
                       name=name, id=c.id), f"left-{c.id}")
            s.delete(mine)
            _renumber(s, [r for r in rungs if r is not mine])
            s.commit()
            return _("you left ladder %(name)s; the players below you moved up one place", name=name)
        if verb == "DECLINE":
            c = _challenge_to(s, name, fingerprint, int(args[0]))
            c.status, c.decided_at = "declined", now
            s.add(c)
            tell(sv, s, c.challenger, f"[{name}] ", _("challenge %(id)s declined", id=c.id),
                 _("%(who)s declined your challenge %(id)s on ladder %(name)s.", who=_label(s, fingerprint),
                   id=c.id, name=name), f"declined-{c.id}")
            s.commit()
            return _("you declined challenge %(id)s", id=c.id)
        assert verb == "CHALLENGE"
        return _challenge(sv, s, lad, rungs, mine, args[0], now, score)


def _reliability(sv: Services, name: str, fingerprint: str) -> float | None:
    """The challenger's reliability score, for a ladder that asks for one (read before the ladder's
    transaction: it reads every game)."""
    with sv.deps.session() as s:
        lad = s.get(Ladder, name)
        if lad is None or lad.min_reliability <= 0:
            return None
    from pbem.club import reliability

    return float(reliability.reliability(sv.deps).get(fingerprint, {}).get("score", 100.0))


def _live(s: Session, name: str, fingerprint: str, statuses: tuple[str, ...]) -> list[LadderChallenge]:
    return list(s.exec(select(LadderChallenge).where(
        LadderChallenge.ladder == name, col(LadderChallenge.status).in_(statuses),
        (LadderChallenge.challenger == fingerprint) | (LadderChallenge.challenged == fingerprint))
        .order_by(col(LadderChallenge.id))).all())


def _challenge_to(s: Session, name: str, fingerprint: str, number: int) -> LadderChallenge:
    c = s.get(LadderChallenge, number, with_for_update=True)
    if c is None or c.ladder != name or c.challenged != fingerprint:
        raise ServerError(_("there is no challenge %(id)s to you on ladder %(name)s", id=number, name=name))
    if c.status != "open":
        raise ServerError(_("challenge %(id)s is %(status)s, no longer open", id=number, status=c.status))
    return c


def _target(s: Session, rungs: list[LadderRung], who: str) -> LadderRung:
    """The rung of the player a CHALLENGE names: by club name, address or (the start of) a key fingerprint."""
    players = {r.fingerprint: s.get(Player, r.fingerprint) for r in rungs}
    bare = who.removeprefix("SHA256:")
    hits = [r for r in rungs if (p := players[r.fingerprint]) is not None and (
        p.name.lower() == who.lower() or (p.email and p.email.lower() == who.lower()))
        or r.fingerprint == who or (len(bare) >= 6 and r.fingerprint.removeprefix("SHA256:").startswith(bare))]
    if len(hits) != 1:
        raise ServerError(f"no player {who[:80]!r} on this ladder (name them by club name, address or key "
                          "fingerprint)" if not hits else f"{who[:80]!r} names {len(hits)} players of this ladder")
    return hits[0]


def _challenge(sv: Services, s: Session, lad: Ladder, rungs: list[LadderRung], mine: LadderRung, who: str,
               now: datetime, score: float | None) -> str:
    target = _target(s, rungs, who)
    them = _label(s, target.fingerprint)
    reasons = []
    if target.fingerprint == mine.fingerprint:
        raise ServerError(_("you cannot challenge yourself"))
    if target.place >= mine.place:
        reasons.append(f"{them} is in place {target.place}, not above you (place {mine.place})")
    elif mine.place - target.place > lad.above:
        reasons.append(f"{them} is {mine.place - target.place} places above you; on ladder {lad.name} you may "
                       f"challenge at most {lad.above} place(s) up")
    pair = _live(s, lad.name, mine.fingerprint, ("open", "accepted"))
    if any(target.fingerprint in (c.challenger, c.challenged) for c in pair):
        reasons.append(f"you and {them} have a challenge under way already")
    elif len(pair) >= lad.open_max:
        reasons.append(f"you have {len(pair)} challenge(s) under way; the ladder allows {lad.open_max} at a time")
    elif len(_live(s, lad.name, target.fingerprint, ("open", "accepted"))) >= lad.open_max:
        reasons.append(f"{them} has {lad.open_max} challenge(s) under way already, the most the ladder allows")
    last = s.exec(select(LadderChallenge).where(
        LadderChallenge.ladder == lad.name, LadderChallenge.challenger == mine.fingerprint,
        LadderChallenge.challenged == target.fingerprint).order_by(col(LadderChallenge.id).desc())).first()
    if last is not None and lad.cooldown_days:
        free = aware(last.created_at) + timedelta(days=lad.cooldown_days)
        if now < free:
            reasons.append(f"you challenged {them} on {aware(last.created_at):%Y-%m-%d}; you may challenge them "
                           f"again from {free:%Y-%m-%d %H:%M} UTC ({lad.cooldown_days:g} days later)")
    away = _away(s, target.fingerprint)
    if away:
        reasons.append(f"{them} is away ({away}); challenge them when they are back")
    if score is not None and lad.min_reliability > 0:
        if score < lad.min_reliability:
            reasons.append(f"your reliability is {score:g}; ladder {lad.name} asks for {lad.min_reliability:g} "
                           "or more (see `pbem players` reliability: phases answered in time)")
    if reasons:
        raise ServerError("; ".join(reasons))
    c = LadderChallenge(ladder=lad.name, challenger=mine.fingerprint, challenged=target.fingerprint,
                        created_at=now, expires_at=now + timedelta(days=lad.expire_days))
    s.add(c)
    s.flush()
    assert c.id is not None
    lapses = When(aware(c.expires_at), f"{aware(c.expires_at):%Y-%m-%d %H:%M} UTC")
    # the command file to send stays as it is in every language: its keywords are not translated
    tell(sv, s, target.fingerprint, f"[{lad.name}] ",
         _("%(who)s challenges you (challenge %(id)s)", who=name_of(s, mine.fingerprint), id=c.id),
         _("%(who)s (place %(theirs)s) challenges you (place %(yours)s) on ladder %(name)s.\n"
           "Answer with a signed command file:\n\n%(file)s\n\n"
           "(or DECLINE %(id)s) before %(when)s, when the challenge lapses.", who=_label(s, mine.fingerprint),
           theirs=mine.place, yours=target.place, name=lad.name, id=c.id, when=lapses,
           file=f"PBEM-COMMAND 1\nLadder: {lad.name}\n\nACCEPT {c.id}"), f"challenge-{c.id}")
    s.commit()
    return _("challenge %(id)s: you challenged %(who)s (place %(place)s); it lapses unanswered on %(when)s",
             id=c.id, who=them, place=target.place, when=lapses)


def _away(s: Session, fingerprint: str) -> str:
    """Why a player cannot be challenged now: their ``away`` preference, or a VACATION in force in a game."""
    p = s.get(Player, fingerprint)
    if p is not None and json.loads(p.prefs_json or "{}").get("away"):
        return "their club preference 'away' is set"
    keys = {fp for fp, cur in identities(s).items() if cur == fingerprint} | {fingerprint}
    seats = s.exec(select(Seat).where(col(Seat.fingerprint).in_(keys), Seat.vacation_used > 0)).all()
    for seat in seats:
        game = s.get(Game, seat.game_id)
        if game is None or game.status != "active":
            continue
        rows = s.exec(select(Journal.kind, Journal.payload_json).where(Journal.game_id == game.id)
                      .order_by(col(Journal.seq).desc()).limit(50)).all()
        for kind, payload in rows:
            if kind == "resolve":
                break
            data = json.loads(payload)
            if str(data.get("command", "")).startswith("VACATION") and data.get("seat") == seat.name:
                return f"on vacation in game {game.id}"
    return ""


def _accept(sv: Services, name: str, fingerprint: str, number: int) -> str:
    """ACCEPT: the game is made, both players seated, sides alternating by the pair's history, and started."""
    now = sv.deps.clock()
    with sv.deps.session() as s:
        lad = _ladder(s, name)
        c = _challenge_to(s, name, fingerprint, number)
        if now >= aware(c.expires_at):
            raise ServerError(_("challenge %(id)s lapsed at %(when)s", id=number,
                                when=When(aware(c.expires_at), f"{aware(c.expires_at):%Y-%m-%d %H:%M} UTC")))
        previous = s.exec(select(LadderChallenge).where(
            LadderChallenge.ladder == name, LadderChallenge.first_seat != "",
            ((LadderChallenge.challenger == c.challenger) & (LadderChallenge.challenged == c.challenged))
            | ((LadderChallenge.challenger == c.challenged) & (LadderChallenge.challenged == c.challenger)))
            .order_by(col(LadderChallenge.id).desc())).first()
        first = c.challenger if previous is None or previous.first_seat != c.challenger else c.challenged
        players = {fp: s.get(Player, fp) for fp in (c.challenger, c.challenged)}
        game_id = f"{name}-{c.id}"
        c.status, c.decided_at, c.game_id, c.first_seat = "accepted", now, game_id, first
        s.add(c)
        s.commit()
        ruleset, scenario = lad.ruleset, lad.scenario
    try:
        names = make_game(sv, game_id, ruleset, scenario, f"Ladder {name}: challenge {number}",
                           [players[first], players[c.challenged if first == c.challenger else c.challenger]])
    except ServerError:
        with sv.deps.session() as s:  # the challenge stays open: the GM can mend what failed
            back = s.get(LadderChallenge, number)
            assert back is not None
            back.status, back.decided_at, back.game_id, back.first_seat = "open", None, "", ""
            s.add(back)
            s.commit()
        raise
    with sv.deps.session() as s:
        tell(sv, s, c.challenger, f"[{name}] ", _("challenge %(id)s accepted: game %(game)s", id=c.id, game=game_id),
             _("%(who)s accepted your challenge %(id)s; game %(game)s has started (you play %(side)s). Your first "
               "sitrep follows.", who=_label(s, fingerprint), id=c.id, game=game_id,
               side=names[0] if first == c.challenger else names[1]), f"accepted-{c.id}")
        s.commit()
    return _("challenge %(id)s accepted: game %(game)s started; you play %(side)s", id=c.id, game=game_id,
             side=names[0] if first == fingerprint else names[1])


def make_game(sv: Services, game_id: str, ruleset: str, scenario: str, title: str,
               players: list[Player | None]) -> list[str]:
    """Make and start a two-seat game, the players seated in seat order; return the seats' names."""
    from pbem.services.lifecycle import GameLifecycle

    lifecycle = GameLifecycle(sv)
    with sv.deps.session() as s:
        if s.get(Game, game_id) is not None:
            raise ServerError(f"a game {game_id!r} exists already")
    game = lifecycle.new_game(game_id, ruleset, scenario, title=title)
    with sv.deps.session() as s:
        names = [x.name for x in s.exec(select(Seat).where(Seat.game_id == game.id).order_by(col(Seat.id))).all()]
    if len(names) != 2:
        raise ServerError(f"ruleset {ruleset} has {len(names)} seats; a ladder game needs two")
    for seat, p in zip(names, players, strict=True):
        assert p is not None
        lifecycle.add_player(game_id, seat, p.email, p.pubkey, p.tz)
    return names


def tell(sv: Services, s: Session, fingerprint: str, tag_subject: str, subject: str, text: str, tag: str,
         table: str = "") -> None:
    """Mail a player of the club in his language (``PROFILE lang``): ``tag_subject`` (``[LADDER] ``) stays as it
    is, the subject's words and the text are said in it; ``table`` (names and places) follows the text."""
    p = s.get(Player, fingerprint)
    if p is None or not p.email:
        return
    lang, tz = player_lang(p, sv.deps), p.tz or "UTC"
    subject = tag_subject + say(subject, lang, tz)
    text = say(text, lang, tz) + "\n" + (f"\n{table}\n" if table else "")
    ob = sv.outbox
    ob.queue_once(s, kind="notice", to=p.email, subject=subject, text=text, html=f"<pre>{_esc(text)}</pre>",
             msg_id=ob.message_id("ladder", tag, fingerprint), now=sv.deps.clock())


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def tick(sv: Services) -> list[str]:
    """Lapse challenges left unanswered (both players told), and settle ladder games that are over."""
    now = sv.deps.clock()
    done: list[str] = []
    with sv.deps.reader() as r:  # most passes have nothing to do: no write transaction for them
        due = r.exec(select(LadderChallenge.id).where(or_(
            and_(col(LadderChallenge.status) == "open", col(LadderChallenge.expires_at) <= now),
            and_(col(LadderChallenge.status) == "accepted", col(LadderChallenge.game_id).in_(
                select(Game.id).where(col(Game.status).in_(ENDED))))))).first()
    if due is None:
        return done
    with sv.deps.session() as s:
        # locked (PostgreSQL; SQLite's write transaction serialises): two daemons never settle one twice
        lapsed = s.exec(select(LadderChallenge).where(LadderChallenge.status == "open",
                                                      LadderChallenge.expires_at <= now)
                        .order_by(col(LadderChallenge.id)).with_for_update()).all()
        for c in lapsed:
            c.status, c.decided_at = "expired", now
            s.add(c)
            text = _("Challenge %(id)s on ladder %(name)s (%(by)s -> %(to)s) was not answered in time and has "
                     "lapsed; the ladder is unchanged.", id=c.id, name=c.ladder, by=_label(s, c.challenger),
                     to=_label(s, c.challenged))
            for fp in (c.challenger, c.challenged):
                tell(sv, s, fp, f"[{c.ladder}] ", _("challenge %(id)s lapsed", id=c.id), text, f"expired-{c.id}")
            done.append(f"challenge {c.id} on {c.ladder} lapsed")
        playing = s.exec(select(LadderChallenge).where(LadderChallenge.status == "accepted")
                         .order_by(col(LadderChallenge.id)).with_for_update()).all()
        for c in playing:
            game = s.get(Game, c.game_id)
            if game is not None and game.status in ENDED:
                done.append(_settle(sv, s, c, game, now))
        s.commit()
    return done


def winner_of(sv: Services, s: Session, game: Game) -> str:
    """The (current) key of the player who won a finished game by its rules; "" for a draw or a GM's end."""
    ruleset, state = sv.states.load(game)
    outcome = ruleset.outcome(state)
    if outcome is None or outcome.winner is None:
        return ""
    seat = s.exec(select(Seat).where(Seat.game_id == game.id, Seat.side == outcome.winner)).first()
    return identities(s).get(seat.fingerprint, seat.fingerprint) if seat is not None else ""


def _settle(sv: Services, s: Session, c: LadderChallenge, game: Game, now: datetime) -> str:
    winner = winner_of(sv, s, game)
    c.status, c.winner = "done", winner
    s.add(c)
    rungs = _rungs(s, c.ladder)
    places = {r.fingerprint: r for r in rungs}
    loser = c.challenged if winner == c.challenger else c.challenger
    what = _("a draw: the ladder is unchanged")
    if winner in places and loser in places:
        w, lo = places[winner], places[loser]
        if w.place > lo.place:
            taken = lo.place
            order = [r for r in rungs if r is not w]
            order.insert(taken - 1, w)
            _renumber(s, order)
            what = _("%(who)s won and takes place %(place)s", who=name_of(s, winner), place=taken)
        else:
            what = _("%(who)s won: the ladder is unchanged", who=name_of(s, winner))
    table = "\n".join(f"{r.place:>3}. {_label(s, r.fingerprint)}" for r in sorted(rungs, key=lambda r: r.place))
    for fp in (c.challenger, c.challenged):
        tell(sv, s, fp, f"[{c.ladder}] ", _("game %(game)s: %(what)s", game=game.id, what=what),
             _("Game %(game)s is over: %(what)s.", game=game.id, what=what), f"done-{c.id}", table)
    return f"ladder {c.ladder}, game {game.id}: {what}"
