"""Web hooks: "your move in game X, due …" posted to a player's or the club's chat, queued like mail.

A post is a :class:`~pbem.store.models.Webhook` row, queued in the transaction that queued the seat's sitrep
(once per seat and phase opening: its ``key``), then posted by the daemon's pass with retries (1, 4, 16 …
minutes apart) until ``[notices] webhook_attempts`` tries have failed.  Its text is built from the game id,
the seat, the phase title and the deadline only, so nothing a seat may not know reaches a chat.

The HTTP client is the standard library's ``urllib.request`` with a timeout: one JSON POST needs nothing
more, and httpx is only a test dependency here.  Redirects are not followed, and unless ``[notices]
webhook_private`` is set a URL that resolves to a loopback, private or link-local address is refused:
players name the URLs, and a club server must not post into its own network for them.
"""
from __future__ import annotations

import ipaddress
import json
import logging
import socket
import urllib.error
import urllib.request
from dataclasses import dataclass
from functools import lru_cache
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import Insert, update
from sqlmodel import Session, col, select

from pbem import i18n
from pbem.services.deps import Deps
from pbem.store.models import Webhook, table
from pbem.store.times import aware

log = logging.getLogger("pbem.notices")

#: a claimed post not settled this long after (its daemon died mid-post) is queued again
STALE = timedelta(minutes=10)


def message(game_id: str, seat: str, phase_title: str, deadline: datetime | None, tz: str,
            lang: str = i18n.SOURCE) -> str:
    """The one line a hook says (in its reader's language); nothing but the game, the seat, the phase's title and
    the deadline.  The JSON around it stays English: programs read it."""
    _ = i18n.gettext(lang)
    values = {"game": game_id, "seat": seat, "phase": phase_title}
    if deadline is None:
        return _("Your move in game %(game)s (%(seat)s): %(phase)s.") % values
    return _("Your move in game %(game)s (%(seat)s): %(phase)s, due %(when)s.") % {
        **values, "when": i18n.local_time(deadline, tz, lang)}


def body(fmt: str, text: str, game_id: str, seat: str, phase_title: str, deadline: datetime | None) -> dict[str, Any]:
    """The JSON document posted in the hook's format."""
    if fmt == "discord":
        return {"content": text}
    if fmt == "slack":
        return {"text": text}
    if fmt == "matrix":  # a room message event (hookshot's generic hooks read ``text``)
        return {"msgtype": "m.text", "body": text, "text": text}
    return {"text": text, "game": game_id, "seat": seat, "phase": phase_title,
            "deadline": deadline.isoformat() if deadline is not None else None}


def queue_move(s: Session, *, url: str, fmt: str, key: str, fingerprint: str, game_id: str, seat: str,
               phase_title: str, deadline: datetime | None, tz: str, now: datetime, lang: str = i18n.SOURCE) -> bool:
    """Queue one "your move" post unless the same ``key`` is queued already; True if queued here."""
    if s.exec(select(Webhook.id).where(Webhook.key == key)).first() is not None:
        return False
    text = message(game_id, seat, phase_title, deadline, tz, lang)
    doc = body(fmt, text, game_id, seat, phase_title, deadline)
    row = {"created_at": now, "key": key, "fingerprint": fingerprint, "game_id": game_id, "url": url,
           "format": fmt, "body": json.dumps(doc, ensure_ascii=False), "state": "queued", "attempts": 0,
           "not_before": now, "sent_at": None, "last_error": "", "shown": False}
    conn = s.connection()
    # once: another daemon's pass may queue the same post at the same moment (as insert_outbox_once)
    return conn.execute(_insert_once(conn.dialect.name), row).first() is not None


@lru_cache(maxsize=4)
def _insert_once(dialect: str) -> Insert:
    hooks = table(Webhook)
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as postgresql_insert

        return postgresql_insert(hooks).on_conflict_do_nothing(index_elements=["key"]).returning(hooks.c.id)
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    return sqlite_insert(hooks).on_conflict_do_nothing(index_elements=["key"]).returning(hooks.c.id)


