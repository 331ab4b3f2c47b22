"""The whole path for hostile mail: intake, then delivery of everything intake queued, then what arrived.

A :class:`Rig` is a real server (a duel game with two registered players and a GM address) and three
real transports: the outbox Maildir, and SMTP to two aiosmtpd servers on 127.0.0.1, one with SMTPUTF8
and one without.  :meth:`Rig.run` takes one message through ``Server.ingest`` and ``deliver`` and
returns what is wrong, as :class:`Finding`\\ s (an empty list when nothing is):

* ``crash`` — ``ingest`` or ``deliver`` raised; ``hang`` — one of them took over ``HANG_S``;
* ``stuck`` — a row left queued or claimed after the pass, or failed although the transport could
  carry it; the harness then retires it, so that each input is judged on its own;
* ``unanswered`` — the message has a reply address (its From, read independently with the standard
  library's strict policy) and no reply reached that address;
* ``header`` — a delivered message whose header block is not clean: a line that is not a header, a
  header the server does not write or writes twice, a missing Message-ID, Auto-Submitted or
  X-PBEM-Server, a CR, LF or NUL in a decoded value;
* ``signed-line`` — a line of the server-signed text that starts with the sender's :data:`CANARY`;
* ``kept-whole`` — an oversize message stored whole.

Delivery is counted at the receiver: every row the pass marked sent arrived once, nothing else did.
"""
from __future__ import annotations

import email
import email.policy
import hashlib
import re
import signal
import socket
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from aiosmtpd.controller import Controller
from sqlmodel import select

from pbem.crypto import sshsig
from pbem.delivery import MaildirTransport, SmtpTransport, deliver
from pbem.home import Home
from pbem.server import Server
from pbem.store.models import Inbound, Outbox
from tests.conftest import Clock
from tests.fixtures.duel import RULESET as DUEL
from tests.trust.hostile import CANARY

#: One input through intake or delivery taking longer than this is a hang (quadratic parsing is).
HANG_S = 20.0
GM = "gm@club.test"
TRANSPORTS = ("maildir", "smtp", "smtputf8")

#: What the server writes on its mail, and nothing else may appear.
WRITTEN = {"from", "to", "reply-to", "subject", "date", "message-id", "auto-submitted", "x-pbem-server",
           "x-pbem-kind", "x-pbem-game", "list-id", "references", "in-reply-to", "content-type",
           "mime-version", "content-transfer-encoding"}
REQUIRED = ("Message-ID", "Auto-Submitted", "X-PBEM-Server")
_HEADER_LINE = re.compile(rb"^[!-9;-~]+:")
_ATOM = r"[^@\s\x00-\x1f\x7f\"<>,;]+"
# something a relay could route: a domain of dot-separated labels (letters of any script, digits, hyphens)
_ADDRESS = re.compile(rf"{_ATOM}@[\w-]+(?:\.[\w-]+)+")


class Hang(BaseException):
    """Raised by the alarm; a BaseException, so that intake's own ``except Exception`` cannot hide it."""


@contextmanager
def time_limit(seconds: float):
    """SIGALRM after ``seconds``: the regular-expression engine checks for signals, so a quadratic
    match is interrupted too.  Outside the main thread there is no limit."""
    def ring(signum, frame):
        raise Hang(f"over {seconds:g} s")

    try:
        old = signal.signal(signal.SIGALRM, ring)
    except ValueError:  # not the main thread
        yield
        return
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@dataclass(frozen=True)
class Finding:
    kind: str  # crash | hang | stuck | unanswered | header | signed-line | kept-whole
    input: str  # what was sent (a name, or the start of the bytes)
    via: str
    detail: str

    def __str__(self) -> str:
        return f"{self.kind} via {self.via}: {self.detail} [input: {self.input}]"


class Sink:
    """An SMTP server's handler that keeps every transaction: (recipients, bytes)."""

    def __init__(self):
        self.got: list[tuple[list[str], bytes]] = []

    async def handle_DATA(self, server, session, envelope):
        self.got.append((list(envelope.rcpt_tos), envelope.content))
        return "250 OK"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def describe(raw: bytes) -> str:
    head = raw[:160]
    return f"{len(raw):,} bytes {head!r}{'…' if len(raw) > 160 else ''}"


