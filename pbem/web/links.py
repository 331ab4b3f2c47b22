"""Capability links and the cookies they are exchanged for, HMAC'd with the home's web secret.

A link names a game, a seat and an expiry, and carries a MAC over them made with ``web_secret``, a
file in the home that only the server reads.  Whoever holds the link may read that seat's pages until
it expires; `pbem web rotate` writes a new secret, and every link and cookie made with the old one
stops working at once.  Nothing is stored per link: the MAC is the whole check.

The same MAC, under another purpose, makes the seat's cookie and the GM's login challenge and
session, so that a value made for one use is never accepted for another.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

SECRET_FILE = "web_secret"
#: the purposes a MAC is made for; one purpose's value is refused for any other
LINK, SEAT_COOKIE, CHALLENGE, GM_COOKIE = "link", "seat-cookie", "gm-challenge", "gm-cookie"


class BadToken(ValueError):
    """A link, cookie or challenge that is malformed, forged, made with a rotated secret, or expired."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def load_secret(home: Path) -> bytes:
    """The home's web secret, made on first use (readable by the owner only).

    The daemon and `pbem web` may both be first: the file is made whole under a temporary name and
    linked into place only if it is still missing, so both end up with the same secret.
    """
    path = home / SECRET_FILE
    if not path.exists():
        tmp = _write_new(home)
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
        finally:
            tmp.unlink()
    return bytes.fromhex(path.read_text().strip())


def rotate_secret(home: Path) -> None:
    """Write a new secret: every link and cookie made with the old one stops working."""
    os.replace(_write_new(home), home / SECRET_FILE)


def _write_new(home: Path) -> Path:
    tmp = home / f".{SECRET_FILE}.{secrets.token_hex(6)}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(secrets.token_hex(32) + "\n")
    return tmp


@dataclass(frozen=True)
class Signer:
    """Makes and checks MAC'd values for one secret."""

    secret: bytes

    def _mac(self, purpose: str, body: bytes) -> bytes:
        return hmac.new(self.secret, purpose.encode() + b"\0" + body, hashlib.sha256).digest()[:18]

    def make(self, purpose: str, fields: dict[str, Any], expires: datetime) -> str:
        body = json.dumps({**fields, "exp": int(expires.timestamp())}, sort_keys=True,
                          separators=(",", ":")).encode()
        return f"{_b64(body)}.{_b64(self._mac(purpose, body))}"

    def check(self, purpose: str, token: str, now: datetime) -> dict[str, Any]:
        """The fields of a value made for ``purpose`` that has not expired; else :class:`BadToken`."""
        try:
            body_text, mac_text = token.split(".")
            body, mac = _unb64(body_text), _unb64(mac_text)
        except (ValueError, TypeError):
            raise BadToken("malformed") from None
        if not hmac.compare_digest(mac, self._mac(purpose, body)):
            raise BadToken("not made by this server, or its secret was rotated")
        fields = json.loads(body)
        if not isinstance(fields, dict) or not isinstance(fields.get("exp"), int):
            raise BadToken("malformed")
        if fields["exp"] <= now.timestamp():
            raise BadToken("expired")
        return fields

    def link_token(self, game: str, seat: str, fingerprint: str, now: datetime, days: float) -> str:
        return self.make(LINK, {"g": game, "s": seat, "k": player_tag(fingerprint)}, now + timedelta(days=days))


def player_tag(fingerprint: str) -> str:
    """A short tag of the seat's key: a link made for one player stops working when the GM gives the seat to
    another (``gm replace`` with a new key)."""
    return hashlib.sha256(fingerprint.encode()).hexdigest()[:12]


def seat_link(base_url: str, signer: Signer, game: str, seat: str, fingerprint: str, now: datetime,
              days: float) -> str:
    """The URL a sitrep carries for one seat and its player."""
    return f"{base_url.rstrip('/')}/l/{signer.link_token(game, seat, fingerprint, now, days)}"
