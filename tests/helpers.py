"""Building order mail the way players' clients do."""
from __future__ import annotations

from email.message import EmailMessage

from pbem.core.orders import parse_order_file
from pbem.crypto import sshsig

_n = [0]


def order_text(server, game: str, seat: str, body: str) -> str:
    head = server.order_form(game, seat).split("\n\n", 1)[0]
    f, problems = parse_order_file(f"{head}\n\n{body}")
    assert f is not None, problems
    return f.text


def signed(text: str, key) -> str:
    return text + sshsig.sign(key, text.encode())


def mail(body: str, *, sender="east@players.test", subject="orders", headers=None, msg_id=None) -> bytes:
    _n[0] += 1
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "pbem@localhost"
    msg["Subject"] = subject
    msg["Message-ID"] = msg_id or f"<t{_n[0]}@players.test>"
    for k, v in (headers or {}).items():
        msg[k] = v
    msg.set_content(body)
    return bytes(msg)


def orders_mail(server, game, seat, body, key, **kw) -> bytes:
    return mail(signed(order_text(server, game, seat, body), key), sender=f"{seat}@players.test", **kw)
