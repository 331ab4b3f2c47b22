"""`pbem web`: read-only pages beside the mail, on Starlette (served by uvicorn).

Four kinds of page, and nothing else:

* a seat's pages, reached by the capability link its sitreps carry (``/l/TOKEN``): the first visit
  trades the link for a short-lived cookie and redirects to ``/g/GAME/SEAT/``, a URL without the
  token.  They serve only what that seat's mail carried — its stored sitreps (text, HTML, map, view),
  the order form mailed with each, its acknowledgements — never anything rendered from the live
  state, so the web can show nothing the mail did not;
* the archive (``/archive/``): finished games turn by turn, every side, with the revealed seed and
  the ``pbem export`` record; a running game only when ``[web] archive_delay_turns`` is set, and
  then only its turns that many behind;
* the club's standings: ratings (``/ratings/``), ladders (``/ladders/``) and round-robin tournaments
  (``/tournaments/``), computed by the functions the CLI prints them with; names or key fingerprints,
  never an address;
* the GM's dashboard (``/gm/``), logged into by signing a challenge with the GM's OpenSSH key.

Every response carries a strict Content-Security-Policy (no script, nothing from elsewhere) and
``Referrer-Policy: no-referrer``; private pages are ``Cache-Control: no-store``.
"""
from __future__ import annotations

import base64
import hashlib
import io
import json
import re
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from datetime import datetime, timedelta
from importlib import resources
from types import SimpleNamespace
from typing import Any, cast
from urllib.parse import parse_qs, quote

import jinja2
from sqlalchemy import func
from sqlalchemy import select as sa_select
from sqlmodel import col, select
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pbem.crypto import sshsig
from pbem.i18n import said_ as _  # a page's message, said in its reader's language (Web.refuse, i18n.say)
from pbem import i18n
from pbem.services.deps import Deps
from pbem.store.models import Game, Inbound, Outbox, Seat, Sitrep, table
from pbem.store.times import aware
from pbem.web import links
from pbem.web.links import BadToken, Signer

NAMESPACE = "pbem-web"  # what the GM signs the login challenge under: `ssh-keygen -Y sign -n pbem-web`
CSP = "default-src 'self'; img-src 'self'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; " \
      "base-uri 'none'"
PRIVATE = ("/l/", "/g/", "/gm/")
PUBLIC_STATUSES = ("over", "archived")
CHALLENGE_MINUTES = 5


@lru_cache(maxsize=8)
def _env(lang: str = i18n.SOURCE) -> jinja2.Environment:
    """The pages' templates in one language: ``_``/``ngettext`` from its catalog, numbers in its locale."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(resources.files("pbem.templates") / "web")),
                             autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True,
                             lstrip_blocks=True, extensions=["jinja2.ext.i18n"])
    env.install_gettext_translations(i18n.translations(lang), newstyle=True)  # type: ignore[attr-defined]
    env.globals.update(lang=lang, number=lambda value: i18n.number(value, lang),
                       fixed=lambda value, places, sign=False: _fixed(value, places, sign, lang))
    return env


def _fixed(value: float, places: int, sign: bool, lang: str) -> str:
    """A number with a fixed count of decimals (``%.2f``, ``%+.2f``), in the reader's locale."""
    if lang == i18n.SOURCE:
        return f"{value:+.{places}f}" if sign else f"{value:.{places}f}"
    from babel.numbers import format_decimal

    text = format_decimal(round(value, places), format="#,##0." + "0" * places, locale=lang)
    return f"+{text}" if sign and value >= 0 else text


class SecretFile:
    """The home's web secret, re-read when `pbem web rotate` replaces it (another process may)."""

    def __init__(self, home) -> None:
        self.home, self._stamp, self._signer = home, (0, 0), Signer(links.load_secret(home))

    def signer(self) -> Signer:
        st = (self.home / links.SECRET_FILE).stat()
        stamp = (st.st_mtime_ns, st.st_ino)
        if stamp != self._stamp:
            self._signer, self._stamp = Signer(links.load_secret(self.home)), stamp
        return self._signer


@dataclass
class RateLimit:
    """At most ``per_minute`` requests from one address in any minute (a sliding window)."""

    per_minute: int
    clock: Callable[[], float] = time.monotonic
    seen: dict[str, deque[float]] = field(default_factory=dict)

    def allow(self, who: str) -> bool:
        now = self.clock()
        q = self.seen.setdefault(who, deque())
        while q and q[0] <= now - 60:
            q.popleft()
        if len(q) >= self.per_minute:
            return False
        q.append(now)
        if len(self.seen) > 10_000:  # forget idle addresses
            for k in [k for k, v in self.seen.items() if not v or v[-1] <= now - 60]:
                del self.seen[k]
        return True