@dataclass
class Rig:
    """A server with a game, and the three transports with their receivers."""

    server: Server
    clock: Clock
    keys: dict
    sinks: dict[str, Sink] = field(default_factory=dict)
    controllers: list[Controller] = field(default_factory=list)
    transports: dict = field(default_factory=dict)
    games: int = 0
    runs: int = 0

    @classmethod
    def start(cls, tmp: Path, db_url: str | None = None, keys: dict | None = None) -> Rig:
        clock = Clock()
        home = Home(tmp / "home")
        server = Server.init(home, db_url or f"sqlite:///{tmp}/pbem.db", clock=clock, extra_rulesets=(DUEL,))
        server.home.config.setdefault("server", {})["gm"] = GM  # notices (bounces, intake errors) are mail too
        keys = keys or {s: sshsig.generate_private_key() for s in ("east", "west")}
        rig = cls(server, clock, keys)
        rig.transports["maildir"] = MaildirTransport(server.home.outbox)
        for name, utf8 in (("smtp", False), ("smtputf8", True)):
            sink = Sink()
            ctl = Controller(sink, hostname="127.0.0.1", port=_free_port(), enable_SMTPUTF8=utf8)
            ctl.start()
            rig.sinks[name], rig.controllers = sink, rig.controllers + [ctl]
            rig.transports[name] = SmtpTransport("127.0.0.1", ctl.port, starttls=False, sender=server.home.address,
                                                 timeout=10)
        rig.new_game("g1")
        rig.settle()
        return rig

    def close(self) -> None:
        for ctl in self.controllers:
            ctl.stop()
        self.server.engine.dispose()

    # ------------------------------------------------------------------ helpers
    def new_game(self, game_id: str) -> None:
        self.server.new_game(game_id, "duel", "standard", seed=game_id.encode().ljust(32, b"."))
        for seat in ("east", "west"):
            self.server.add_player(game_id, seat, f"{seat}@players.test",
                                   sshsig.public_key_of(self.keys[seat]).line())

    def fresh_game(self) -> str:
        self.games += 1
        game_id = f"p{self.games}"
        self.new_game(game_id)
        return game_id

    def settle(self) -> None:
        """Send what is queued through the Maildir and forget what arrived: a clean start."""
        deliver(self.server, self.transports["maildir"])
        self.retire_pending("settled")
        self.received("maildir")

    def max_outbox_id(self) -> int:
        with self.server.session() as s:
            ids = s.exec(select(Outbox.id).order_by(Outbox.id.desc()).limit(1)).all()
        return ids[0] if ids else 0

    def rows_after(self, outbox_id: int) -> list[Outbox]:
        with self.server.session() as s:
            return list(s.exec(select(Outbox).where(Outbox.id > outbox_id).order_by(Outbox.id)).all())

    def retire_pending(self, why: str) -> list[Outbox]:
        """Rows still queued or claimed: returned, and marked failed so the next input starts clean."""
        with self.server.session() as s:
            rows = list(s.exec(select(Outbox).where(Outbox.state.in_(("queued", "sending")))).all())
            for row in rows:
                s.expunge(row)
        if rows:
            with self.server.session() as s:
                for row in rows:
                    r = s.get(Outbox, row.id)
                    r.state, r.last_error = "failed", f"retired by the trust harness: {why}"
                    s.add(r)
                s.commit()
        return rows

    def received(self, via: str) -> list[tuple[list[str], bytes]]:
        """What arrived since the last call: (recipients, bytes)."""
        if via == "maildir":
            out = []
            for path in sorted((self.server.home.outbox / "new").iterdir()):
                raw = path.read_bytes()
                msg = email.message_from_bytes(raw, policy=email.policy.compat32)
                out.append(([str(msg.get("To", ""))], raw))
                path.unlink()
            return out
        got, self.sinks[via].got = self.sinks[via].got, []
        return got

    def unique(self, raw: bytes) -> bytes:
        """The message with a trace line on top, as a relay puts: never a duplicate of an earlier input."""
        self.runs += 1
        return f"Received: by trust-harness; run {self.runs}".encode() + (
            b"\r\n" if b"\r\n" in raw[:4096] else b"\n") + raw

    def stored(self, raw: bytes) -> bool:
        sha = hashlib.sha256(raw).hexdigest()
        with self.server.session() as s:
            return s.exec(select(Inbound.id).where(Inbound.sha256 == sha)).first() is not None

    def can_carry(self, via: str, addr: str) -> bool:
        """Whether ``via`` can take mail for ``addr`` (refusing what is no address at all is fine)."""
        if not _ADDRESS.fullmatch(addr.replace('"', "")):  # a quoted local part is routable
            return False
        return addr.isascii() or via != "smtp"

    # ------------------------------------------------------------------ one input
    def run(self, raw: bytes, via: str, name: str = "", unique: bool = False) -> list[Finding]:
        """Ingest ``raw``, deliver what is queued through ``via``; what went wrong.

        ``unique`` puts a trace line on top (as a relay would), so the same input can be sent again
        without being a duplicate; a duplicate is owed no reply.
        """
        what = name or describe(raw)
        found: list[Finding] = []
        if unique:
            raw = self.unique(raw)
        if self.stored(raw):
            return found

        def report(kind: str, detail: str) -> None:
            found.append(Finding(kind, what, via, detail))

        before = self.max_outbox_id()
        for step in ("ingest", "deliver"):
            started = time.monotonic()
            try:
                with time_limit(HANG_S):
                    if step == "ingest":
                        self.server.ingest(raw)
                    else:
                        deliver(self.server, self.transports[via])
            except Hang:
                report("hang", f"{step} took over {HANG_S:g} s (stopped after {time.monotonic() - started:.1f} s)")
            except Exception as exc:  # noqa: BLE001 - what the harness is for
                report("crash", f"{step} raised {exc.__class__.__name__}: {str(exc)[:300]}")
        ingested = not any(f.input == what and f.detail.startswith("ingest") for f in found)
        arrived = self.received(via)
        rows = self.rows_after(before)
        stuck = self.retire_pending(f"left by {what[:80]}")
        for row in stuck:
            report("stuck", f"{row.kind} to {row.to_addr!r} left {row.state} ({row.last_error[:200] or 'no error'})")
        for row in rows:
            if row.state == "failed" and self.can_carry(via, row.to_addr) and row.id not in {r.id for r in stuck}:
                report("stuck", f"{row.kind} to {row.to_addr!r} failed although {via} can carry it: "
                                f"{row.last_error[:200]}")
        sent = {row.message_id for row in rows if row.state == "sent"}
        found += [Finding(k, what, via, d) for k, d in check_arrivals(arrived, sent)]
        if ingested:
            found += [Finding(k, what, via, d) for k, d in self.check_answered(raw, via, rows, arrived)]
        return found

    def check_answered(self, raw: bytes, via: str, rows: list[Outbox], arrived) -> list[tuple[str, str]]:
        sha = hashlib.sha256(raw).hexdigest()
        with self.server.session() as s:
            inbound = s.exec(select(Inbound).where(Inbound.sha256 == sha)).first()
            status, stored = (inbound.status, len(inbound.raw or b"")) if inbound else ("", 0)
        out = []
        if not status:
            return [("unanswered", "no Inbound row was stored")]
        limit = self.server.home.max_message_bytes
        if len(raw) > limit and stored > limit:
            out.append(("kept-whole", f"a {len(raw):,}-byte message over the {limit:,}-byte limit "
                                      f"stored as {stored:,} bytes"))
        forms = reply_address(raw, self.server.home.address)
        if not forms or status in ("discarded", "duplicate", "confirmed"):
            return out
        expected = forms[0]
        replies = [r for r in rows if r.kind in ("ack", "reject") and _same(r.to_addr) in {_same(f) for f in forms}]
        if replies:
            expected = replies[0].to_addr
        if not replies:
            others = sorted({r.to_addr for r in rows if r.kind in ("ack", "reject")})
            out.append(("unanswered", f"{status}: no reply queued to {expected!r}"
                        + (f" (replies went to {others!r})" if others else "")))
        elif not self.can_carry(via, expected):
            if not any(r.state == "failed" and r.last_error for r in replies):
                out.append(("unanswered", f"a reply to {expected!r}, which {via} cannot carry, was not "
                                          "recorded as failed"))
        elif not any(r.state == "sent" for r in replies):
            out.append(("unanswered", f"the reply to {expected!r} was not sent: "
                                      f"{[(r.state, r.last_error[:100]) for r in replies]}"))
        return out


