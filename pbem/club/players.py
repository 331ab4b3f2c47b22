"""Players are keys: one OpenSSH key (its fingerprint) is one player, with an address, a display name, a time
zone and preferences, linked to every seat their key holds.

A seat names its player by fingerprint (``Seat.fingerprint``); :func:`sync` makes a :class:`Player` row for
every key the seats hold that the club does not know yet, so games made before the club tables, or seated
with ``pbem player add``, join the club the first time it reads them.

A key is replaced by the player (a ``NEWKEY <public key>`` line in a ``PBEM-COMMAND`` file signed with the
old key) or by the GM (``pbem players newkey``).  The new key takes every seat of the player's games still
running, each such game's journal records the change (old and new fingerprint, so the chain shows who held
the seat when), and the old key's row points at the new one: finished games keep the fingerprint they were
played with, and :func:`identities` maps it to the player's current key.
"""
from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlmodel import Session, col, select

from pbem.contact import ContactError, check_address, check_tz
from pbem.crypto import sshsig
from pbem.i18n import said_ as _
from pbem.i18n import said_n as ngettext
from pbem.notices import prefs as notice_prefs
from pbem.services.records import ServerError, append_entry
from pbem.services.wiring import Services
from pbem.store.claim import claim_game, claim_table
from pbem.store.models import Game, Player, Seat
from pbem.store.times import iso

#: Games whose seats a new key takes over; finished ones keep the key they were played with.
RUNNING = ("open", "active", "paused", "held")
KINDS = ("human", "bot")
_NAME = re.compile(r"^[^\x00-\x1f\x7f]{1,64}$")
_PREF = re.compile(r"^[a-z][a-z0-9_]{0,31}$")


def sync(s: Session, now: datetime) -> int:
    """Make a player of every seated key the club does not know yet; return how many were added."""
    known = set(s.exec(select(Player.fingerprint)).all())
    added = 0
    seats = s.exec(select(Seat).where(Seat.fingerprint != "").order_by(col(Seat.id))).all()
    if all(seat.fingerprint in known for seat in seats):
        return 0
    # another daemon may be adding the same players: take the table, then read what it committed
    claim_table(s, "player")
    known = set(s.exec(select(Player.fingerprint)).all())
    for seat in seats:
        if seat.fingerprint in known:
            continue
        known.add(seat.fingerprint)
        s.add(Player(fingerprint=seat.fingerprint, pubkey=seat.pubkey, email=seat.email,
                     name=seat.email.split("@")[0], tz=seat.tz, created_at=now, updated_at=now))
        added += 1
    if added:
        s.flush()
    return added


def identities(s: Session) -> dict[str, str]:
    """Every known fingerprint mapped to its player's current one (itself unless replaced by NEWKEY)."""
    nxt = {p.fingerprint: p.replaced_by for p in s.exec(select(Player)).all()}
    out = {}
    for fp in nxt:
        cur, seen = fp, {fp}
        while nxt.get(cur):
            cur = nxt[cur]
            if cur in seen:  # a cycle cannot be made by new_key; stop rather than loop on a hand-edited table
                break
            seen.add(cur)
        out[fp] = cur
    return out


def find(s: Session, who: str) -> Player:
    """The current player named by a fingerprint (or its unique beginning after ``SHA256:``) or an address."""
    ids = identities(s)
    players = {p.fingerprint: p for p in s.exec(select(Player)).all()}
    hits = {ids[fp] for fp, p in players.items()
            if fp == who or (len(who) >= 6 and fp.removeprefix("SHA256:").startswith(who.removeprefix("SHA256:")))
            or (p.email and p.email.lower() == who.lower() and not p.replaced_by)}
    if len(hits) != 1:
        raise ServerError(f"no player {who!r} (give a key fingerprint or an address; see `pbem players`)"
                          if not hits else f"{who!r} names {len(hits)} players; give more of the fingerprint")
    return players[hits.pop()]


def set_profile(s: Session, player: Player, now: datetime, *, name: str | None = None, tz: str | None = None,
                email: str | None = None, kind: str | None = None,
                prefs: Mapping[str, str] | None = None) -> list[str]:
    """Change what the club shows of a player; return what changed.  Seats keep their own address and zone."""
    changed = []
    try:
        if name is not None:
            if not _NAME.match(name):
                raise ServerError("a display name is 1 to 64 characters on one line")
            player.name = name
            changed.append("name")
        if tz is not None:
            player.tz = check_tz(tz)
            changed.append("time zone")
        if email is not None:
            player.email = check_address(email)
            changed.append("address")
    except ContactError as exc:
        raise ServerError(str(exc)) from None
    if kind is not None:
        if kind not in KINDS:
            raise ServerError(f"a player is {' or '.join(KINDS)}, not {kind!r}")
        player.kind = kind
        changed.append("kind")
    if prefs:
        current = json.loads(player.prefs_json or "{}")
        for key, value in prefs.items():
            if not _PREF.match(key) or len(value) > 200:
                raise ServerError(f"preference {key[:40]!r}: a lower-case name and a value of at most 200 characters")
            if problem := notice_prefs.check(key, value):  # pbem.notices reads these: say so now, not never
                raise ServerError(problem)
            if value:
                current[key] = value
            else:
                current.pop(key, None)
        player.prefs_json = json.dumps(current, sort_keys=True)
        changed.append("preferences")
    player.updated_at = now
    s.add(player)
    return changed


