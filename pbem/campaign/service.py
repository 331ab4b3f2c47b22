"""Campaign services: new, status, the administrative step (orders, GM edits, confirmation), advance, replay.

Every change is an entry of the campaign's hash-chained record (:mod:`.record`) and the standing is the fold
of those entries, so :meth:`Campaigns.replay` rebuilds it and checks every game and every link between them.
"""
from __future__ import annotations

import json
from html import escape
from collections.abc import Mapping
from typing import Any

from sqlmodel import select

from pbem.club.results import JournalError, entries as game_entries
from pbem.core.errors import PbemError
from pbem.core.orders import parse_order_file
from pbem.crypto import sshsig
from pbem.journal import GENESIS, dumps
from pbem.store.models import Campaign, Game, Seat

from . import admin, chain, definition, record
from . import orders as admin_orders
from .carry import after_game, final, rosters
from .definition import Definition
from .levels import levels
from .notices import admin_step_text
from .signed import split_signed
from .standing import Standing, carried, gm_edit, initial
from .verify import CampaignReplay, replay_campaign

ID_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789-"


class CampaignError(PbemError):
    """A campaign command that cannot be done; the message says why and what can."""


class Campaigns:
    """The campaign commands, over a :class:`pbem.server.Server`."""

    def __init__(self, server: Any) -> None:
        self.server, self.deps = server, server.deps

    # ------------------------------------------------------------------ reading
    def _get(self, s: Any, cid: str) -> Campaign:
        c = s.get(Campaign, cid)
        if c is None:
            known = ", ".join(s.exec(select(Campaign.id)).all()) or "none"
            raise CampaignError(f"no campaign {cid!r} (campaigns: {known})")
        return c

    @staticmethod
    def definition(c: Campaign) -> Definition:
        doc = json.loads(c.definition_json)
        return definition.parse(doc["data"], doc["source"])

    def overview(self) -> list[dict[str, Any]]:
        """Every campaign, by id: what `pbem campaign list` shows."""
        with self.deps.reader() as s:
            rows = s.exec(select(Campaign).order_by(Campaign.id)).all()
            return [{"id": c.id, "title": c.title, "ruleset": c.ruleset, "status": c.status, "game": c.game_id,
                     "games": len(json.loads(c.standing_json)["games"])} for c in rows]

    def status(self, cid: str) -> dict[str, Any]:
        """The GM's view: every side's roster, points and VP, the games and what is awaited."""
        with self.deps.reader() as s:
            c = self._get(s, cid)
        st = json.loads(c.standing_json)
        defn = self.definition(c)
        out = {"id": c.id, "title": c.title, "ruleset": c.ruleset, "status": c.status, "game": c.game_id,
               "slot": st["slot"], "slot_title": defn.slot(st["slot"]).title, "games": st["games"],
               "sides": st["sides"], "flags": st["flags"], "edits": st["edits"], "result": st["result"],
               "head": c.head}
        if c.status == "playing" and c.game_id:
            out["game_status"] = self.server.status(c.game_id)["status"]
        return out

    def form(self, cid: str, seat: str) -> str:
        """The administrative order form for a seat, with its header (sign it and submit it)."""
        with self.deps.reader() as s:
            c = self._get(s, cid)
        self._side_of(c, seat)
        return self.form_of(c, json.loads(c.standing_json), self.definition(c), seat)

    def form_of(self, c: Campaign, st: Standing, defn: Definition, seat: str) -> str:
        side = json.loads(c.players_json)["players"][seat]["side"]
        head = f"PBEM-ORDERS 1\nGame: {c.id}\nSide: {seat}\nTurn: {st['index']}\nPhase: admin\n\n"
        return head + admin.form(st, defn, side)

    @staticmethod
    def _side_of(c: Campaign, seat: str) -> str:
        players = json.loads(c.players_json)["players"]
        if seat not in players:
            raise CampaignError(f"campaign {c.id} has no seat {seat!r} (seats: {', '.join(sorted(players))})")
        return players[seat]["side"]

    # ------------------------------------------------------------------ creating
    def new(self, cid: str, spec: str, players: Mapping[str, Mapping[str, str]], *, title: str = "",
            settings: Mapping[str, Any] | None = None) -> str:
        """Create a campaign from a definition and one player per seat (email, pubkey, tz); its first game starts.

        ``players`` maps each seat of the ruleset (as the campaign's options give them) to its player.
        """
        if not cid or len(cid) > 48 or any(ch not in ID_CHARS for ch in cid) or not cid[0].isalnum():
            raise CampaignError(f"campaign id {cid!r} must be lower-case letters, digits and '-', at most 48")
        try:
            defn = definition.load(spec)
            ruleset = self.deps.ruleset(defn.ruleset)
            definition.check_against(defn, ruleset)
        except PbemError as exc:
            raise CampaignError(str(exc)) from None
        now = self.deps.clock()
        keyed = {}
        for seat, p in sorted(players.items()):
            try:
                key = sshsig.PublicKey.parse(p["pubkey"])
            except ValueError as exc:
                raise CampaignError(f"public key for {seat}: {exc}") from None
            keyed[seat] = {"email": p["email"], "pubkey": key.line(), "fingerprint": key.fingerprint,
                           "tz": p.get("tz", "UTC"), "side": p.get("side", seat)}
        sides = ruleset.info.sides
        with self.deps.session() as s:
            if s.get(Campaign, cid) is not None:
                raise CampaignError(f"a campaign {cid!r} exists already")
            st = initial(defn, sides)
            c = Campaign(id=cid, title=title or defn.title, ruleset=defn.ruleset,
                         definition_json=dumps({"source": defn.source, "data": defn.data}),
                         players_json=dumps({"players": keyed, "settings": dict(settings or {})}),
                         standing_json=dumps(st), status="admin", created_at=now, updated_at=now)
            s.add(c)
            s.flush()
            record.append(s, c, "new", {"source": defn.source, "definition": defn.data, "sides": list(sides),
                                        "players": keyed, "settings": dict(settings or {})}, now)
            s.commit()
        return self._start_game(cid)

    def _start_game(self, cid: str) -> str:
        """The next game: its link signed, its units carried, its players seated (the last one starts it)."""
        with self.deps.session() as s:
            c = self._get(s, cid)
            st, defn = json.loads(c.standing_json), self.definition(c)
            slot, index = defn.slot(st["slot"]), st["index"] + 1
            prev_game = st["games"][-1]["game"] if st["games"] else ""
            prev_head = s.get(Game, prev_game).journal_head if prev_game else GENESIS
            take = carried(st, defn)
            link = chain.link(self.deps.key, campaign=cid, index=index, slot=slot.name, previous_game=prev_game,
                              previous_head=prev_head, campaign_head=c.head, standing=st, carried=take)
            facts = {"title": c.title, "index": index, "slot_title": slot.title, "games": st["games"],
                     "edits": st["edits"], "flags": st["flags"], "carried_hash": link["carried_hash"],
                     "sides": {side: {"units": take[side], "vp": own["vp"], "replacements": own["replacements"]}
                               for side, own in st["sides"].items()}}
            conf = json.loads(c.players_json)
        game_id = f"{cid}-{index}"
        try:
            self.server.new_game(game_id, defn.ruleset, slot.scenario, defn.options_for(slot),
                                 title=f"{c.title} — game {index}: {slot.title}", settings=conf["settings"],
                                 campaign={"link": link, "carried": take, "facts": facts})
        except PbemError as exc:
            raise CampaignError(f"game {index} ({slot.title}) could not be made: {exc}") from None
        with self.deps.session() as s:
            c = self._get(s, cid)
            st = json.loads(c.standing_json)
            st["index"] = index
            record.append(s, c, "game", {"game": game_id, "index": index, "slot": slot.name}, self.deps.clock())
            c.standing_json, c.status, c.game_id = dumps(st), "playing", game_id
            s.add(c)
            seats = s.exec(select(Seat).where(Seat.game_id == game_id)).all()
            s.commit()
        players = conf["players"]
        missing = [x.name for x in seats if x.name not in players]
        if missing:
            raise CampaignError(f"game {game_id} has seats {', '.join(missing)} that the campaign has no player for")
        for x in seats:
            p = players[x.name]
            self.server.add_player(game_id, x.name, p["email"], p["pubkey"], p["tz"])
        return f"game {index} of {cid} ({slot.title}) is {game_id}"

    # ------------------------------------------------------------------ between games
    def advance(self, cid: str, by: str = "the GM") -> str:
        """A finished game's result carried over (the administrative step opens), or, in the administrative
        step, the GM's confirmation: the next game starts, or the campaign ends."""
        with self.deps.reader() as s:
            c = self._get(s, cid)
        if c.status == "over":
            return f"campaign {cid} is over: {self._result_text(json.loads(c.standing_json))}"
        if c.status == "playing":
            return self._record_result(cid)
        with self.deps.session() as s:
            c = self._get(s, cid)
            record.append(s, c, "confirm", {"by": by}, self.deps.clock())
            s.add(c)
            s.commit()
        return self._start_game(cid)

    @staticmethod
    def _result_text(st: Standing) -> str:
        r = st["result"] or final(st)
        vp = ", ".join(f"{k} {v}" for k, v in sorted(r["vp"].items()))
        return f"{r['winner'] + ' wins' if r['winner'] else 'a draw'} (campaign VP {vp})"

    def _game_result(self, s: Any, game_id: str, sides: tuple[str, ...]) -> dict[str, Any]:
        """What a finished game gives the campaign, from its journal (chain checked): rosters, levels, outcome."""
        game = s.get(Game, game_id)
        rows = game_entries(s, game_id)
        ruleset = self.deps.ruleset_for(game)
        state = ruleset.load(json.loads(rows[-1].state_json))
        outcome = ruleset.outcome(state) if not any(r.kind == "end" for r in rows) else None
        text = outcome.text if outcome else json.loads(game.outcome_json or "{}").get("text", "ended by the GM")
        return {"game": game_id, "head": rows[-1].hash, "levels": levels(ruleset, state, outcome, sides),
                "rosters": rosters(ruleset, state, sides), "outcome": text}

    def _record_result(self, cid: str) -> str:
        with self.deps.session() as s:
            c = self._get(s, cid)
            game = s.get(Game, c.game_id)
            if game is None or game.status != "over":
                return f"game {c.game_id} of {cid} is still in play ({game.status if game else 'missing'})"
            st, defn = json.loads(c.standing_json), self.definition(c)
            try:
                res = self._game_result(s, c.game_id, tuple(st["sides"]))
            except JournalError as exc:
                raise CampaignError(str(exc)) from None
            st = after_game(st, defn, res["game"], res["rosters"], res["levels"], res["outcome"])
            record.append(s, c, "result", res, self.deps.clock())
            c.standing_json, c.status = dumps(st), "over" if st["over"] else "admin"
            s.add(c)
            if not st["over"]:
                self._mail_forms(s, c, st, defn, res)
            s.commit()
        lv = ", ".join(f"{k} {v.replace('_', ' ')}" for k, v in sorted(res["levels"].items()))
        if st["over"]:
            return f"game {res['game']} ended ({lv}); the campaign is over: {self._result_text(st)}"
        return (f"game {res['game']} ended ({lv}); the administrative step is open: players send signed "
                f"RECOVER/REPLACE/PROMOTE/CHOOSE orders (pbem campaign form), then the GM advances again to "
                f"start {defn.slot(st['slot']).title}")

    def _mail_forms(self, s: Any, c: Campaign, st: Standing, defn: Definition, res: dict[str, Any]) -> None:
        """Each seat is mailed its administrative form (its own roster only) when the step opens."""
        outbox = self.server.services.outbox
        for seat, p in sorted(json.loads(c.players_json)["players"].items()):
            form = self.form_of(c, st, defn, seat)
            text = admin_step_text(c, st, defn, res, seat, p["side"], form)
            outbox.queue(s, kind="notice", to=p["email"], subject=f"[{c.id}] administrative step after game "
                         f"{st['index']}: your orders for {defn.slot(st['slot']).title}", text=text,
                         html=f"<pre>{escape(text)}</pre>", form=form,
                         msg_id=outbox.message_id("campaign-form", c.id, st["index"], seat), now=self.deps.clock())

    def submit(self, cid: str, signed: str) -> tuple[bool, str]:
        """A side's signed administrative orders: (accepted, the answer for the player).  A side's later file
        replaces its earlier one of the same step (see :mod:`.orders`)."""
        body, sig = split_signed(signed)
        parsed, problems = parse_order_file(body)
        if parsed is None:
            return False, "refused: " + "; ".join(p.message for p in problems)
        with self.deps.session() as s:
            c = self._get(s, cid)
            if parsed.game != cid:
                return False, f"refused: these orders are for {parsed.game!r}, not campaign {cid}"
            got = admin_orders.take(s, c, parsed, sig, self.deps.clock())
            if got.problems:
                lined = any(p.line_no for p in got.problems)
                return False, ("refused, nothing changed:\n" if lined else "refused: ") + admin_orders.refusal(got)
            s.commit()
        return True, f"accepted: {len(parsed.lines)} order(s) for side {got.side}"

    def edit(self, cid: str, side: str, words: list[str], by: str = "the GM") -> str:
        """A GM edit of a side's standing between games: an entry every side is shown with the next game."""
        with self.deps.session() as s:
            c = self._get(s, cid)
            if c.status != "admin":
                raise CampaignError(f"campaign {cid} is {c.status}: the GM edits the standing between games only")
            try:
                st = gm_edit(json.loads(c.standing_json), side, words)
            except ValueError as exc:
                raise CampaignError(str(exc)) from None
            record.append(s, c, "gm", {"by": by, "side": side, "words": list(words)}, self.deps.clock())
            c.standing_json = dumps(st)
            s.add(c)
            s.commit()
        return f"edited side {side}: {' '.join(words)} (every side will see it in the next game's sitreps)"

    def end(self, cid: str, by: str = "the GM") -> str:
        """The GM ends the campaign between games: the side with the most campaign VP wins."""
        with self.deps.session() as s:
            c = self._get(s, cid)
            if c.status != "admin":
                raise CampaignError(f"campaign {cid} is {c.status}: the GM ends a campaign between games only")
            st = json.loads(c.standing_json)
            st = {**st, "over": True, "result": final(st)}
            record.append(s, c, "end", {"by": by}, self.deps.clock())
            c.standing_json, c.status = dumps(st), "over"
            s.add(c)
            s.commit()
        return f"campaign {cid} ended by {by}: {self._result_text(st)}"

    def replay(self, cid: str) -> CampaignReplay:
        """Every game and every carry-over of the campaign checked again (see :mod:`.verify`)."""
        return replay_campaign(self, cid)