def reply_address(raw: bytes, server_address: str) -> list[str]:
    """The address a reply is owed to, read independently of the server: one well-formed From address
    (by the standard library's strict policy), on a message that is neither automatic nor the server's own.

    Empty when none is owed.  An encoded word inside the address itself (not allowed by RFC 2047, but
    decoded by the strict policy) leaves two readings, and a reply to either one counts.
    """
    from email.utils import parseaddr

    from pbem.mail.inbound import read_message

    head = raw[:200_000].split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0] + b"\n\n"
    if not re.search(rb"^From:", head, re.M | re.I):
        return []
    try:
        # headers in raw UTF-8 (RFC 6532) are read as UTF-8; other 8-bit bytes leave the address unusable
        msg = email.message_from_string(head.decode("utf-8", "surrogateescape"), policy=email.policy.default)
        froms = msg.get_all("From") or []
        if len(froms) != 1:
            return []
        addresses = froms[0].addresses
        literal = parseaddr(email.message_from_string(head.decode("utf-8", "surrogateescape"),
                                                      policy=email.policy.compat32).get("From", ""))[1]
        mail = read_message(head)
    except Exception:  # noqa: BLE001 - unreadable: no address to owe a reply to
        return []
    if len(addresses) != 1 or mail.automatic or mail.from_server:
        return []
    a = addresses[0]
    addr = a.addr_spec
    if (not a.username or not a.domain or "." not in a.domain or any(c in addr for c in "\r\n\x00 \"\\<>,")
            or not addr.isprintable() or any("\udc80" <= c <= "\udcff" for c in addr)
            or len(addr) > 254 or addr.lower() == server_address.lower()  # 254: the most SMTP carries
            or not _ADDRESS.fullmatch(addr.replace('"', ""))):  # no domain a relay could route: none owed
        return []
    if "=?" not in literal and _same(addr) != _same(literal.strip()):
        # the strict parser rebuilt an address the sender did not write (controls inside it read as folding
        # white space: "players.test<GS>1" becomes "players.test1"); a reply there would go to a stranger
        return []
    return [addr] + ([literal] if "=?" in literal and literal != addr else [])