def new_key(sv: Services, old_fingerprint: str, pubkey: str, by: str) -> str:
    """Replace a player's key: the new key takes the seats of every game of theirs still running.

    ``by`` is who asked (the player, signing with the old key, or the GM).  Every game whose seat changes
    gets a journal entry naming both fingerprints.
    """
    try:
        key = sshsig.PublicKey.parse(pubkey)
    except ValueError as exc:
        raise ServerError(f"the new public key does not parse: {exc}") from None
    now = sv.deps.clock()
    with sv.deps.session() as s:
        sync(s, now)
        old = s.get(Player, old_fingerprint)
        if old is None:
            raise ServerError(f"no player has the key {old_fingerprint}")
        if old.replaced_by:
            raise ServerError(f"the key {old_fingerprint} was replaced already (by {old.replaced_by})")
        if key.fingerprint == old.fingerprint:
            raise ServerError("the new key is the key it replaces")
        if s.get(Player, key.fingerprint) is not None or s.exec(
                select(Seat).where(Seat.fingerprint == key.fingerprint)).first() is not None:
            raise ServerError(f"the key {key.fingerprint} belongs to a player already; a new key must be new")
        game_ids = sorted({x.game_id for x in s.exec(select(Seat).where(Seat.fingerprint == old.fingerprint))})
        moved = []
        for game_id in game_ids:  # in id order: two commands claiming several games never wait on each other
            game = claim_game(s, game_id)
            if game is None or game.status not in RUNNING:
                continue
            seats = s.exec(select(Seat).where(Seat.game_id == game_id, Seat.fingerprint == old.fingerprint)
                           .order_by(col(Seat.name))).all()
            for seat in seats:
                seat.pubkey, seat.fingerprint = key.line(), key.fingerprint
                s.add(seat)
            names = [x.name for x in seats]
            _journal(sv, s, game, names, old.fingerprint, key.fingerprint, by, now)
            moved += [f"{game_id}/{n}" for n in names]
        s.add(Player(fingerprint=key.fingerprint, pubkey=key.line(), email=old.email, name=old.name, tz=old.tz,
                     kind=old.kind, prefs_json=old.prefs_json, created_at=now, updated_at=now))
        s.flush()  # the new row first: replaced_by names a player that exists
        old.replaced_by, old.updated_at = key.fingerprint, now
        s.add(old)
        s.commit()
    if moved:
        return _("%(by)s replaced the key %(old)s by %(new)s; it now holds %(seats)s", by=by, old=old_fingerprint,
                 new=key.fingerprint, seats=", ".join(moved))
    return _("%(by)s replaced the key %(old)s by %(new)s; no running game had a seat to move", by=by,
             old=old_fingerprint, new=key.fingerprint)


def _journal(sv: Services, s: Session, game: Game, seats: list[str], old: str, new: str, by: str,
             now: datetime) -> None:
    ruleset, state = sv.states.load(game)
    names = ", ".join(seats)
    notice = f"the player of {names} changed their key (the same player; orders must now be signed with the new key)"
    payload = {"command": "NEWKEY", "by": by, "seats": seats, "from_fingerprint": old, "to_fingerprint": new,
               "notices": [notice], "deadline": iso(game.deadline)}
    append_entry(s, game, "gm", payload, ruleset.dump(state), now)
    sv.states.remember(game, state)


def profile_command(sv: Services, fingerprint: str, args: list[str]) -> str:
    """A player's own PROFILE line (checked by :func:`pbem.commands.profile_arguments`), for the key that signed it."""
    now = sv.deps.clock()
    with sv.deps.session() as s:
        sync(s, now)
        player = s.get(Player, identities(s).get(fingerprint, fingerprint))
        if player is None:
            raise ServerError(f"no player has the key {fingerprint}")
        field = args[0]
        if field == "pref":
            set_profile(s, player, now, prefs={args[1]: args[2]})
            what = _("your preference %(name)s set to %(value)s", name=args[1], value=repr(args[2])) if args[2] \
                else _("your preference %(name)s removed", name=args[1])
        elif field == "lang":  # kept as a preference, and read by every seat the key holds (pbem.i18n)
            from pbem.i18n import set_player_lang

            set_profile(s, player, now, prefs={"lang": args[1]})
            seats = set_player_lang(s, fingerprint, args[1])
            what = ngettext("your language is now %(lang)s (in %(num)d game)",
                            "your language is now %(lang)s (in %(num)d games)", seats, lang=repr(args[1]))
        else:
            set_profile(s, player, now, name=args[1] if field == "name" else None,
                        tz=args[1] if field == "tz" else None, email=args[1] if field == "email" else None)
            what = {"tz": _("your time zone is now %(value)s", value=repr(args[1])),
                    "email": _("your club address is now %(value)s", value=repr(args[1]))}.get(
                field, _("your name is now %(value)s", value=repr(args[1])))
        s.commit()
    return what


def profile(p: Player) -> dict[str, Any]:
    """What `pbem players --json` shows of a player's own record."""
    return {"fingerprint": p.fingerprint, "name": p.name, "email": p.email, "tz": p.tz, "kind": p.kind,
            "preferences": json.loads(p.prefs_json or "{}")}
