"""Claim 3, no crash on garbage: hypothesis fuzzers for every parser that reads what a stranger sends.

Each ``fuzz_*`` function runs ``examples`` generated inputs and returns how many it tried; a crash
(an exception other than the parser's documented one) or a hang (one input over ``DEADLINE_MS``)
makes hypothesis raise with the shrunk input.  The targets:

* ``pbem.mail.inbound.read_message`` — raw bytes, and well-formed MIME with hostile parts;
* ``pbem.crypto.sshsig`` — ``parse_armored``/``verify`` on random and mutated armor, ``PublicKey.parse``;
* ``pbem.core.orders.parse_order_file`` — random text and near-valid files;
* every ruleset's ``check_orders`` — token soup from its own order form and bot orders, on real views;
* ``Server.ingest`` — anything: every input ends with a verdict and a stored Inbound row with a status.
"""
from __future__ import annotations

import base64
from email.message import EmailMessage

from hypothesis import HealthCheck, given, settings, strategies as st

from pbem.core.orders import COMMAND_MAGIC, MAGIC, parse_order_file
from pbem.crypto import sshsig
from pbem.mail.inbound import MailError, read_message

DEADLINE_MS = 2000  # one input taking longer than this counts as a hang

_KEY = sshsig.generate_private_key()
_TEXT = "PBEM-ORDERS 1\nGame: g1\nSide: east\nTurn: 1\nPhase: fire\n\nFIRE 2\n"
_SIG = sshsig.sign(_KEY, _TEXT.encode())
_BLOB = base64.b64decode("".join(_SIG.split("\n")[1:-2]))


def _settings(examples: int):
    return settings(max_examples=examples, deadline=DEADLINE_MS, database=None, derandomize=True,
                    suppress_health_check=list(HealthCheck))


text_any = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=300)
lines = st.lists(st.one_of(text_any.map(lambda t: t[:60]), st.sampled_from(
    [MAGIC, COMMAND_MAGIC, "Game: g1", "Side: east", "Turn: 1", "Turn: x", "Phase: fire", "", "# c",
     sshsig.BEGIN, sshsig.END, "Game:", "Side: east\r", "\ufeffPBEM-ORDERS 1", "FIRE 2", "MOVE +1"])),
    max_size=25).map("\n".join)


@st.composite
def mutated_blob(draw) -> bytes:
    blob = bytearray(_BLOB)
    for _ in range(draw(st.integers(1, 6))):
        op = draw(st.sampled_from(["flip", "cut", "insert", "len"]))
        i = draw(st.integers(0, max(0, len(blob) - 1)))
        if op == "flip" and blob:
            blob[i] ^= draw(st.integers(1, 255))
        elif op == "cut":
            del blob[i:i + draw(st.integers(1, 40))]
        elif op == "insert":
            blob[i:i] = draw(st.binary(max_size=20))
        elif op == "len" and len(blob) > i + 4:  # a length prefix claiming anything
            blob[i:i + 4] = draw(st.integers(0, 2 ** 32 - 1)).to_bytes(4, "big")
    return bytes(blob)


def armor(blob: bytes) -> str:
    b64 = base64.b64encode(blob).decode()
    return f"{sshsig.BEGIN}\n" + "\n".join(b64[i:i + 70] for i in range(0, len(b64), 70)) + f"\n{sshsig.END}\n"


signature_text = st.one_of(text_any, mutated_blob().map(armor), lines,
                           st.binary(max_size=200).map(armor),
                           text_any.map(lambda t: f"{sshsig.BEGIN}\n{t}\n{sshsig.END}\n"))


@st.composite
def hostile_mail(draw) -> bytes:
    """Well-formed MIME around hostile content: odd charsets, encodings, names, nesting, HTML only."""
    msg = EmailMessage()
    for name in draw(st.lists(st.sampled_from(["From", "Subject", "Message-ID", "Reply-To", "Auto-Submitted",
                                               "Precedence", "Return-Path", "X-PBEM-Server", "Content-Type"]),
                              max_size=6, unique=True)):
        value = draw(st.text(alphabet=st.characters(codec="ascii", exclude_categories=("Cc",)), max_size=60))
        try:
            msg[name] = value
        except Exception:  # the composing library refuses some values; then leave the header out
            pass
    body = draw(st.one_of(lines, text_any, st.just(_TEXT + _SIG)))
    charset = draw(st.sampled_from(["utf-8", "latin-1", "koi8-r", "utf-16", "x-unknown", "ascii"]))
    cte = draw(st.sampled_from(["7bit", "8bit", "quoted-printable", "base64"]))
    try:
        msg.set_content(body, subtype=draw(st.sampled_from(["plain", "html"])), charset=charset, cte=cte)
    except Exception:
        msg.set_content(body)
    for _ in range(draw(st.integers(0, 3))):
        payload = draw(st.binary(max_size=200))
        filename = draw(st.sampled_from(["orders.txt", "orders.txt.sig", "x.asc", "map.png", "", "a\u00e9.txt"]))
        try:
            msg.add_attachment(payload, maintype=draw(st.sampled_from(["text", "application", "image"])),
                               subtype=draw(st.sampled_from(["plain", "octet-stream", "pgp-signature", "png"])),
                               filename=filename or None)
        except Exception:
            pass
    for k, part in enumerate(msg.walk()):  # fixed boundaries: the generator would draw them at random
        if part.is_multipart():
            part.set_boundary(f"=_pbem_fuzz_{k}")
    raw = bytes(msg)
    if draw(st.booleans()):  # then damage the bytes themselves
        raw = bytearray(raw)
        for _ in range(draw(st.integers(1, 5))):
            i = draw(st.integers(0, len(raw) - 1))
            raw[i] = draw(st.integers(0, 255))
        raw = bytes(raw)
    return raw


