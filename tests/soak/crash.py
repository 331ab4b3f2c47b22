"""Claim 4, no loss on crash: kill -9 the daemon at random points over a scripted run of several games.

    python -m tests.soak.crash [--games 6] [--kills 200] [--seed 1] [--quick]

Set-up: a pbem home (SQLite, or ``--db-url``) whose config.toml has an ``[smtp]`` section pointing
at an aiosmtpd server in this process, which keeps every message it receives.  Duel games are
created with two players each.  The players are mail-driven: when a sitrep carrying an order
form reaches the SMTP server, its player signs the form (with a random FIRE post) and drops the
message into the home's inbox Maildir, once per game, side, turn and phase.

The daemon (``tests/soak/daemon.py``: ``pbem.daemon.tick`` in a loop) runs as a subprocess and is
killed with SIGKILL after a random delay (0 - ``max_delay`` s after it is ready), then restarted
with its clock moved past the outbox lease, as a real restart after a crash would see it; over
and over, until every game is over.  A last clean run drains what is left.

Then, from the database and the receiver:

* orders lost: an order message never stored, or an accepted one whose text is not the one the
  journal resolved its phase with;
* phases resolved twice (a phase key twice in a game's journal) and games not finished;
* sitreps lost (a Sitrep row whose Message-ID never arrived) and duplicates (a Message-ID that
  arrived more than once, any kind of mail), each duplicate with its outbox row's attempts;
* ``pbem replay`` (pbem.replay.replay, what the command runs) for every game.
"""
from __future__ import annotations

import argparse
import contextlib
import email
import email.policy
import hashlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
QUICK = {"games": 2, "kills": 6}


