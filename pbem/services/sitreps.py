"""Sitreps: a seat's view of the game, and the journal since its last one, rendered and queued."""
from __future__ import annotations

import json
from dataclasses import dataclass
from html import escape
from datetime import datetime
from typing import Any
from collections.abc import Mapping

from sqlmodel import Session, col, select

from pbem.campaign.standing import view as campaign_view
from pbem.clocks.seats import clock_line
from pbem.core.play import orders_text
from pbem.core.ruleset import Ruleset
from pbem.core.texts import t_
from pbem.journal import dumps, sitrep_context
from pbem.notices import prefs as notice_prefs
from pbem.notices import webhooks
from pbem import i18n
from pbem.render import render_sitrep, renderer_stamp, stamp_with_lang
from pbem.services.deps import Deps
from pbem.services.outbox import OutboxService
from pbem.services.records import entry_dict, seat_dict
from pbem.store.models import Game, Journal, Seat, Sitrep
from pbem.web.links import Signer, load_secret, seat_link

RENDERER = renderer_stamp()


@dataclass
class BuiltSitrep:
    """One seat's rendered sitrep: its parts, the view it was made from, and the order form if it owes."""

    text: str
    html: str
    png: bytes | None
    view_json: str
    form: str | None
    #: what the mail carries: ``text`` and ``html`` plus the seat's web link when [web] url is set (the
    #: stored sitrep keeps none, so replay rebuilds it byte for byte and no page shows a token)
    mail_text: str = ""
    mail_html: str = ""


def deadline_of(entries: list[dict[str, Any]], seat: str) -> tuple[datetime | None, Any]:
    """The seat's deadline and bank as the latest of ``entries`` that names a deadline records them."""
    # a game with a time bank records each seat's own deadline and clock beside the game's (pbem.clocks)
    last: dict[str, Any] = next((e["payload"] for e in reversed(entries) if e["payload"].get("deadline")), {})
    own = last.get("deadlines", {}).get(seat) or last.get("deadline")
    return (datetime.fromisoformat(own) if own else None), last.get("banks", {}).get(seat)


def build_sitrep(ruleset: Ruleset, game: Game, seat: Mapping[str, Any], state: Any,
                 entries: list[dict[str, Any]], server_key: str = "", web_link: str = "",
                 lang: str = i18n.SOURCE) -> BuiltSitrep:
    """Render one seat's sitrep from its view and the journal entries it covers.

    Uses nothing but the state after the last entry, the entries and the game's fixed facts,
    so ``pbem replay`` can rebuild it byte for byte.  ``server_key`` is the fingerprint of the key
    that signs the server's mail, named in the footer so a player knows which key to expect.  ``lang`` is
    the language it is written in (pbem.i18n), stamped on the stored sitrep for replay.
    """
    deadline, bank = deadline_of(entries, seat["name"])
    view = ruleset.view(state, seat["name"])
    phase = ruleset.phase(state)
    owes = phase is not None and (seat["name"] in phase.awaiting or seat["name"] in phase.optional)
    form = orders_text(game.id, seat["name"], phase, i18n.local(ruleset.order_form(view, seat["name"]), lang)) \
        if owes and phase is not None else None
    picture = ruleset.picture(view)
    from pbem.pictures import render_png  # on use: Pillow is for sitreps, not for taking mail in

    png = render_png(picture) if picture is not None else None
    ended = next((e["payload"] for e in entries if e["kind"] == "end"), None)
    over = phase is None or ended is not None
    if ended is not None:
        phase = None
        owes = False
        form = None
    outcome = ruleset.outcome(state) if phase is None and ended is None else None
    meta = {"id": game.id, "title": game.title, "ruleset": game.ruleset, "scenario": game.scenario,
            "turn": phase.turn if phase else game.turn, "phase": phase.name if phase else "over",
            "phase_title": i18n.local(phase.title or phase.name, lang) if phase else i18n.local(t_("game over"), lang),
            "prompt": i18n.local(phase.prompt, lang) if phase and owes else "",
            "deadline": i18n.local_time(deadline, seat.get("tz", "UTC"), lang) if owes else "",
            "clock": clock_line(bank, lang) if owes and bank is not None else "",
            "seed_commitment": game.seed_commitment, "seed": game.seed_hex if over else None,
            "server_key": server_key,
            "seed_salt": game.seed_salt if over else None,
            "journal_head": entries[-1]["hash"] if entries else game.journal_head,
            "notices": [n for e in entries for n in e["payload"].get("notices", [])],
            "outcome": ({"winner": outcome.winner, "text": i18n.local(outcome.text, lang)} if outcome else
                        {"winner": None, "text": ended["text"]} if ended else None)}
    ctx = sitrep_context(game=meta, seat=seat, view=view, entries=entries, form=form, picture=png is not None,
                         write=lambda msg: i18n.render(msg, lang))
    campaign = getattr(game, "campaign_json", "")  # golden and sandbox checks build a game without one
    if campaign:  # a campaign game: the standing as its side may see it (pbem.campaign.standing)
        ctx["campaign"] = campaign_view(json.loads(campaign), seat["side"])
    text, html = render_sitrep(game.ruleset, ctx, game.templates_dir, lang)
    mail_text, mail_html = render_sitrep(game.ruleset, {**ctx, "web_link": web_link}, game.templates_dir, lang) \
        if web_link else (text, html)
    return BuiltSitrep(text, html, png, dumps(view), form, mail_text, mail_html)


