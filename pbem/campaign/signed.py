"""Signed administrative orders: the text and its SSHSIG signature, checked against the seat's player key."""
from __future__ import annotations

from pbem.core.orders import canonical
from pbem.crypto import sshsig


def split_signed(text: str) -> tuple[str, str]:
    at = text.find(sshsig.BEGIN)
    return (text, "") if at < 0 else (text[:at], text[at:])


def signature_problem(sig: str, text: str, fingerprint: str) -> str:
    if not sig:
        return "the orders are not signed (sign them with `pbem sign` and put the signature after them)"
    try:
        key = sshsig.verify(sig, canonical(text).encode())
    except sshsig.SignatureError as exc:
        return str(exc)
    if key.fingerprint != fingerprint:
        return f"signed by {key.fingerprint}, not by this seat's player"
    return ""
