"""Checking the server's signature on a message it sent (``pbem verify``).

Every reply and sitrep carries ``pbem-server.sig``: an SSHSIG signature, namespace
``pbem-server``, over the canonical form of the message's plain-text part (see
:func:`pbem.mail.compose.compose`).  A player who saved the mail can check it here without
canonicalising anything by hand.
"""
from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage

from pbem.core.orders import canonical
from pbem.crypto import sshsig

SIGNATURE_FILE = "pbem-server.sig"


class UnsignedMessage(ValueError):
    """The message is not one the server signed: no signature, or no text part to check it against."""


def signed_parts(raw: bytes) -> tuple[str, str]:
    """The plain-text part (decoded) and the armored signature of a message as mailed."""
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    sig = next((p for p in msg.walk() if p.get_filename() == SIGNATURE_FILE), None)
    if sig is None:
        raise UnsignedMessage(f"the message has no {SIGNATURE_FILE} attachment; it is not a signed pbem reply or "
                              "sitrep (or a mail program dropped the attachment)")
    body = msg.get_body(("plain",))
    if body is None:
        raise UnsignedMessage("the message has no plain-text part to check the signature against")
    content = sig.get_content()
    armored = content.decode("ascii", "replace") if isinstance(content, bytes) else content
    return body.get_content(), armored


def verify_message(raw: bytes) -> sshsig.PublicKey:
    """Check the server's signature on a message; return the key that made it.

    The caller compares the key with the server key it expects.

    :raises UnsignedMessage: no signature or no text part.
    :raises sshsig.SignatureError: a malformed signature, another namespace, or a text changed after signing.
    """
    text, armored = signed_parts(raw)
    try:
        return sshsig.verify(armored, canonical(text).encode(), sshsig.SERVER_NAMESPACE)
    except sshsig.SignatureError as exc:
        if exc.code == "signature/bad":
            raise sshsig.SignatureError(exc.code, "the signature does not match the text: the message was "
                                        "changed after the server signed it") from None
        raise
