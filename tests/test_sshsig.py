"""Signatures interoperate with real OpenSSH both ways, and every kind of bad signature is named."""
import subprocess

import pytest

from pbem.crypto import sshsig

MSG = b"PBEM-ORDERS 1\nGame: g1\nSide: east\nTurn: 1\nPhase: fire\n\nFIRE 3\n"


@pytest.fixture
def keyfiles(tmp_path):
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "player", "-f", str(tmp_path / "k")],
                   check=True)
    return tmp_path / "k"


def test_openssh_signature_verifies(keyfiles, tmp_path):
    """A file signed by `ssh-keygen -Y sign -n pbem` verifies with the key's public line."""
    (tmp_path / "o.txt").write_bytes(MSG)
    subprocess.run(["ssh-keygen", "-Y", "sign", "-n", "pbem", "-f", str(keyfiles), str(tmp_path / "o.txt")],
                   check=True, capture_output=True)
    key = sshsig.verify((tmp_path / "o.txt.sig").read_text(), MSG)
    assert key == sshsig.PublicKey.parse((tmp_path / "k.pub").read_text()).__class__(key.raw)
    assert key.fingerprint == sshsig.PublicKey.parse((tmp_path / "k.pub").read_text()).fingerprint


def test_pbem_signature_verifies_with_openssh(tmp_path):
    """What pbem signs, `ssh-keygen -Y verify` accepts: one format for both."""
    key = sshsig.generate_private_key()
    (tmp_path / "o.sig").write_text(sshsig.sign(key, MSG))
    (tmp_path / "allowed").write_text("p@x " + sshsig.public_key_of(key).line() + "\n")
    out = subprocess.run(["ssh-keygen", "-Y", "verify", "-f", str(tmp_path / "allowed"), "-I", "p@x",
                          "-n", "pbem", "-s", str(tmp_path / "o.sig")], input=MSG, capture_output=True)
    assert out.returncode == 0, out.stderr


def test_openssh_reads_pbem_private_key(tmp_path):
    """A key from `pbem keygen` works with ssh-keygen, so players can use either tool."""
    key = sshsig.generate_private_key()
    (tmp_path / "k").write_bytes(sshsig.private_key_pem(key))
    (tmp_path / "k").chmod(0o600)
    (tmp_path / "m").write_bytes(MSG)
    subprocess.run(["ssh-keygen", "-Y", "sign", "-n", "pbem", "-f", str(tmp_path / "k"), str(tmp_path / "m")],
                   check=True, capture_output=True)
    assert sshsig.verify((tmp_path / "m.sig").read_text(), MSG).raw == sshsig.public_key_of(key).raw


def test_tampered_text_is_bad():
    key = sshsig.generate_private_key()
    sig = sshsig.sign(key, MSG)
    with pytest.raises(sshsig.SignatureError) as err:
        sshsig.verify(sig, MSG.replace(b"FIRE 3", b"FIRE 4"))
    assert err.value.code == "signature/bad"


def test_wrong_namespace_is_named():
    key = sshsig.generate_private_key()
    with pytest.raises(sshsig.SignatureError) as err:
        sshsig.verify(sshsig.sign(key, MSG, "file"), MSG)
    assert err.value.code == "signature/namespace" and "-n pbem" in err.value.message


@pytest.mark.parametrize("armored, code", [
    ("no signature here", "signature/missing"),
    (f"{sshsig.BEGIN}\n!!!!\n{sshsig.END}\n", "signature/malformed"),
    (f"{sshsig.BEGIN}\nU1NIU0lH\n{sshsig.END}\n", "signature/malformed"),  # "SSHSIG" then nothing
    (f"{sshsig.BEGIN}\nQUJDREVG\n{sshsig.END}\n", "signature/malformed"),  # wrong magic
])
def test_malformed_signatures(armored, code):
    with pytest.raises(sshsig.SignatureError) as err:
        sshsig.verify(armored, MSG)
    assert err.value.code == code


def test_flipping_any_byte_of_the_signature_fails_cleanly():
    """Every single-byte change of the armored block is rejected with a SignatureError, never a crash."""
    key = sshsig.generate_private_key()
    sig = sshsig.sign(key, MSG)
    body = sig.split("\n")[1:-2]
    flat = "".join(body)
    for i in range(0, len(flat), 3):
        flipped = flat[:i] + ("A" if flat[i] != "A" else "B") + flat[i + 1:]
        with pytest.raises(sshsig.SignatureError):
            sshsig.verify(f"{sshsig.BEGIN}\n{flipped}\n{sshsig.END}\n", MSG)


@pytest.mark.parametrize("line, fragment", [
    ("ssh-rsa AAAAB3NzaC1yc2E= x", "Ed25519"),
    ("ssh-ed25519 ***", "base64"),
    ("garbage", "looks like"),
])
def test_public_key_errors_say_what_is_wrong(line, fragment):
    with pytest.raises(ValueError, match=fragment):
        sshsig.PublicKey.parse(line)


def test_a_passphrase_protected_openssh_key_opens_with_its_passphrase(tmp_path):
    """Most players' keys: OpenSSH format, bcrypt KDF (`ssh-keygen -N`)."""
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "secret", "-f", str(tmp_path / "k")], check=True)
    data = (tmp_path / "k").read_bytes()
    with pytest.raises(sshsig.PassphraseNeeded, match="is protected by a passphrase"):
        sshsig.load_private_key(data, name="k")
    with pytest.raises(sshsig.PassphraseNeeded, match="wrong passphrase for k"):
        sshsig.load_private_key(data, b"guess", name="k")
    key = sshsig.load_private_key(data, b"secret")
    assert sshsig.public_key_of(key).raw == sshsig.PublicKey.parse((tmp_path / "k.pub").read_text()).raw


def test_a_passphrase_given_for_a_plain_key_is_ignored(keyfiles):
    assert sshsig.load_private_key(keyfiles.read_bytes(), b"unneeded") is not None


@pytest.mark.parametrize("content, expected", [
    (None, "k.pub is a public key; sign with the private key file"),
    (b"PBEM-ORDERS 1\nGame: g1\n", "k.pub is not a private key"),
    (b"-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n", "k.pub is damaged"),
])
def test_what_is_not_a_private_key_is_named(keyfiles, content, expected):
    data = content if content is not None else keyfiles.with_suffix(".pub").read_bytes()
    with pytest.raises(sshsig.KeyFileError) as err:
        sshsig.load_private_key(data, name="k.pub")
    assert expected in str(err.value) and not isinstance(err.value, sshsig.PassphraseNeeded)