def shown_url(url: str) -> str:
    """The URL as logs and mail show it: its scheme and host only (a hook's path often holds its token)."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.hostname or '?'}/…"


def unshown_failures(s: Session, fingerprint: str, lang: str = i18n.SOURCE) -> list[str]:
    """Lines telling the player of their hook's posts that failed for good since they were last told
    (marked told: each failure is shown once)."""
    if not fingerprint:
        return []
    rows = s.exec(select(Webhook).where(Webhook.fingerprint == fingerprint, Webhook.state == "failed",
                                        Webhook.shown == False).order_by(col(Webhook.id))).all()  # noqa: E712
    lines = []
    ngettext = i18n.ngettext(lang)
    for row in rows:
        # English says "tries" for one as well, as it always did (a mail filter may match it)
        lines.append(ngettext("Your web hook %(url)s failed for game %(game)s after %(num)d tries: %(error)s",
                              "Your web hook %(url)s failed for game %(game)s after %(num)d tries: %(error)s",
                              row.attempts) % {"url": shown_url(row.url), "game": row.game_id, "num": row.attempts,
                                               "error": row.last_error[:200]})
        row.shown = True
        s.add(row)
    return lines


@dataclass
class Poster:
    """Posts what is due; the daemon runs :meth:`run` each pass."""

    deps: Deps

    @property
    def settings(self) -> dict[str, Any]:
        return self.deps.home.section("notices")

    def run(self) -> tuple[int, int]:
        """Post every queued hook that is due; return (posted, failed for good)."""
        now = self.deps.clock()
        cfg = self.settings
        posted = failed = 0
        for row in self._claim(now):
            error = self.post(row, cfg)
            with self.deps.session() as s:
                live = s.get(Webhook, row.id)
                assert live is not None
                live.attempts += 1
                if not error:
                    live.state, live.sent_at, live.last_error, live.not_before = "sent", now, "", None
                    posted += 1
                elif live.attempts >= int(cfg["webhook_attempts"]):
                    live.state, live.last_error, live.not_before = "failed", error[:2000], None
                    failed += 1
                    log.warning("web hook %s for game %s failed for good: %s", shown_url(live.url), live.game_id,
                                error)
                else:
                    live.state, live.last_error = "queued", error[:2000]
                    live.not_before = now + timedelta(minutes=4 ** (live.attempts - 1))
                s.add(live)
                s.commit()
        return posted, failed

    def _claim(self, now: datetime) -> list[Webhook]:
        """Take the due rows, each by one conditional update (a second daemon takes none of them twice)."""
        with self.deps.session() as s:
            # a claim left by a daemon that died while posting
            s.connection().execute(update(Webhook).where(col(Webhook.state) == "sending",
                                                         col(Webhook.not_before) <= now - STALE)
                                   .values(state="queued"))
            due = s.exec(select(Webhook).where(Webhook.state == "queued", col(Webhook.not_before) <= now)
                         .order_by(col(Webhook.id)).limit(200)).all()
            taken = []
            for row in due:
                res = s.connection().execute(update(Webhook).where(col(Webhook.id) == row.id,
                                                                   col(Webhook.state) == "queued")
                                             .values(state="sending", not_before=now))
                if res.rowcount == 1:
                    taken.append(row)
            s.commit()
        return taken

    def post(self, row: Webhook, cfg: dict[str, Any]) -> str:
        """POST the row's body; "" on a 2xx answer, else what went wrong."""
        refused = refuse(row.url, bool(cfg["webhook_private"]))
        if refused:
            return refused
        req = urllib.request.Request(row.url, data=row.body.encode(), method="POST",
                                     headers={"Content-Type": "application/json", "User-Agent": "pbem"})
        try:
            with _OPENER.open(req, timeout=float(cfg["webhook_timeout"])) as resp:
                status = resp.status
        except urllib.error.HTTPError as exc:
            return f"HTTP {exc.code} {exc.reason}"
        except (urllib.error.URLError, OSError, ValueError) as exc:
            return f"{type(exc).__name__}: {getattr(exc, 'reason', exc)}"
        return "" if 200 <= status < 300 else f"HTTP {status}"


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None  # a redirect is answered as the error it is: a hook URL names where to post


_OPENER = urllib.request.build_opener(_NoRedirect)


def refuse(url: str, private_ok: bool) -> str:
    """Why the URL may not be posted to ("" if it may)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return f"not an http(s) URL: {url[:200]}"
    if private_ok:
        return ""
    try:
        infos = socket.getaddrinfo(parts.hostname, parts.port or (443 if parts.scheme == "https" else 80))
    except (socket.gaierror, UnicodeError) as exc:
        return f"cannot resolve {parts.hostname}: {exc}"
    for info in infos:
        addr = ipaddress.ip_address(str(info[4][0]).split("%")[0])
        if not addr.is_global:
            return f"{parts.hostname} is a local or private address ({addr}); the club does not post there"
    return ""


def due_at(row: Webhook) -> datetime | None:
    return aware(row.not_before) if row.not_before is not None else None