class Guard:
    """ASGI middleware: the rate limit, and the security headers on every response."""

    def __init__(self, app: ASGIApp, limit: RateLimit) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = scope.get("client") or ("?", 0)
        if not self.limit.allow(client[0]):
            await PlainTextResponse("Too many requests; wait a minute.", 429,
                                    headers={"Retry-After": "60"})(scope, receive, send)
            return
        private = scope["path"].startswith(PRIVATE)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _value in headers}
                extra = {b"content-security-policy": CSP.encode(), b"referrer-policy": b"no-referrer",
                         b"x-content-type-options": b"nosniff", b"x-frame-options": b"DENY"}
                if private:
                    extra[b"cache-control"] = b"no-store"
                headers += [(k, v) for k, v in extra.items() if k not in names]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _cookie_name(game: str, seat: str) -> str:
    return "seat_" + hashlib.sha256(f"{game}\0{seat}".encode()).hexdigest()[:16]


def _seat_url(game: str, seat: str) -> str:
    return f"/g/{quote(game, safe='')}/{quote(seat, safe='')}/"


async def _form(request: Request, limit: int = 256 * 1024) -> dict[str, list[str]] | None:
    """A posted urlencoded form (None when it is over ``limit`` bytes)."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            return None
    return parse_qs(body.decode("utf-8", "replace"))


def _style_hashes(html: str) -> str:
    return " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(m.encode()).digest()).decode()}'"
                    for m in re.findall(r"<style>(.*?)</style>", html, re.S))


class Web:
    """The pages of one home; every handler reads the database in one reading transaction."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps
        self.cfg = deps.home.section("web")
        self.secret = SecretFile(deps.home.path)
        self.secure = str(self.cfg.get("url", "")).startswith("https://")
        self.used_challenges: dict[str, float] = {}
        self.intake: Any = None  # made on the first pasted order file (pbem.services.ingest.IntakeService)

    # ------------------------------------------------------------------ helpers

    def page(self, name: str, status: int = 200, *, lang: str = i18n.SOURCE, **ctx: Any) -> HTMLResponse:
        ctx.setdefault("server_name", self.deps.home.section("server").get("name", "pbem"))
        resp = HTMLResponse(_env(lang).get_template(name).render(**ctx), status)
        resp.headers["Content-Language"] = lang
        return resp

    def refuse(self, status: int, title: str, text: str, lang: str = i18n.SOURCE, **values: Any) -> HTMLResponse:
        """An error page; ``title`` and ``text`` are messages (marked with ``_``), said in ``lang``."""
        say = i18n.gettext(lang)
        return self.page("error.html.j2", status, lang=lang, title=say(title), text=say(text) % values if values
                         else say(text))

    def public_lang(self, request: Request) -> str:
        """The language of a public page: ``?lang=``, else the browser's ``Accept-Language``, else the server's."""
        asked = request.query_params.get("lang", "").strip().lower()
        if asked in i18n.languages():
            return asked
        return i18n.effective(i18n.from_accept_language(request.headers.get("accept-language")),
                              i18n.server_default(self.deps))

    def seat_lang(self, game: str, seat: str) -> str:
        """The language of a seat's pages: the one its player reads his mail in."""
        with self.deps.reader() as s:
            lang = s.exec(select(Seat.lang).where(Seat.game_id == game, Seat.name == seat)).first()
        return i18n.effective(lang, i18n.server_default(self.deps))

    def public(self, request: Request, name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
        """A public page, in the reader's language, with the links to the others."""
        return self.page(name, status, lang=self.public_lang(request), langs=i18n.languages(), **ctx)

    def now(self) -> datetime:
        return aware(self.deps.clock())

    def cookie(self, resp: Response, name: str, value: str, path: str, minutes: float) -> None:
        resp.set_cookie(name, value, max_age=int(minutes * 60), path=path, httponly=True, samesite="strict",
                        secure=self.secure)

    # ------------------------------------------------------------------ a seat's pages

    def link(self, request: Request) -> Response:
        try:
            fields = self.secret.signer().check(links.LINK, request.path_params["token"], self.now())
        except BadToken:
            return self.refuse(403, _("This link no longer opens anything"),
                               _("It has expired, or the GM has revoked every link. The next sitrep you are "
                                 "mailed carries a fresh one."), self.public_lang(request))
        game, seat = str(fields["g"]), str(fields["s"])
        if not self._player_holds(game, seat, fields.get("k")):
            return self.refuse(403, _("This link no longer opens anything"),
                               _("The side has passed to another player since this link was mailed."),
                               self.public_lang(request))
        minutes = float(self.cfg["cookie_minutes"])
        exp = min(self.now() + timedelta(minutes=minutes), datetime.fromtimestamp(fields["exp"], self.now().tzinfo))
        value = self.secret.signer().make(links.SEAT_COOKIE, {"g": game, "s": seat, "k": fields["k"]}, exp)
        resp = RedirectResponse(_seat_url(game, seat), 303)
        self.cookie(resp, _cookie_name(game, seat), value, "/g/", minutes)
        return resp

    def _seat_allowed(self, request: Request) -> tuple[str, str] | None:
        game, seat = request.path_params["game"], request.path_params["seat"]
        value = request.cookies.get(_cookie_name(game, seat), "")
        try:
            fields = self.secret.signer().check(links.SEAT_COOKIE, value, self.now())
        except BadToken:
            return None
        if (fields.get("g"), fields.get("s")) != (game, seat) or not self._player_holds(game, seat, fields.get("k")):
            return None
        return game, seat

    def _player_holds(self, game: str, seat: str, tag: Any) -> bool:
        """Whether the seat is still held by the player (key) a link was made for."""
        with self.deps.reader() as s:
            fingerprint = s.exec(select(Seat.fingerprint).where(Seat.game_id == game, Seat.name == seat)).first()
        return fingerprint is not None and tag == links.player_tag(fingerprint)

    def _no_seat(self, request: Request) -> HTMLResponse:
        return self.refuse(403, _("Open this page by the link in your sitrep"),
                           _("A side's pages open only through the private link its sitreps carry, for a while "
                             "after it was last used."), self.public_lang(request))

    def seat_home(self, request: Request) -> Response:
        who = self._seat_allowed(request)
        if who is None:
            return self._no_seat(request)
        game_id, seat = who
        with self.deps.reader() as s:
            game = s.get(Game, game_id)
            rows = s.exec(select(Sitrep.id, Sitrep.turn, Sitrep.phase, Sitrep.created_at).where(
                Sitrep.game_id == game_id, Sitrep.seat == seat).order_by(col(Sitrep.id))).all()
            acks = s.exec(select(Outbox).where(Outbox.game_id == game_id, Outbox.kind == "ack")
                          .order_by(col(Outbox.id))).all()
            row = s.exec(select(Seat).where(Seat.game_id == game_id, Seat.name == seat)).first()
        if game is None or row is None or not rows:
            return self.refuse(404, _("Nothing here"), _("This side has no sitrep yet."), self.seat_lang(*who))
        tz, lang = row.tz, i18n.effective(row.lang, i18n.server_default(self.deps))
        mine = []
        for a in acks:
            ack = json.loads(a.parts_json).get("ack") or {}
            if ack.get("seat") == seat:
                mine.append({"when": i18n.local_time(aware(a.created_at), tz, lang), "subject": a.subject,
                             "text": json.loads(a.parts_json).get("text", "")})
        sitreps = [{"id": r[0], "turn": r[1], "phase": r[2], "when": i18n.local_time(aware(r[3]), tz, lang)}
                   for r in rows]
        return self.page("seat.html.j2", lang=lang, game={"id": game_id, "title": game.title}, seat=seat,
                         sitreps=sitreps, latest=sitreps[-1], acks=mine[-20:], base=_seat_url(game_id, seat))

    def _sitrep(self, game_id: str, seat: str | None, sid: int) -> tuple[Sitrep, str | None] | None:
        with self.deps.reader() as s:
            row = s.get(Sitrep, sid)
            if row is None or row.game_id != game_id or (seat is not None and row.seat != seat):
                return None
            sent = s.exec(select(Outbox.parts_json).where(Outbox.message_id == row.message_id)).first() \
                if row.message_id else None
        form = json.loads(sent).get("form") if sent else None
        return row, form

    def seat_sitrep(self, request: Request) -> Response:
        who = self._seat_allowed(request)
        if who is None:
            return self._no_seat(request)
        found = self._sitrep(who[0], who[1], int(request.path_params["sid"]))
        lang = self.seat_lang(*who)
        if found is None:
            return self.refuse(404, _("No such sitrep"), _("This side was sent no such sitrep."), lang)
        row, form = found
        base = _seat_url(*who)
        fmt = request.path_params.get("fmt", "")
        if fmt:
            return self._part(row, fmt, f"{base}r/{row.id}.png", lang)
        with self.deps.reader() as s:
            ids = list(s.exec(select(Sitrep.id).where(Sitrep.game_id == who[0], Sitrep.seat == who[1])
                              .order_by(col(Sitrep.id))).all())
        i = ids.index(row.id)
        due = _due(row)
        return self.page("sitrep.html.j2", lang=lang, row=row, form=form, base=base, seat=who[1], due=due,
                         prev=ids[i - 1] if i > 0 else None, next=ids[i + 1] if i + 1 < len(ids) else None,
                         png=f"{base}r/{row.id}.png" if row.png else None)

    def _part(self, row: Sitrep, fmt: str, png_url: str, lang: str) -> Response:
        if fmt == "png" and row.png:
            return Response(row.png, media_type="image/png")
        if fmt == "json":
            return Response(row.view_json, media_type="application/json")
        if fmt == "txt":
            return PlainTextResponse(row.text)
        if fmt == "html":
            html = row.html.replace('src="cid:map@pbem"', f'src="{png_url}"')
            csp = CSP.replace("style-src 'self'", f"style-src 'self' {_style_hashes(html)}")
            return HTMLResponse(html, headers={"Content-Security-Policy": csp})
        return self.refuse(404, _("No such part"), _("A sitrep has .txt, .html, .json and (with a map) .png."), lang)

    async def seat_orders(self, request: Request) -> Response:
        """A signed order file pasted in, for when a player's mail is failing: it goes through the mail
        intake as a message from the seat's address (the signature is still the only authentication;
        the link only opens the page), and the verdict is shown here as well as mailed."""
        limit = 3 * self.deps.home.max_message_bytes + 4096  # urlencoded, a character may take three bytes
        form = await _form(request, limit) if request.method == "POST" else None
        if request.method == "POST" and form is None:
            return self.refuse(413, _("Too long"), _("That is longer than the server takes by mail."),
                               self.public_lang(request))
        return await run_in_threadpool(self._seat_orders, request, form)

    def _seat_orders(self, request: Request, form: dict[str, list[str]] | None) -> Response:
        who = self._seat_allowed(request)
        if who is None:
            return self._no_seat(request)
        game_id, seat = who
        base = _seat_url(game_id, seat)
        with self.deps.reader() as s:
            row = s.exec(select(Seat).where(Seat.game_id == game_id, Seat.name == seat)).first()
            last = s.exec(select(Sitrep.message_id).where(Sitrep.game_id == game_id, Sitrep.seat == seat)
                          .order_by(col(Sitrep.id).desc())).first()
            sent = s.exec(select(Outbox.parts_json).where(Outbox.message_id == last)).first() if last else None
        if row is None:
            return self._no_seat(request)
        mailed_form = json.loads(sent).get("form") if sent else None
        verdict = None
        text = ""
        if form is not None:
            text = form.get("signed", [""])[0].replace("\r\n", "\n")
            if text.strip():
                verdict = self._ingest(row, text)
        return self.page("orders.html.j2", 200, lang=i18n.effective(row.lang, i18n.server_default(self.deps)), seat=seat, game_id=game_id, base=base, form=mailed_form,
                         verdict=verdict, text=text if verdict is None or verdict.status != "accepted" else "")

    def _ingest(self, seat: Seat, text: str) -> Any:
        from email.message import EmailMessage
        from email.utils import formatdate

        from pbem.services.ingest import IntakeService
        from pbem.services.wiring import Services

        if self.intake is None:
            self.intake = IntakeService(Services.build(self.deps))
        msg = EmailMessage()
        msg["From"] = seat.email or f"web@{self.deps.domain}"
        msg["To"] = self.deps.home.address
        msg["Subject"] = f"orders for {seat.game_id} by the web page"
        msg["Date"] = formatdate(self.now().timestamp())
        msg["Message-ID"] = f"<web-{secrets.token_hex(12)}@{self.deps.domain}>"
        msg.set_content(text if text.endswith("\n") else text + "\n")
        return self.intake.ingest_many([bytes(msg)])[0]

    # ------------------------------------------------------------------ the archive

    def _public_turns(self, game: Game) -> int | None:
        """The last turn of the game anyone may see (None: none of it)."""
        if game.status in PUBLIC_STATUSES:
            return game.turn + 1_000_000
        delay = int(self.cfg["archive_delay_turns"])
        if delay and game.status != "open" and game.turn - delay >= 0:
            return game.turn - delay
        return None

    def archive(self, request: Request) -> Response:
        with self.deps.reader() as s:
            games = s.exec(select(Game).order_by(col(Game.id))).all()
            shown = [{"id": g.id, "title": g.title, "ruleset": g.ruleset, "status": g.status, "turn": g.turn,
                      "outcome": json.loads(g.outcome_json).get("text", "") if g.outcome_json else ""}
                     for g in games if self._public_turns(g) is not None]
        return self.public(request, "archive.html.j2", games=shown)

    def _public_game(self, game_id: str) -> tuple[Game, int] | None:
        with self.deps.reader() as s:
            game = s.get(Game, game_id)
        last = self._public_turns(game) if game is not None else None
        return (game, last) if game is not None and last is not None else None

    def archive_game(self, request: Request) -> Response:
        found = self._public_game(request.path_params["game"])
        if found is None:
            return self.refuse(404, _("Not public"), _("No such game, or it is still being played."),
                               self.public_lang(request))
        game, last = found
        with self.deps.reader() as s:
            turns = sorted(set(s.exec(select(Sitrep.turn).where(Sitrep.game_id == game.id,
                                                                  Sitrep.turn <= last)).all()))
        over = game.status in PUBLIC_STATUSES
        return self.public(request, "archive_game.html.j2", game=game, turns=turns, over=over,
                         outcome=json.loads(game.outcome_json).get("text", "") if game.outcome_json else "")

    def archive_turn(self, request: Request) -> Response:
        found = self._public_game(request.path_params["game"])
        turn = int(request.path_params["turn"])
        if found is None or turn > found[1]:
            return self.refuse(404, _("Not public"), _("No such game or turn, or it is still being played."),
                               self.public_lang(request))
        game = found[0]
        with self.deps.reader() as s:
            rows = s.exec(select(Sitrep).where(Sitrep.game_id == game.id, Sitrep.turn == turn)
                          .order_by(col(Sitrep.seq), col(Sitrep.seat), col(Sitrep.id))).all()
            turns = sorted(set(s.exec(select(Sitrep.turn).where(Sitrep.game_id == game.id,
                                                                  Sitrep.turn <= found[1])).all()))
        if not rows:
            return self.refuse(404, _("No such turn"), _("No sitrep was sent in that turn."), self.public_lang(request))
        i = turns.index(turn)
        return self.public(request, "archive_turn.html.j2", game=game, turn=turn, rows=rows,
                         prev=turns[i - 1] if i > 0 else None, next=turns[i + 1] if i + 1 < len(turns) else None)

    def archive_part(self, request: Request) -> Response:
        found = self._public_game(request.path_params["game"])
        sid = int(request.path_params["sid"])
        part = self._sitrep(found[0].id, None, sid) if found else None
        if found is None or part is None or part[0].turn > found[1]:
            return self.refuse(404, _("Not public"), _("No such sitrep, or its game is still being played."),
                               self.public_lang(request))
        base = f"/archive/{quote(found[0].id, safe='')}/"
        return self._part(part[0], request.path_params["fmt"], f"{base}s/{sid}.png", self.public_lang(request))

    def record(self, request: Request) -> Response:
        found = self._public_game(request.path_params["game"])
        if found is None or found[0].status not in PUBLIC_STATUSES:
            return self.refuse(404, _("Not public"), _("The record of a game is public once it is over."),
                               self.public_lang(request))
        from pbem.export import export_files, write_zip

        files = export_files(cast(Any, SimpleNamespace(deps=self.deps)), found[0].id)
        buf = io.BytesIO()
        write_zip(files, cast(Any, buf), found[0].id)
        return Response(buf.getvalue(), media_type="application/zip",
                        headers={"Content-Disposition": f'attachment; filename="{found[0].id}.zip"'})

    def ratings(self, request: Request) -> Response:
        """The club's standings (the ratings `pbem ratings --update` stored): names the players chose, or
        their key's fingerprint, never an address."""
        from pbem.club import ratings as R
        from pbem.store.models import Player

        scope = request.path_params.get("scope", R.OVERALL)
        published = R.stored(self.deps)
        scopes = sorted({x["scope"] for x in published}, key=lambda x: (x != R.OVERALL, x))
        with self.deps.reader() as s:
            names = {p.fingerprint: p.name for p in s.exec(select(Player)).all()}
        now = self.now()
        rows = [{**R.current(x, now), "fingerprint": x["fingerprint"], "name": names.get(x["fingerprint"], "")}
                for x in published if x["scope"] == scope and not x["fingerprint"].startswith("side:")]
        rows.sort(key=lambda r: (-r["rating"], r["fingerprint"]))
        if not rows and scope != R.OVERALL:
            return self.refuse(404, _("No such standings"), _("No ratings in %(scope)s."), self.public_lang(request),
                               scope=repr(scope))
        return self.public(request, "ratings.html.j2", scope=scope, scopes=scopes, rows=rows,
                         sides=R.side_advantages(published, scope))

    # ------------------------------------------------------------------ ladders and tournaments

    def _club(self) -> Any:
        """What pbem.club's functions take (they read ``.deps`` only): the CLI's own standings, not a copy."""
        return cast(Any, SimpleNamespace(deps=self.deps))

    def _finished(self, s: Any, game_ids: list[str]) -> set[str]:
        """Which of these games are over, so have an archive page."""
        if not game_ids:
            return set()
        return set(s.exec(select(Game.id).where(col(Game.id).in_(game_ids),
                                               col(Game.status).in_(PUBLIC_STATUSES))).all())

    def campaigns(self, request: Request) -> Response:
        from pbem.store.models import Campaign

        with self.deps.reader() as s:
            rows = s.exec(select(Campaign).order_by(col(Campaign.id))).all()
            shown = [{"id": c.id, "title": c.title, "ruleset": c.ruleset, "status": c.status,
                      "games": len(json.loads(c.standing_json)["games"])} for c in rows]
        return self.page("campaigns.html.j2", campaigns=shown)

    def campaign(self, request: Request) -> Response:
        """A campaign's public page: what every side may see (campaign VP, results, GM edits), never a roster."""
        from pbem.campaign.standing import public
        from pbem.store.models import Campaign

        with self.deps.reader() as s:
            c = s.get(Campaign, request.path_params["name"])
            if c is None:
                return self.refuse(404, "No such campaign", "No campaign by that name on this server.")
            shown = public(json.loads(c.standing_json))
            ids = [g["game"] for g in shown["games"]] + ([c.game_id] if c.game_id else [])
            finished = self._finished(s, ids)
        return self.page("campaign.html.j2", c=c, st=shown, finished=finished)

    def ladders(self, request: Request) -> Response:
        from pbem.store.models import Ladder, LadderRung

        with self.deps.reader() as s:
            rows = s.exec(select(Ladder).order_by(col(Ladder.name))).all()
            counts = dict(s.exec(select(LadderRung.ladder, func.count()).group_by(col(LadderRung.ladder))).all())
            shown = [{"name": x.name, "ruleset": x.ruleset, "scenario": x.scenario, "players": counts.get(x.name, 0)}
                     for x in rows]
        return self.public(request, "ladders.html.j2", ladders=shown)

    def ladder(self, request: Request) -> Response:
        """One ladder: its limits, its standings (`pbem ladder show`'s), the challenges under way: who challenged
        whom, and until when or that the game is being played; never an address, nor a running game's id."""
        from pbem.club import ladder as L
        from pbem.services.records import ServerError
        from pbem.store.models import Ladder, LadderChallenge

        name = request.path_params["name"]
        try:
            rows = L.standings(self._club(), name)
        except ServerError:
            return self.refuse(404, _("No such ladder"), _("There is no ladder of that name here."),
                               self.public_lang(request))
        lang = self.public_lang(request)
        with self.deps.reader() as s:
            lad = s.get(Ladder, name)
            live = s.exec(select(LadderChallenge).where(LadderChallenge.ladder == name, col(LadderChallenge.status)
                                                        .in_(("open", "accepted"))).order_by(col(LadderChallenge.id))
                          ).all()
            challenges = [{"id": c.id, "challenger": L.name_of(s, c.challenger), "challenged": L.name_of(s, c.challenged),
                           "status": c.status, "until": f"{aware(c.expires_at):%Y-%m-%d %H:%M} UTC"
                           if lang == i18n.SOURCE else i18n.local_time(aware(c.expires_at), "UTC", lang)}
                          for c in live]
        if lad is None:
            return self.refuse(404, _("No such ladder"), _("There is no ladder of that name here."),
                               self.public_lang(request))
        return self.page("ladder.html.j2", lang=lang, langs=i18n.languages(), ladder=lad, rows=rows, challenges=challenges)

    def tournaments(self, request: Request) -> Response:
        from pbem.club.tournament import plan
        from pbem.store.models import Tournament

        with self.deps.reader() as s:
            rows = s.exec(select(Tournament).order_by(col(Tournament.created_at).desc(), col(Tournament.name))).all()
            shown = []
            for t in rows:
                _sched, players, total, _drawn = plan(t)  # round-robin or Swiss, as the tournament's own code reads it
                shown.append({"name": t.name, "ruleset": t.ruleset, "scenario": t.scenario, "status": t.status,
                              "round": min(t.round, total), "rounds": total, "players": len(players)})
        return self.public(request, "tournaments.html.j2", tournaments=shown)

    def tournament(self, request: Request) -> Response:
        """One tournament: the standings `pbem tournament standings` prints, then each round's games, a finished
        one linked to its archive page."""
        from pbem.club import tournament as T
        from pbem.club.ladder import name_of
        from pbem.services.records import ServerError
        from pbem.store.models import Tournament, TournamentGame

        name = request.path_params["name"]
        try:
            rows = T.standings(self._club(), name)
        except ServerError:
            return self.refuse(404, _("No such tournament"), _("There is no tournament of that name here."),
                               self.public_lang(request))
        with self.deps.reader() as s:
            t = s.get(Tournament, name)
            games = s.exec(select(TournamentGame).where(TournamentGame.tournament == name)
                           .order_by(col(TournamentGame.round), col(TournamentGame.id))).all()
            over = self._finished(s, [g.game_id for g in games])
            fps = {fp for g in games for fp in (g.first, g.second, g.winner) if fp}
            names = {fp: name_of(s, fp) for fp in fps}
        if t is None:
            return self.refuse(404, _("No such tournament"), _("There is no tournament of that name here."),
                               self.public_lang(request))
        total = T.plan(t)[2]
        rounds: dict[int, list[dict[str, Any]]] = {}
        for g in games:
            result = ("being played" if not g.done else f"{names[g.winner]} won" if g.winner else "a draw")
            rounds.setdefault(g.round, []).append({"game": g.game_id, "first": names[g.first],
                                                   "second": names[g.second], "result": result,
                                                   "winner": names[g.winner] if g.winner else "",
                                                   "archive": g.game_id in over})
        return self.public(request, "tournament.html.j2", t=t, rows=rows, rounds=sorted(rounds.items()), total=total)

    # ------------------------------------------------------------------ the GM

    def _gm(self, request: Request) -> bool:
        key = self.deps.gm_key
        if key is None:
            return False
        try:
            fields = self.secret.signer().check(links.GM_COOKIE, request.cookies.get("gm", ""), self.now())
        except BadToken:
            return False
        return fields.get("k") == key.fingerprint

    async def gm_login(self, request: Request) -> Response:
        form = await _form(request) if request.method == "POST" else None
        if request.method == "POST" and form is None:
            return self.refuse(413, _("Too long"), _("That is longer than any signature."), self.public_lang(request))
        return await run_in_threadpool(self._gm_login, form, self.public_lang(request))

    def _gm_login(self, form: dict[str, list[str]] | None, lang: str) -> Response:
        if self.deps.gm_key is None:
            return self.refuse(403, _("No GM key"), _("Set %(setting)s in config.toml to log in here."), lang,
                               setting="[server] gm_key")
        problem = ""
        if form is not None:
            challenge = form.get("challenge", [""])[0]
            signature = form.get("signature", [""])[0]
            problem = i18n.say(self._check_login(challenge, signature), lang)
            if not problem:
                resp = RedirectResponse("/gm/", 303)
                minutes = float(self.cfg["cookie_minutes"])
                value = self.secret.signer().make(links.GM_COOKIE, {"k": self.deps.gm_key.fingerprint},
                                                  self.now() + timedelta(minutes=minutes))
                self.cookie(resp, "gm", value, "/gm/", minutes)
                return resp
        challenge = self.secret.signer().make(links.CHALLENGE, {"n": secrets.token_hex(12)},
                                              self.now() + timedelta(minutes=CHALLENGE_MINUTES))
        return self.page("gm_login.html.j2", 403 if problem else 200, lang=lang, langs=i18n.languages(), challenge=challenge, problem=problem,
                         namespace=NAMESPACE, minutes=CHALLENGE_MINUTES)

    def _check_login(self, challenge: str, signature: str) -> str:
        key = self.deps.gm_key
        assert key is not None
        try:
            self.secret.signer().check(links.CHALLENGE, challenge, self.now())
        except BadToken as exc:
            return _("The challenge is no good (%(why)s); sign this new one.", why=str(exc))
        if challenge in self.used_challenges:
            return _("That challenge was used already; sign this new one.")
        signer = None
        for message in (challenge.encode(), (challenge + "\n").encode()):  # signed as typed, or by echo
            try:
                signer = sshsig.verify(signature, message, NAMESPACE)
                break
            except sshsig.SignatureError as exc:
                problem = str(exc)
        if signer is None:
            return _("The signature does not check: %(why)s", why=problem)
        if signer.blob != key.blob:
            return _("Signed by %(key)s, which is not the GM's key.", key=signer.fingerprint)
        now = time.monotonic()
        self.used_challenges = {c: t for c, t in self.used_challenges.items() if t > now - CHALLENGE_MINUTES * 60}
        self.used_challenges[challenge] = now
        return ""

    def gm_logout(self, request: Request) -> Response:
        resp = RedirectResponse("/", 303)
        resp.delete_cookie("gm", path="/gm/")
        return resp

    def gm_home(self, request: Request) -> Response:
        if not self._gm(request):
            return RedirectResponse("/gm/login", 303)
        from pbem.services.queries import Queries
        from pbem.services.states import StateCache

        q = Queries(self.deps, StateCache(self.deps))
        tz = str(self.deps.home.section("server").get("tz", "UTC"))
        lang = self.public_lang(request)  # the GM's browser's language (or ?lang=), else the server's
        games = [{**g, "deadline": i18n.local_time(g["deadline"], tz, lang) if g["deadline"] else ""}
                 for g in q.overview()]
        with self.deps.reader() as s:
            counts = dict(s.exec(select(Outbox.state, func.count()).group_by(col(Outbox.state))).all())
            waiting = s.exec(select(Outbox).where(col(Outbox.state).in_(("queued", "sending", "failed")))
                             .order_by(col(Outbox.id).desc()).limit(30)).all()
            i = table(Inbound).c
            verdicts = s.connection().execute(sa_select(i.received_at, i.sender, i.game_id, i.seat, i.status,
                                                        i.verdict).order_by(i.id.desc()).limit(20)).all()
        outbox = [{"kind": o.kind, "to": o.to_addr, "subject": o.subject, "state": o.state, "attempts": o.attempts,
                   "error": o.last_error} for o in waiting]
        return self.page("gm.html.j2", lang=lang, langs=i18n.languages(), games=games, held=[g for g in games if g["status"] == "held"],
                         counts=counts, outbox=outbox, players=q.players(), tz=tz,
                         verdicts=[{"when": i18n.local_time(aware(v[0]), tz, lang), "sender": v[1], "game": v[2],
                                    "seat": v[3], "status": v[4], "verdict": v[5]} for v in verdicts])

    # ------------------------------------------------------------------ the rest

    def index(self, request: Request) -> Response:
        return self.public(request, "index.html.j2")

    def css(self, request: Request) -> Response:
        text = (resources.files("pbem.templates") / "web" / "web.css").read_text()
        return Response(text, media_type="text/css", headers={"Cache-Control": "max-age=3600"})


def _due(row: Sitrep) -> str | None:
    """When a sitrep said its orders were due: its "YOUR ORDERS — due ..." line, in the language it was written in."""
    from pbem.render import stamp_lang

    say = i18n.gettext(stamp_lang(row.renderer)[1])
    due = re.escape(say("due %(when)s")).replace(re.escape("%(when)s"), "(.+)")
    found = re.search(rf"^{re.escape(say('YOUR ORDERS'))} — {due}$", row.text, re.M)
    return found.group(1) if found else None


def create_app(deps: Deps, *, limit: RateLimit | None = None) -> ASGIApp:
    """The ASGI application of one home."""
    web = Web(deps)
    routes = [
        Route("/", web.index),
        Route("/web.css", web.css),
        Route("/l/{token}", web.link),
        Route("/g/{game}/{seat}/", web.seat_home),
        Route("/g/{game}/{seat}/r/{sid:int}", web.seat_sitrep),
        Route("/g/{game}/{seat}/r/{sid:int}.{fmt}", web.seat_sitrep),
        Route("/g/{game}/{seat}/orders", web.seat_orders, methods=["GET", "POST"]),
        Route("/archive/", web.archive),
        Route("/archive/{game}/", web.archive_game),
        Route("/archive/{game}/t/{turn:int}", web.archive_turn),
        Route("/archive/{game}/s/{sid:int}.{fmt}", web.archive_part),
        Route("/archive/{game}/record.zip", web.record),
        Route("/ratings/", web.ratings),
        Route("/ratings/{scope}", web.ratings),
        Route("/campaigns/", web.campaigns),
        Route("/campaigns/{name}", web.campaign),
        Route("/ladders/", web.ladders),
        Route("/ladders/{name}", web.ladder),
        Route("/tournaments/", web.tournaments),
        Route("/tournaments/{name}", web.tournament),
        Route("/gm/", web.gm_home),
        Route("/gm/login", web.gm_login, methods=["GET", "POST"]),
        Route("/gm/logout", web.gm_logout, methods=["POST"]),
    ]
    app = Starlette(routes=routes)
    app.state.web = web
    return Guard(app, limit or RateLimit(int(deps.home.section("web")["rate_per_minute"])))