class SitrepService:
    """Queue the sitreps a change to a game calls for."""

    def __init__(self, deps: Deps, outbox: OutboxService) -> None:
        self.deps, self.outbox = deps, outbox

    def queue(self, s: Session, game: Game, ruleset: Ruleset, state: Any, *, force: bool = False) -> None:
        """Queue a sitrep for every seat that owes orders, saw something, or should hear the game ended.

        Each seat's sitrep covers the journal since its previous one, so a GM action or a notice
        between two resolutions is never missed.
        """
        phase = ruleset.phase(state)
        over = game.status == "over"
        web = self.deps.home.section("web")
        signer = Signer(load_secret(self.deps.home.path)) if web.get("url") else None
        for seat in s.exec(select(Seat).where(Seat.game_id == game.id).order_by(col(Seat.name))).all():
            last = s.exec(select(Sitrep.seq).where(Sitrep.game_id == game.id, Sitrep.seat == seat.name)
                          .order_by(col(Sitrep.seq).desc())).first()
            from_seq = 0 if last is None else last + 1
            if from_seq > game.journal_seq:
                continue
            entries = [entry_dict(j) for j in s.exec(select(Journal).where(
                Journal.game_id == game.id, Journal.seq >= from_seq).order_by(col(Journal.seq))).all()]
            owes = phase is not None and not over and (seat.name in phase.awaiting or seat.name in phase.optional)
            saw = any(seat.name in e["visible_to"] for en in entries for e in en["events"])
            told = any(en["payload"].get("notices") for en in entries)
            if not (owes or saw or told or over or last is None or force):
                continue
            link = seat_link(web["url"], signer, game.id, seat.name, seat.fingerprint, self.deps.clock(),
                             web["link_days"]) if signer else ""
            lang = i18n.effective(seat.lang, i18n.server_default(self.deps))
            built = build_sitrep(ruleset, game, seat_dict(seat), state, entries, self.deps.key_fingerprint, link,
                                 lang)
            mid = self.outbox.message_id("sitrep", game.id, seat.name, game.journal_head)
            s.add(Sitrep(game_id=game.id, seat=seat.name, seq=game.journal_seq, from_seq=from_seq, turn=game.turn,
                         phase=game.phase, view_json=built.view_json, text=built.text, html=built.html,
                         png=built.png, message_id=mid, renderer=stamp_with_lang(RENDERER, lang),
                         created_at=self.deps.clock()))
            _ = i18n.gettext(lang)
            what = _("final report") if over else _("turn %(turn)s %(phase)s") % {"turn": game.turn,
                                                                                  "phase": game.phase_title}
            if not seat.email:  # a seat the rules' scripted player plays from the start: kept, mailed to nobody
                continue
            prefs = notice_prefs.of_fingerprint(s, seat.fingerprint)
            if owes:  # the player's and the club's chats hear "your move" (pbem.notices.webhooks)
                self._hooks(s, game, seat, prefs, deadline_of(entries, seat.name)[0], lang)
            if prefs.digest:  # the player reads it in tomorrow's digest (pbem.notices.digest)
                continue
            text, html = built.mail_text, built.mail_html
            failures = webhooks.unshown_failures(s, seat.fingerprint, lang)
            if failures:  # the mail's footer only: the stored sitrep stays what replay rebuilds
                text += "\n" + "\n".join(failures) + "\n"
                html += "".join(f"<p><small>{escape(f)}</small></p>" for f in failures)
            self.outbox.queue(s, kind="sitrep", to=seat.email, subject=f"[{game.id}] {seat.name}: {what}",
                              text=text, html=html, msg_id=mid, now=self.deps.clock(), game_id=game.id,
                              png=built.png, form=built.form)

    def _hooks(self, s: Session, game: Game, seat: Seat, prefs: notice_prefs.NoticePrefs,
               deadline: datetime | None, lang: str) -> None:
        """Queue the "your move" posts of a seat that owes orders: to its player's hook and the club's (the
        player's in his language, the club's in the server's)."""
        club = self.deps.home.section("notices")
        hooks = [(prefs.webhook, prefs.webhook_format, seat.fingerprint)] if prefs.webhook else []
        if club["webhook_url"]:
            hooks.append((club["webhook_url"], club["webhook_format"], ""))
        club_lang = i18n.server_default(self.deps)
        for url, fmt, fingerprint in hooks:
            webhooks.queue_move(s, url=url, fmt=fmt, key=f"{fingerprint or 'club'}/{game.id}/{seat.name}/"
                                f"{game.journal_head}", fingerprint=fingerprint, game_id=game.id, seat=seat.name,
                                phase_title=i18n.gettext(lang if fingerprint else club_lang)("turn %(turn)s, %(phase)s")
                                % {"turn": game.turn, "phase": game.phase_title or game.phase},
                                deadline=deadline, tz=seat.tz, now=self.deps.clock(),
                                lang=lang if fingerprint else club_lang)
