"""OpenSSH signatures (the SSHSIG format of ``ssh-keygen -Y sign``) with Ed25519 keys.

``pbem sign`` writes exactly what ``ssh-keygen -Y sign -n pbem`` writes, so one
verifier serves both and a player with an SSH key needs nothing installed.
Format: https://github.com/openssh/openssh-portable/blob/master/PROTOCOL.sshsig

The signed message binds a *namespace*: orders are signed in ``pbem``,
the server's replies in ``pbem-server``, so neither can stand for the other.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import re
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

ORDERS_NAMESPACE = "pbem"
SERVER_NAMESPACE = "pbem-server"
BEGIN = "-----BEGIN SSH SIGNATURE-----"
END = "-----END SSH SIGNATURE-----"
ARMOR_RE = re.compile(re.escape(BEGIN) + r"(.*?)" + re.escape(END), re.S)
_MAGIC = b"SSHSIG"
_KEYTYPE = b"ssh-ed25519"


class SignatureError(ValueError):
    """A signature is missing, malformed, made with another key or over other bytes.

    ``code`` is one of the ``signature/...`` problem codes.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _string(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data, self.pos = data, 0

    def take(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            raise SignatureError("signature/malformed", "the signature is truncated")
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def uint32(self) -> int:
        return int.from_bytes(self.take(4), "big")

    def string(self) -> bytes:
        return self.take(self.uint32())


@dataclass(frozen=True)
class PublicKey:
    """An Ed25519 public key as OpenSSH writes it (``ssh-ed25519 AAAA... comment``)."""

    raw: bytes  # the 32 key bytes
    comment: str = ""

    @property
    def blob(self) -> bytes:
        return _string(_KEYTYPE) + _string(self.raw)

    @property
    def fingerprint(self) -> str:
        """``SHA256:...`` as ``ssh-keygen -l`` prints it."""
        digest = base64.b64encode(hashlib.sha256(self.blob).digest()).decode().rstrip("=")
        return f"SHA256:{digest}"

    def line(self) -> str:
        text = f"ssh-ed25519 {base64.b64encode(self.blob).decode()}"
        return f"{text} {self.comment}" if self.comment else text

    @classmethod
    def parse(cls, text: str) -> "PublicKey":
        """Parse one public-key line.

        :raises ValueError: not an ``ssh-ed25519`` key line, with what was found instead.
        """
        parts = text.strip().split(None, 2)
        if len(parts) < 2:
            raise ValueError("a public key line looks like 'ssh-ed25519 AAAA... comment'")
        if parts[0] != "ssh-ed25519":
            raise ValueError(f"key type {parts[0]!r} is not supported; use an Ed25519 key "
                             "(ssh-keygen -t ed25519, or pbem keygen)")
        try:
            blob = base64.b64decode(parts[1], validate=True)
        except binascii.Error as exc:
            raise ValueError(f"the key is not valid base64: {exc}") from None
        return cls.from_blob(blob, parts[2] if len(parts) > 2 else "")

    @classmethod
    def from_blob(cls, blob: bytes, comment: str = "") -> "PublicKey":
        r = _Reader(blob)
        try:
            kind, raw = r.string(), r.string()
        except SignatureError:
            raise ValueError("the key blob is truncated") from None
        if kind != _KEYTYPE or len(raw) != 32:
            raise ValueError(f"not an Ed25519 key blob (type {kind[:40]!r})")
        return cls(raw, comment)

    def crypto(self) -> Ed25519PublicKey:
        return Ed25519PublicKey.from_public_bytes(self.raw)


def generate_private_key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


def private_key_pem(key: Ed25519PrivateKey) -> bytes:
    """The key in OpenSSH's own private-key format, usable by ``ssh-keygen -Y sign``."""
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.OpenSSH,
                             serialization.NoEncryption())


class KeyFileError(ValueError):
    """A file given as a private key cannot be used to sign; the message says why, in one line."""


class PassphraseNeeded(KeyFileError):
    """The private key is protected by a passphrase and none (or a wrong one) was given."""


PUBLIC_KEY_HINT = "sign with the private key file, or use `ssh-keygen -Y sign -n pbem -f KEY FILE`"


def load_private_key(data: bytes, passphrase: bytes | None = None, *, name: str = "the key file"
                     ) -> Ed25519PrivateKey:
    """Load an OpenSSH (or PKCS#8 PEM) Ed25519 private key, decrypting it with ``passphrase`` if it is protected.

    :raises PassphraseNeeded: the key is protected and ``passphrase`` is missing or wrong.
    :raises KeyFileError: a public key, not a key at all, or not Ed25519; the message names ``name``.
    """
    if data.lstrip().startswith((b"ssh-", b"ecdsa-", b"sk-")):  # the .pub file sits right beside the key
        raise KeyFileError(f"{name} is a public key; {PUBLIC_KEY_HINT}")
    try:
        key = _load(data, passphrase, name)
    except TypeError as exc:  # cryptography says "password-protected" or "not encrypted" this way
        if "not encrypted" in str(exc):
            key = _load(data, None, name)
        else:
            raise PassphraseNeeded(f"{name} is protected by a passphrase") from None
    except UnsupportedAlgorithm as exc:
        raise KeyFileError(f"{name} cannot be read here: {exc}") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyFileError(f"{name} is not an Ed25519 key; only Ed25519 keys are supported "
                           "(ssh-keygen -t ed25519, or pbem keygen)")
    return key


def _load(data: bytes, passphrase: bytes | None, name: str):
    try:
        return serialization.load_ssh_private_key(data, password=passphrase)
    except ValueError as exc:
        if "checksum" in str(exc):  # OpenSSH's format checks a decrypted word pair: a wrong passphrase
            raise PassphraseNeeded(f"wrong passphrase for {name}") from None
        if b"-----BEGIN OPENSSH PRIVATE KEY-----" in data:
            raise KeyFileError(f"{name} is damaged ({exc})") from None
    try:
        return serialization.load_pem_private_key(data, password=passphrase)
    except ValueError:
        if b"ENCRYPTED" in data and passphrase is not None:
            raise PassphraseNeeded(f"wrong passphrase for {name}") from None
        raise KeyFileError(f"{name} is not a private key: expected an OpenSSH private key file "
                           "(-----BEGIN OPENSSH PRIVATE KEY-----)") from None


def public_key_of(key: Ed25519PrivateKey, comment: str = "") -> PublicKey:
    raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return PublicKey(raw, comment)


def _signed_data(message: bytes, namespace: str) -> bytes:
    return (_MAGIC + _string(namespace.encode()) + _string(b"") + _string(b"sha512")
            + _string(hashlib.sha512(message).digest()))


def sign(key: Ed25519PrivateKey, message: bytes, namespace: str = ORDERS_NAMESPACE) -> str:
    """Return an armored SSHSIG signature of ``message``, as ``ssh-keygen -Y sign`` would."""
    pub = public_key_of(key)
    sig = key.sign(_signed_data(message, namespace))
    blob = (_MAGIC + (1).to_bytes(4, "big") + _string(pub.blob) + _string(namespace.encode())
            + _string(b"") + _string(b"sha512") + _string(_string(_KEYTYPE) + _string(sig)))
    b64 = base64.b64encode(blob).decode()
    body = "\n".join(b64[i:i + 70] for i in range(0, len(b64), 70))
    return f"{BEGIN}\n{body}\n{END}\n"


@dataclass(frozen=True)
class ParsedSignature:
    key: PublicKey
    namespace: str
    hash_algorithm: str
    signature: bytes


def parse_armored(text: str) -> ParsedSignature:
    """Decode an armored SSHSIG block.

    :raises SignatureError: no block, bad base64, wrong magic or version, or a non-Ed25519 key.
    """
    m = ARMOR_RE.search(text)
    if not m:
        raise SignatureError("signature/missing", f"no '{BEGIN}' block found")
    try:
        blob = base64.b64decode("".join(m.group(1).split()), validate=True)
    except (binascii.Error, ValueError) as exc:  # ValueError: non-ASCII characters in the block
        raise SignatureError("signature/malformed", f"the signature block is not valid base64 ({exc})") from None
    r = _Reader(blob)
    if r.take(6) != _MAGIC:
        raise SignatureError("signature/malformed", "the signature block does not start with SSHSIG")
    version = r.uint32()
    if version != 1:
        raise SignatureError("signature/malformed", f"SSHSIG version {version} is not supported (expected 1)")
    try:
        key = PublicKey.from_blob(r.string())
    except ValueError as exc:
        raise SignatureError("signature/malformed", f"the signing key is not usable: {exc}") from None
    namespace = r.string().decode("utf-8", "replace")
    r.string()  # reserved
    hash_alg = r.string().decode("ascii", "replace")
    sig_blob = _Reader(r.string())
    kind, sig = sig_blob.string(), sig_blob.string()
    if kind != _KEYTYPE or len(sig) != 64:
        raise SignatureError("signature/malformed", f"signature type {kind[:40]!r} is not ssh-ed25519")
    if hash_alg not in ("sha512", "sha256"):
        raise SignatureError("signature/malformed", f"hash algorithm {hash_alg!r} is not sha256 or sha512")
    return ParsedSignature(key, namespace, hash_alg, sig)


def verify(armored: str, message: bytes, namespace: str = ORDERS_NAMESPACE) -> PublicKey:
    """Check an armored signature over ``message``; return the key that made it.

    The caller decides whether that key is allowed to sign for the claimed seat.

    :raises SignatureError: as :func:`parse_armored`, or wrong namespace, or the
        signature does not match the message.
    """
    parsed = parse_armored(armored)
    if parsed.namespace != namespace:
        raise SignatureError("signature/namespace",
                             f"the signature was made for namespace {parsed.namespace!r}; "
                             f"sign with -n {namespace}")
    digest = hashlib.new(parsed.hash_algorithm, message).digest()
    data = _MAGIC + _string(namespace.encode()) + _string(b"") + _string(parsed.hash_algorithm.encode()) \
        + _string(digest)
    try:
        parsed.key.crypto().verify(parsed.signature, data)
    except InvalidSignature:
        raise SignatureError("signature/bad", "the signature does not match the text: the orders were "
                             "changed after signing, or a different file was signed") from None
    return parsed.key