class Sink:
    """The receiving SMTP server's handler: keeps every message, in order, and, like a mail server,
    delivers what is addressed to a local mailbox (the pbem server's own address) into it before
    it answers 250."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.messages: list[tuple[str, str, str, bytes]] = []  # (message-id, kind, to, raw)
        self.mailboxes: dict[str, list[Path]] = {}  # address -> Maildirs (several daemons read one address)
        self.copies = 0

    async def handle_DATA(self, server, session, envelope):
        msg = email.message_from_bytes(envelope.content, policy=email.policy.default)
        local = [box for rcpt in envelope.rcpt_tos for box in self.mailboxes.get(rcpt.lower(), ())]
        with self.lock:
            self.messages.append((str(msg["Message-ID"]), str(msg["X-PBEM-Kind"] or ""),
                                  ",".join(r for r in envelope.rcpt_tos if r.lower() not in self.mailboxes),
                                  envelope.content))
            self.copies += bool(local)
            n = len(self.messages)
        for box in local:
            # what a delivery agent puts on top; the rest is the bytes as they came
            raw = (f"Return-Path: <{envelope.mail_from}>\r\nDelivered-To: {box.name}\r\n"
                   f"Received: from soak by sink; {n}\r\n").encode() + envelope.content
            name = f"{time.time_ns()}.{n}.sink"
            (box / "tmp" / name).write_bytes(raw)
            os.replace(box / "tmp" / name, box / "new" / name)
        return "250 OK"

    def snapshot(self) -> list[tuple[str, str, str, bytes]]:
        with self.lock:
            return list(self.messages)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Result:
    games: int = 0
    kills: int = 0
    restarts: int = 0
    orders_sent: int = 0
    orders_lost: int = 0
    phases_resolved: int = 0
    phases_twice: int = 0
    games_unfinished: int = 0
    sitreps: int = 0
    sitreps_lost: int = 0
    mails_received: int = 0
    copies_confirmed: int = 0  # confirmation copies (same SMTP transaction, server's own address) taken in
    in_doubt_confirmed: int = 0  # messages a kill left in doubt, found delivered by their copy (not resent)
    duplicates: int = 0
    replay_failures: int = 0
    tick_failures: int = 0  # passes that raised (logged by the daemon, which goes on)
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)
    duplicate_detail: list[str] = field(default_factory=list)
    duplicate_rows: list[tuple[str, str, int, int]] = field(default_factory=list)  # (id, kind, arrived, attempts)


def _form_key(form: str) -> tuple[str, str, int, str] | None:
    from pbem.core.orders import parse_order_file

    f, _ = parse_order_file(form)
    if f is None:
        return None
    return f.game, f.side, f.turn, f.phase


class Players:
    """Answer every sitrep that carries an order form, once per (game, side, turn, phase)."""

    def __init__(self, inboxes: list[Path], keys, rnd: random.Random, server=None) -> None:
        self.inboxes, self.keys, self.rnd, self.server = inboxes, keys, rnd, server
        self.seen = 0
        self.answered: dict[tuple, str] = {}  # key -> sha256 of the raw message dropped in the inbox
        self.texts: dict[tuple, str] = {}

    def answer(self, messages) -> int:
        from pbem.core.orders import canonical
        from pbem.crypto import sshsig
        from tests.helpers import mail

        new = 0
        for mid, kind, to, raw in messages[self.seen:]:
            self.seen += 1
            if kind != "sitrep":
                continue
            msg = email.message_from_bytes(raw, policy=email.policy.default)
            form = next((p.get_content() for p in msg.iter_attachments() if p.get_filename() == "orders.txt"), None)
            if isinstance(form, bytes):
                form = form.decode()
            key = _form_key(form) if form else None
            if key is None or key in self.answered:
                continue
            if key[0].startswith("soak-"):
                if "FIRE 3" in form:
                    form = form.replace("FIRE 3", f"FIRE {self.rnd.randint(1, 5)}")
            else:  # a game of a real ruleset: its scripted player chooses, from the seat's view
                form = self.bot_form(key)
                if form is None:
                    continue
            text = canonical(form)
            raw_out = mail(text + sshsig.sign(self.keys[key[1]], text.encode()), sender=f"{key[1]}@players.test",
                           msg_id=f"<{key[0]}.{key[1]}.{key[2]}.{key[3]}@players.test>")
            name = f"{time.time_ns()}.{os.getpid()}.{len(self.answered)}.soak"
            inbox = self.rnd.choice(self.inboxes)  # with several daemons, mail reaches any of them
            (inbox / "tmp" / name).write_bytes(raw_out)
            os.replace(inbox / "tmp" / name, inbox / "new" / name)
            self.answered[key] = hashlib.sha256(raw_out).hexdigest()
            self.texts[key] = text
            new += 1
        return new

    def bot_form(self, key) -> str | None:
        from pbem.core.play import bot_dice, orders_text
        from pbem.store.models import Game

        gid, seat, turn, phase_name = key
        with self.server.session() as s:
            game = s.get(Game, gid)
        ruleset, state = self.server.load_state(game)
        phase = ruleset.phase(state)
        if phase is None or (phase.turn, phase.name) != (turn, phase_name):
            return None  # a sitrep that arrived late (a duplicate); the current one will come
        if seat not in phase.awaiting:
            return None  # optional (standing orders only): the phase does not wait, and neither do we
        body = ruleset.bot_orders(ruleset.view(state, seat), seat, bot_dice(gid.encode(), phase, seat))
        return orders_text(gid, seat, phase, body)


def make_home(tmp: Path, port: int, db_url: str | None, games: int, keys, daemons: int = 1,
              real: tuple[str, ...] = ()):
    from pbem.crypto import sshsig
    from pbem.home import Home
    from pbem.server import Server
    from tests.fixtures.duel import RULESET as DUEL

    home = Home(tmp / "home")
    server = Server.init(home, db_url, extra_rulesets=(DUEL,))
    with open(home.config_path, "a") as fh:
        fh.write(f'\n[smtp]\nhost = "127.0.0.1"\nport = {port}\nstarttls = false\n')
    home.load()
    server = Server(home, extra_rulesets=(DUEL,))
    homes = [home]
    for k in range(1, daemons):  # another machine: same config, database and server key, its own inbox
        other = Home(tmp / f"home{k}")
        other.path.mkdir(parents=True)
        other.config_path.write_text(home.config_path.read_text().replace("{home}", str(home.path)))
        (other.path / "server_key").write_bytes(home.key_path.read_bytes())
        other.create()
        homes.append(other)
    add_games(server, keys, 0, games)
    for n, name in enumerate(real):  # games of registered rulesets, played by their scripted players
        from pbem.rules import find_ruleset

        r = find_ruleset(name)
        gid = f"real-{name.replace('_', '-')}-{n}"
        server.new_game(gid, name, r.info.scenarios[0].name, seed=f"soak game {gid}".encode(), hours=100000,
                        interrupt_hours=100000)
        for k, seat in enumerate(server.status(gid)["seats"]):
            key = keys.setdefault(seat["name"], sshsig.generate_private_key())
            server.add_player(gid, seat["name"], f"{seat['name']}@players.test", sshsig.public_key_of(key).line())
    return homes, server


def add_games(server, keys, first: int, count: int) -> None:
    from pbem.crypto import sshsig

    for n in range(first, first + count):
        gid = f"soak-{n}"
        server.new_game(gid, "duel", "standard", seed=f"soak duel game {n}".encode(), hours=100000, interrupt_hours=100000)
        for seat in ("east", "west"):
            server.add_player(gid, seat, f"{seat}@players.test", sshsig.public_key_of(keys[seat]).line())


def start_daemon(home: Path, offset_minutes: float, log, once_idle: bool = False) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "tests.soak.daemon", "--home", str(home),
           "--clock-offset-minutes", str(offset_minutes)]
    if once_idle:
        cmd.append("--once-idle")
    return subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=log, text=True,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)))


def run(games: int = 6, kills: int = 200, seed: int = 1, max_delay: float = 0.8, db_url: str | None = None,
        time_budget: float = 1800.0, progress=None, workdir: Path | None = None, daemons: int = 1,
        real: tuple[str, ...] = ()) -> Result:
    from aiosmtpd.controller import Controller

    from pbem.crypto import sshsig
    from pbem.delivery import LEASE

    rnd = random.Random(seed)
    res = Result(games=games + len(real))
    started = time.monotonic()
    keys = {"east": sshsig.generate_private_key(), "west": sshsig.generate_private_key()}
    sink = Sink()
    port = free_port()
    ctl = Controller(sink, hostname="127.0.0.1", port=port)
    ctl.start()
    tmpctx = tempfile.TemporaryDirectory(prefix="pbem-soak-") if workdir is None else None
    tmp = Path(tmpctx.name) if tmpctx else workdir
    lease_min = LEASE.total_seconds() / 60 + 1
    try:
        homes, server = make_home(tmp, port, db_url, games, keys, daemons, real)
        home = homes[0]
        sink.mailboxes[home.address.lower()] = [h.inbox for h in homes]
        players = Players([h.inbox for h in homes], keys, rnd, server)
        log = open(tmp / "daemon.log", "a")
        restarts = 0

        def all_over() -> bool:
            return all(g.status == "over" for g in server.games())

        def inbox_empty() -> bool:
            return not any(p for h in homes for p in (h.inbox / "new").iterdir() if not p.name.startswith("."))

        def start_all(offset):
            procs = [start_daemon(h.path, offset, log) for h in homes]
            for proc in procs:
                ready = proc.stdout.readline()
                if not ready.startswith("ready"):
                    res.problems.append(f"daemon did not start: {ready!r}")
                threading.Thread(target=lambda p=proc: [None for _ in p.stdout], daemon=True).start()
            return procs

        while res.kills < kills and time.monotonic() - started < time_budget:
            if all_over():  # the games are done before the kills: more games, the daemons go on
                add_games(server, keys, res.games - len(real), games)
                res.games += games
            procs = start_all(restarts * lease_min)
            restarts += len(procs)
            rnd.shuffle(procs)
            for proc in procs:  # each daemon dies at its own random moment
                deadline = time.monotonic() + rnd.uniform(0.0, max_delay / len(procs))
                while time.monotonic() < deadline:
                    players.answer(sink.snapshot())
                    time.sleep(0.01)
                proc.send_signal(signal.SIGKILL)
                proc.wait()
                res.kills += 1
                if progress:
                    progress()
        # a clean run with the clock past every lease: the players answer until all is quiet
        offset = restarts * lease_min + 60
        procs = start_all(offset)
        restarts += len(procs)
        quiet_since, seen = time.monotonic(), -1
        while time.monotonic() - started < time_budget + 300:
            n = len(sink.snapshot())
            if players.answer(sink.snapshot()) or n != seen:
                quiet_since, seen = time.monotonic(), n
            if inbox_empty() and time.monotonic() - quiet_since > 1.5 and all_over():
                break
            time.sleep(0.02)
        for proc in procs:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        # and a last pass, past the lease of anything that stop left claimed, must find no mail to take
        # in and no phase to resolve (it may send what the stop interrupted)
        for h in homes:
            proc = start_daemon(h.path, offset + lease_min, log, once_idle=True)
            restarts += 1
            out, _ = proc.communicate(timeout=300)
            for line in out.splitlines():
                if line.startswith("tick:") and not line.startswith("tick: 0 message(s) in (none); 0 phase(s)"):
                    res.problems.append(f"work left after the run: {line}")
            players.answer(sink.snapshot())
        res.restarts = restarts
        log.close()
        failures = [ln for ln in (tmp / "daemon.log").read_text().splitlines() if ln.startswith("tick failed")]
        res.tick_failures = len(failures)
        res.problems += sorted(set(f[:200] for f in failures))[:5]
        _verify(server, homes, sink, players, res)
        server.engine.dispose()
    finally:
        ctl.stop()
        if tmpctx:
            tmpctx.cleanup()
    res.seconds = time.monotonic() - started
    return res


def _verify(server, homes, sink, players: Players, res: Result) -> None:
    from sqlmodel import select

    from pbem.replay import replay
    from pbem.store.models import Inbound, Journal, Outbox, Sitrep

    received = sink.snapshot()
    res.mails_received = len(received)
    by_id = Counter(mid for mid, *_ in received)
    with server.session() as s:
        inbound = {r.sha256: r for r in s.exec(select(Inbound)).all()}
        res.copies_confirmed = sum(r.status == "confirmed" for r in inbound.values())
        journal = s.exec(select(Journal).order_by(Journal.game_id, Journal.seq)).all()
        sitreps = s.exec(select(Sitrep)).all()
        outbox = {r.message_id: r for r in s.exec(select(Outbox)).all()}
    resolved: dict[tuple[str, int, str], list[dict]] = {}
    for j in journal:
        if j.kind == "resolve":
            payload = json.loads(j.payload_json)
            turn, name = payload["phase"].split("/", 1)
            resolved.setdefault((j.game_id, int(turn), name), []).append(payload)
    res.phases_resolved = sum(len(v) for v in resolved.values())
    res.phases_twice = sum(len(v) - 1 for v in resolved.values() if len(v) > 1)
    for game in server.games():
        seqs = [j.seq for j in journal if j.game_id == game.id]
        if seqs != list(range(len(seqs))):
            res.problems.append(f"{game.id}: journal sequence {seqs}")
        if game.status != "over":
            res.games_unfinished += 1
            res.problems.append(f"{game.id}: not finished ({game.status}, turn {game.turn} {game.phase})")
        report = replay(server, game.id)
        if not report.ok:
            res.replay_failures += 1
            res.problems.append(f"{game.id}: replay: {report.problems[:3]}")
    res.orders_sent = len(players.answered)
    for key, sha in players.answered.items():
        gid, seat, turn, phase = key
        row = inbound.get(sha)
        if row is None:
            res.orders_lost += 1
            res.problems.append(f"{key}: the order message was never stored")
            continue
        if row.status != "accepted":
            res.orders_lost += 1
            res.problems.append(f"{key}: {row.status}: {row.verdict}")
            continue
        payloads = resolved.get((gid, turn, phase), [])
        if not payloads or payloads[0]["orders"].get(seat) != players.texts[key]:
            res.orders_lost += 1
            res.problems.append(f"{key}: accepted but not what the phase was resolved with")
    # a row the copy confirmed (rather than the sender's own record) has the copy's arrival as sent_at
    arrived = {(r.message_id, _aware(r.received_at)) for r in inbound.values() if r.status == "confirmed"}
    res.in_doubt_confirmed = sum((mid, _aware(r.sent_at)) in arrived for mid, r in outbox.items())
    res.sitreps = len(sitreps)
    for row in sitreps:
        if by_id[row.message_id] == 0:
            res.sitreps_lost += 1
            res.problems.append(f"sitrep {row.game_id}/{row.seat} seq {row.seq} never arrived")
    for mid, n in by_id.items():
        if n > 1:
            res.duplicates += n - 1
            row = outbox.get(mid)
            res.duplicate_rows.append((mid, row.kind if row else "?", n, row.attempts if row else 0))
            res.duplicate_detail.append(f"{mid} ({row.kind if row else '?'}) arrived {n} times; outbox attempts "
                                        f"{row.attempts if row else '?'}")
    for h in homes:
        if len(list((h.inbox / "new").iterdir())):
            res.problems.append(f"messages left unread in {h.inbox}")


def _aware(when):
    return when.replace(tzinfo=timezone.utc) if when is not None and when.tzinfo is None else when


@contextlib.contextmanager
def fresh_postgres_schema(base: str | None = None):
    """A new, empty schema on the PostgreSQL server (PBEM_TEST_POSTGRES), dropped afterwards."""
    import uuid

    import psycopg

    base = base or os.environ.get("PBEM_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
    schema = f"soak_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    sep = "&" if "?" in base else "?"
    try:
        yield f"{base}{sep}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def main() -> int:
    ap = argparse.ArgumentParser(description="kill -9 soak of the pbem daemon")
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--kills", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-delay", type=float, default=0.8)
    ap.add_argument("--db-url", default=None)
    ap.add_argument("--postgres", action="store_true", help="a fresh schema on PBEM_TEST_POSTGRES")
    ap.add_argument("--daemons", type=int, default=1, help="daemons on one database (use PostgreSQL for 2+)")
    ap.add_argument("--real", default="", help="comma-separated registered rulesets to add one game each of")
    ap.add_argument("--quick", action="store_true", help="2 games, 8 kills (what the test suite runs)")
    args = ap.parse_args()
    if args.quick:
        args.games, args.kills = QUICK["games"], QUICK["kills"]
    real = tuple(x for x in args.real.split(",") if x)
    if args.postgres:
        with fresh_postgres_schema() as url:
            r = run(args.games, args.kills, args.seed, args.max_delay, url, daemons=args.daemons, real=real)
    else:
        r = run(args.games, args.kills, args.seed, args.max_delay, args.db_url, daemons=args.daemons, real=real)
    for k, v in r.__dict__.items():
        if not isinstance(v, list):
            print(f"{k} {v}")
    for p in r.problems + r.duplicate_detail:
        print("  ", p)
    ok = not (r.orders_lost or r.phases_twice or r.sitreps_lost or r.duplicates or r.replay_failures
              or r.games_unfinished)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