raw_mail = st.one_of(st.binary(max_size=2000), hostile_mail(),
                     lines.map(lambda t: t.encode("utf-8", "surrogatepass")))


def fuzz_mail(examples: int) -> int:
    n = [0]

    @_settings(examples)
    @given(raw_mail)
    def one(raw):
        n[0] += 1
        try:
            got = read_message(raw)
        except MailError:
            return
        assert isinstance(got.found, list)

    one()
    return n[0]


def fuzz_signatures(examples: int) -> int:
    n = [0]

    @_settings(examples)
    @given(signature_text, st.binary(max_size=100))
    def one(text, message):
        n[0] += 1
        try:
            sshsig.verify(text, message)
        except sshsig.SignatureError:
            pass
        try:
            sshsig.PublicKey.parse(text)
        except ValueError:
            pass

    one()
    return n[0]


def fuzz_order_files(examples: int) -> int:
    n = [0]

    @_settings(examples)
    @given(st.one_of(lines, text_any))
    def one(text):
        n[0] += 1
        f, problems = parse_order_file(text)
        assert (f is None) == bool(problems)
        if f is not None:
            f.turn if f.kind == "orders" else None  # noqa: B018 - the header's Turn must be usable

    one()
    return n[0]


def fuzz_check_orders(name: str, examples: int, seeds: int = 2) -> int:
    """Token soup from the ruleset's own forms and bot orders, on views from its bot games."""
    from pbem.core.orders import OrderLine
    from tests.trust.leakcheck import playthrough, rulesets

    r = rulesets()[name]
    n = [0]
    vocab: set[str] = {"ALL", "0", "-1", "99", "+S", "+A", "TARGET", "WITH", "FROM", "APPLY"}
    for seed in range(seeds):
        _, states = playthrough(name, seed, 0)
        for state, entry in states[:: max(1, len(states) // 8)]:
            for seat in (s.name for s in r.seats(state)):
                vocab.update(r.order_form(r.view(state, seat), seat).replace("#", " ").split())
            if entry:
                for body in entry["payload"]["orders"].values():
                    vocab.update(body.split())
    words = sorted(w for w in vocab if len(w) < 30)
    line = st.one_of(st.lists(st.sampled_from(words), min_size=1, max_size=8).map(" ".join),
                     text_any.map(lambda t: t[:80]))

    @_settings(examples)
    @given(seed=st.integers(0, seeds - 1), step=st.integers(0, 400), seat_index=st.integers(0, 7),
           body=st.lists(line, max_size=12))
    def one(seed, step, seat_index, body):
        n[0] += 1
        _, states = playthrough(name, seed, 0)
        state, _ = states[step % len(states)]
        seats = [s.name for s in r.seats(state)]
        seat = seats[seat_index % len(seats)]
        order_lines = [OrderLine(7 + i, t.strip()) for i, t in enumerate(body) if t.strip() and "\n" not in t]
        checked = r.check_orders(r.view(state, seat), seat, order_lines)
        assert isinstance(checked.problems, tuple) or isinstance(checked.problems, list)
        for p in checked.problems:
            str(p)  # every problem can be put in a reply

    one()
    return n[0]


def fuzz_ingest(server, examples: int, valid_mail=None) -> tuple[int, list[str]]:
    """Anything through Server.ingest: every input gets a verdict and a stored, decided Inbound row."""
    import hashlib

    from sqlmodel import select

    from pbem.store.models import Inbound

    n = [0]
    unanswered: list[str] = []
    mutants = [st.just(valid_mail)] if valid_mail else []

    @st.composite
    def mutated(draw):
        raw = bytearray(draw(st.sampled_from([valid_mail]))) if valid_mail else bytearray(b"From: a@b\n\nx")
        for _ in range(draw(st.integers(1, 4))):
            i = draw(st.integers(0, len(raw) - 1))
            raw[i] = draw(st.integers(0, 255))
        return bytes(raw)

    @_settings(examples)
    @given(st.one_of(raw_mail, *([mutated()] if valid_mail else [])))
    def one(raw):
        n[0] += 1
        v = server.ingest(raw)
        assert v.status in ("accepted", "rejected", "discarded", "duplicate"), v.line()
        with server.session() as s:
            row = s.exec(select(Inbound).where(Inbound.sha256 == hashlib.sha256(raw).hexdigest())).first()
        if row is None or row.status not in ("accepted", "rejected", "discarded"):
            unanswered.append(f"{v.line()}: stored as {row.status if row else 'nothing'}")

    del mutants
    one()
    return n[0], unanswered


def fuzz_whole_path(rig, examples: int) -> tuple[int, list]:
    """Hostile mail through intake AND delivery (Maildir, SMTP, SMTP with SMTPUTF8): every finding.

    Findings are collected rather than raised, so that one run lists every kind of defect it met and
    no time goes to shrinking inputs that take seconds each (``wholepath.Finding``).
    """
    from tests.trust.hostile import hostile_message
    from tests.trust.wholepath import TRANSPORTS

    n = [0]
    findings: list = []
    limit = rig.server.home.max_message_bytes
    hostile = hostile_message(limit)

    @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(st.one_of(hostile, hostile, hostile, raw_mail), st.sampled_from(TRANSPORTS))  # mostly whole messages
    def one(raw, via):
        n[0] += 1
        findings.extend(rig.run(raw, via))

    one()
    return n[0], findings
