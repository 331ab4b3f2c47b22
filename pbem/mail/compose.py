"""Composing what the server sends: text and HTML parts, an inline map, the order form, a signature.

Headers are those that keep mail out of spam folders and let players filter
and thread: Message-ID, Date, Reply-To the game address, a List-Id per game,
References to a per-game thread root, and Auto-Submitted so that vacation
responders do not answer.
"""
from __future__ import annotations

import hashlib
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime, formataddr

from pbem.core.orders import canonical
from pbem.crypto import sshsig

from .inbound import SERVER_HEADER


def message_id(*parts: object, domain: str = "pbem.invalid") -> str:
    """A Message-ID derived from what the message is, so a re-run makes the same one (and the outbox refuses a twin)."""
    digest = hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()[:32]
    return f"<{digest}@{domain}>"


def compose(*, server_name: str, server_address: str, to: str, subject: str, text: str, html: str,
            msg_id: str, now: datetime, game_id: str = "", kind: str = "", in_reply_to: str = "",
            png: bytes | None = None, form: str | None = None, key=None) -> EmailMessage:
    msg = EmailMessage()
    domain = server_address.split("@")[-1] or "pbem.invalid"
    msg["From"] = formataddr((server_name, server_address))
    msg["To"] = to
    msg["Reply-To"] = server_address
    msg["Subject"] = subject
    msg["Date"] = format_datetime(now)
    msg["Message-ID"] = msg_id
    msg["Auto-Submitted"] = "auto-replied" if in_reply_to else "auto-generated"
    msg[SERVER_HEADER] = server_name
    msg["X-PBEM-Kind"] = kind
    if game_id:
        msg["X-PBEM-Game"] = game_id
        msg["List-Id"] = f"pbem game {game_id} <{game_id}.{domain}>"
        root = f"<game-{game_id}@{domain}>"
        msg["References"] = f"{root} {in_reply_to}".strip() if in_reply_to else root
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
    msg.set_content(text, subtype="plain", charset="utf-8")
    msg.add_alternative(html, subtype="html", charset="utf-8")
    if png is not None:
        html_part = msg.get_payload()[1]
        html_part.add_related(png, maintype="image", subtype="png", cid="<map@pbem>", filename="map.png",
                              disposition="inline")
    if form is not None:
        msg.add_attachment(form.encode(), maintype="text", subtype="plain", filename="orders.txt")
    if key is not None:
        # The signature covers the canonical text part, so a player can prove what the server said.
        sig = sshsig.sign(key, canonical(text).encode(), sshsig.SERVER_NAMESPACE)
        msg.add_attachment(sig.encode(), maintype="application", subtype="octet-stream",
                           filename="pbem-server.sig")
    return msg