def _same(addr: str) -> str:
    """An address as compared: case and the quotes of a quoted local part do not matter here."""
    return addr.lower().replace('"', "")


def check_arrivals(arrived, sent_ids: set[str]) -> list[tuple[str, str]]:
    """Every row marked sent arrived once, nothing else; each arrival is clean."""
    out = []
    seen: dict[str, int] = {}
    for _, raw in arrived:
        problems, mid = check_message(raw)
        out += [("header", p) for p in problems if not p.startswith("signed")]
        out += [("signed-line", p) for p in problems if p.startswith("signed")]
        seen[mid] = seen.get(mid, 0) + 1
    for mid in sent_ids - set(seen):
        out.append(("stuck", f"{mid} is marked sent but never arrived"))
    for mid, n in seen.items():
        if n > 1:
            out.append(("stuck", f"{mid} arrived {n} times"))
    return out


def check_message(raw: bytes) -> tuple[list[str], str]:
    """What is wrong with one delivered message's header block and signed text; and its Message-ID."""
    problems = []
    norm = raw.replace(b"\r\n", b"\n")
    end = norm.find(b"\n\n")
    block = norm[:end] if end >= 0 else norm
    if b"\r" in block or b"\x00" in block:
        problems.append("a bare CR or a NUL in the header block")
    names: list[str] = []
    for line in block.split(b"\n"):
        if line[:1] in (b" ", b"\t") and names:
            continue  # a folded continuation
        if not _HEADER_LINE.match(line):
            problems.append(f"a line in the header block is not a header: {line[:100]!r}")
            continue
        names.append(line.split(b":", 1)[0].decode("ascii").lower())
    for name in sorted(set(names)):
        if name not in WRITTEN:
            problems.append(f"a header the server does not write: {name}")
        elif names.count(name) > 1:
            problems.append(f"the header {name} appears {names.count(name)} times")
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    for name in REQUIRED:
        if name.lower() not in names:
            problems.append(f"no {name} header")
    for name in set(names) & WRITTEN:
        try:
            value = str(msg.get(name, ""))
        except Exception as exc:  # noqa: BLE001
            problems.append(f"the {name} header cannot be read back: {exc.__class__.__name__}")
            continue
        if any(c in value for c in "\r\n\x00"):
            problems.append(f"a CR, LF or NUL in the decoded {name}: {value[:100]!r}")
        if CANARY in value and name not in ("subject", "in-reply-to", "references", "to"):
            problems.append(f"the sender's text in the {name} header: {value[:100]!r}")
    mid = str(msg.get("Message-ID", ""))
    try:
        part = msg.get_body(("plain",))
        text = part.get_content() if part is not None else ""
    except Exception as exc:  # noqa: BLE001
        problems.append(f"the text part cannot be read back: {exc.__class__.__name__}: {exc}")
        text = ""
    for line in text.splitlines():
        if line.lstrip().startswith(CANARY):
            problems.append(f"signed text has a line the sender chose: {line[:100]!r}")
            break
    return problems, mid


# ------------------------------------------------------------------------------------------ honest traffic
def honest_then_hostile(rig: Rig, hostile: bytes, via: str) -> list[str]:
    """Honest traffic for two games around ONE hostile message, then one delivery pass: every honest
    message must arrive exactly once.  Returns what went wrong."""
    from tests.helpers import orders_mail

    rig.retire_pending("before an honest round")
    rig.received(via)
    start = rig.max_outbox_id()
    first = rig.fresh_game()  # its sitreps: queued
    rig.server.ingest(orders_mail(rig.server, first, "east", "FIRE 2\nMOVE 0\n", rig.keys["east"]))  # an ack
    before_hostile = rig.max_outbox_id()
    problems = []
    try:
        with time_limit(HANG_S):
            rig.server.ingest(rig.unique(hostile))  # unique: hypothesis may send it again to confirm
    except Hang:
        problems.append("ingesting the hostile message hung")
    except Exception as exc:  # noqa: BLE001
        problems.append(f"ingesting the hostile message raised {exc.__class__.__name__}: {exc}")
    after_hostile = rig.max_outbox_id()
    second = rig.fresh_game()
    rig.server.ingest(orders_mail(rig.server, second, "west", "FIRE 4\nMOVE 0\n", rig.keys["west"]))
    honest = {r.message_id: r for r in rig.rows_after(start) if not (before_hostile < r.id <= after_hostile)}
    try:
        with time_limit(HANG_S):
            deliver(rig.server, rig.transports[via])
    except Hang:
        problems.append("delivery hung")
    except Exception as exc:  # noqa: BLE001
        problems.append(f"delivery raised {exc.__class__.__name__}: {str(exc)[:200]}")
    counts: dict[str, int] = {}
    for _, raw in rig.received(via):
        mid = str(email.message_from_bytes(raw, policy=email.policy.compat32).get("Message-ID", "")).strip()
        counts[mid] = counts.get(mid, 0) + 1
    for mid, row in honest.items():
        if counts.get(mid, 0) != 1:
            problems.append(f"honest {row.kind} to {row.to_addr} arrived {counts.get(mid, 0)} times")
    rig.retire_pending("after an honest round")
    return problems
