#!/usr/bin/env python3
"""pbem benchmarks: how fast, how big, and how the cost grows — each figure against a target.

    python benchmarks/run.py [--quick] [--postgres URL] [--only ingest,rulesets,scale,latency,pipe,first]

Prints one line per figure, ``name value unit target met|missed``, after a
progress bar.  ``--quick`` runs every benchmark on smaller inputs in under a
minute (the test suite runs it); the full run is what the README reports.
Single-process figures are taken pinned to one core where ``taskset`` exists.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import platform
import shutil
import smtplib
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import click

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pbem import rules  # noqa: E402
from pbem.core.orders import parse_order_file  # noqa: E402
from pbem.core.play import bot_dice, phase_dice, play  # noqa: E402
from pbem.core.ruleset import Phase  # noqa: E402
from pbem.crypto import sshsig  # noqa: E402
from pbem.home import Home  # noqa: E402
from pbem.mail.inbound import read_message  # noqa: E402
from pbem.server import Server, build_sitrep  # noqa: E402

POSTGRES = os.environ.get("PBEM_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


@dataclass
class Figure:
    name: str
    value: float
    unit: str
    target: str  # e.g. ">= 1000"; "" for a figure reported without a target
    met: bool | None

    def line(self) -> str:
        verdict = "" if self.met is None else ("met" if self.met else "missed")
        value = f"{self.value:.3g}" if abs(self.value) < 1000 else f"{self.value:.0f}"
        return f"{self.name} {value} {self.unit} {self.target or '-'} {verdict or '-'}".rstrip()


FIGURES: list[Figure] = []
#: Per ruleset, (units on the board, median ms per phase) for each size measured: the growth curve.
CURVES: dict[str, list[tuple[int, float]]] = {}


def figure(name: str, value: float, unit: str, op: str = "", target: float | None = None) -> None:
    met = None
    if target is not None:
        met = value >= target if op == ">=" else value <= target
    FIGURES.append(Figure(name, value, unit, f"{op}{target:g}" if target is not None else "", met))


def pin_one_core() -> None:
    """Measure single-core figures on one core, as the targets say."""
    if hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
        except OSError:
            pass


def new_server(tmp: Path, db_url: str | None = None) -> Server:
    if db_url and db_url.startswith("postgresql"):
        import psycopg
        import uuid

        schema = f"bench_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(db_url, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        db_url = f"{db_url}{'&' if '?' in db_url else '?'}options=-csearch_path%3D{schema}"
    return Server.init(Home(tmp), db_url)


# --------------------------------------------------------------------------- ingest
def signed_mail(text: str, key, n: int, sender: str) -> bytes:
    body = (text + sshsig.sign(key, text.encode())).replace("\n", "\r\n")  # SMTP lines end in CRLF (RFC 5321)
    return (f"From: {sender}\r\nTo: pbem@localhost\r\nSubject: orders\r\nMessage-ID: <bench-{n}@players.test>\r\n"
            f"Content-Type: text/plain; charset=utf-8\r\n\r\n{body}").encode()


def ingest_messages(server: Server, ruleset_name: str, scenario: str, games: int, per_seat: int):
    keys = {}
    msgs = []
    ruleset = server.ruleset(ruleset_name)
    for g in range(games):
        gid = f"in{g}"
        server.new_game(gid, ruleset_name, scenario, seed=f"benchmark ingest {g}".encode(), settings={"max_missing": 99})
        for seat in [s["name"] for s in server.status(gid)["seats"]]:
            key = keys.setdefault(seat, sshsig.generate_private_key())
            server.add_player(gid, seat, f"{seat}@players.test", sshsig.public_key_of(key).line())
        st = server.status(gid)
        for seat in st["owing"]:
            view = json.loads(server.sitrep(gid, seat).view_json)
            head = server.order_form(gid, seat).split("\n\n", 1)[0]
            body = ruleset.bot_orders(view, seat, bot_dice(b"bench", Phase(st["turn"], st["phase"], frozenset()), seat))
            for k in range(per_seat):  # distinct files: each replaces the last, as resubmissions do
                text = parse_order_file(f"{head}\n\n{body}# revision {k}\n")[0].text
                msgs.append(signed_mail(text, keys[seat], len(msgs), f"{seat}@players.test"))
    return msgs


def lmtp_clients(port: int, raws: list[bytes], connections: int, go, done) -> None:
    """Deliver ``raws`` over ``connections`` LMTP sessions at once, as a busy MTA does (a child process,
    on another core than the server when there is one)."""
    import smtplib
    import threading

    if hasattr(os, "sched_setaffinity") and len(os.sched_getaffinity(0)) < (os.cpu_count() or 1):
        os.sched_setaffinity(0, set(range(os.cpu_count() or 1)) - os.sched_getaffinity(0))
    clients = [smtplib.LMTP("127.0.0.1", port) for _ in range(connections)]
    failures = []

    def send(client, part):
        for raw in part:
            try:
                client.sendmail("player@players.test", ["pbem@localhost"], raw)
            except smtplib.SMTPException as exc:
                failures.append(exc)
        client.quit()

    threads = [threading.Thread(target=send, args=(c, raws[k::connections])) for k, c in enumerate(clients)]
    go.wait()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    done.put(len(failures))


def bench_lmtp(ingest_many, msgs: list[bytes], connections: int = 8) -> float:
    """Messages per second through the LMTP listener with ``connections`` deliveries at a time."""
    import multiprocessing

    from pbem.mail.lmtp import start_lmtp

    port = free_port()
    listener = start_lmtp(f"127.0.0.1:{port}", ingest_many)
    ctx = multiprocessing.get_context("spawn")
    go, done = ctx.Event(), ctx.Queue()
    child = ctx.Process(target=lmtp_clients, args=(port, msgs, connections, go, done))
    child.start()
    try:
        time.sleep(1.5)  # the child starts and connects before the clock runs
        t = time.perf_counter()
        go.set()
        failures = done.get(timeout=600)
        rate = len(msgs) / (time.perf_counter() - t)
        child.join(60)
    finally:
        listener.stop()
    assert failures == 0, f"{failures} LMTP deliveries failed"
    return rate


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def bench_ingest(tmp: Path, quick: bool, postgres: str | None, tick) -> None:
    n_games, per_seat = (10, 12) if quick else (60, 25)
    for label, url in (("sqlite", None), ("postgres", postgres)):
        if label == "postgres" and not url:
            continue
        server = new_server(tmp / f"ingest-{label}", url)
        msgs = ingest_messages(server, "bismarck", "last-dash", n_games, per_seat)
        tick()
        third = len(msgs) // 3
        single_msgs, batch_msgs, lmtp_msgs = msgs[:third], msgs[third:2 * third], msgs[2 * third:]
        # one message per transaction: the MTA-pipe path (`pbem ingest -`), and LMTP when mail trickles in
        t = time.perf_counter()
        for raw in single_msgs:
            v = server.ingest(raw, advance=False)
            assert v.status == "accepted", v.line()
        single = len(single_msgs) / (time.perf_counter() - t)
        # batches of 200 in one transaction: the Maildir and IMAP path
        t = time.perf_counter()
        for start in range(0, len(batch_msgs), 200):
            for v in server.ingest_many(batch_msgs[start:start + 200], advance=False):
                assert v.status == "accepted", v.line()
        rate = len(batch_msgs) / (time.perf_counter() - t)
        tick()
        # eight LMTP deliveries at a time from a client process: the listener's group commit
        # (the lambdas run inside bench_lmtp, before the loop moves on: B023 does not apply)
        lmtp = bench_lmtp(lambda raws: server.ingest_many(raws, advance=False), lmtp_msgs)  # noqa: B023
        tick()
        # the same deliveries to a listener that stores nothing: what the LMTP protocol itself costs
        stored = SimpleNamespace(status="accepted")
        lmtp_protocol = bench_lmtp(lambda raws: [stored] * len(raws), lmtp_msgs)  # noqa: B023
        tick()
        from sqlmodel import func, select

        from pbem.store.models import Inbound

        with server.session() as s:
            statuses = dict(s.exec(select(Inbound.status, func.count()).group_by(Inbound.status)).all())
        assert statuses == {"accepted": len(msgs)}, statuses
        floor = bench_floor(msgs)
        if label == "sqlite":
            figure("ingest_sqlite_batched", rate, "msg/s", ">=", 1000)
            figure("ingest_sqlite_lmtp_8_at_once", lmtp, "msg/s", ">=", 400)
            figure("lmtp_protocol_alone_8_at_once", lmtp_protocol, "msg/s")
            figure("ingest_sqlite_single", single, "msg/s")
            figure("ingest_floor", floor, "msg/s")
            figure("ingest_sqlite_share_of_floor", 100 * rate / floor, "%", ">=", 65)
        else:
            figure("ingest_postgres_batched", rate, "msg/s")
            figure("ingest_postgres_lmtp_8_at_once", lmtp, "msg/s", ">=", 400)
            figure("ingest_postgres_single", single, "msg/s")
            figure("ingest_postgres_share_of_floor", 100 * rate / floor, "%", ">=", 50)
            figure("ingest_postgres_lmtp_share_of_floor", 100 * lmtp / floor, "%")
        # the reply is composed and signed when it is sent: measured apart so nothing hides
        from pbem.store.models import Outbox

        with server.session() as s:
            rows = s.exec(select(Outbox).where(Outbox.kind == "ack").limit(300)).all()
        t = time.perf_counter()
        for row in rows:
            server.outbox_bytes(row)
        compose = len(rows) / (time.perf_counter() - t)
        figure(f"reply_compose_sign_{label}", compose, "msg/s")
        # the whole cost of an order message, its reply's composing and signing included
        figure(f"ingest_{label}_batched_with_reply_sent", 1 / (1 / rate + 1 / compose), "msg/s")
        server.engine.dispose()
        tick()


def bench_floor(msgs) -> float:
    """The bare cost: parse the mail, canonicalise the order file, verify its signature."""
    t = time.perf_counter()
    for raw in msgs:
        found = read_message(raw).found[0]
        f, _ = parse_order_file(found.text)
        sshsig.verify(found.signature, f.text.encode())
    return len(msgs) / (time.perf_counter() - t)


# --------------------------------------------------------------------------- rulesets
#: Per ruleset, scenarios (and options) of growing size, with how to count units in a state.
SIZES = {
    "bismarck": [("last-dash", {}), ("rheinubung", {})],
    "lew_morski": [("w1", {"setup": "auto"}), ("w2", {"setup": "auto"}), ("w4", {"setup": "auto"})],
    "sky_ww2": [("quick", {"aircraft": 1}), ("quick", {"aircraft": 2}), ("quick", {"aircraft": 3})],
}


def units(ruleset, state) -> int:
    """Units on the board: everything in the dumped state that has an id and a position, counted once."""
    dumped = json.dumps(ruleset.dump(state))
    data = json.loads(dumped)
    found = set()

    def walk(node, path=""):
        if isinstance(node, dict):
            if "id" in node and any(k in node for k in ("hex", "cell", "pos", "at", "where", "location")):
                found.add(str(node["id"]))
            for k, v in node.items():
                walk(v, f"{path}.{k}")
        elif isinstance(node, list):
            for v in node:
                walk(v, path)
    walk(data)
    return len(found)


def bench_rulesets(quick: bool, tick) -> None:
    phases = 12 if quick else 40
    for ruleset in rules.RULESETS:
        name = ruleset.info.name
        curve = []
        for scenario, options in SIZES.get(name, [(ruleset.info.scenarios[0].name, {})]):
            steps = play(ruleset, scenario, b"bench", options=options, max_phases=phases)
            res_t, rep_t = [], []
            prev = ruleset.setup(scenario, ruleset.info.resolve_options(options),
                                 __import__("pbem.core.play", fromlist=["setup_dice"]).setup_dice(b"bench"))
            game = SimpleNamespace(id="bench", title="bench", ruleset=name, scenario=scenario, seed_commitment="0" * 64,
                                   seed_hex="00" * 16, seed_salt="", turn=0, journal_head="0" * 64, templates_dir="")
            for step in steps:
                orders = {}
                for seat, body in step.bodies.items():
                    from pbem.core.play import check_text

                    orders[seat], _ = check_text(ruleset, prev, seat, body)
                t = time.perf_counter()
                ruleset.resolve(prev, orders, phase_dice(b"bench", step.phase))
                res_t.append(time.perf_counter() - t)
                entries = [{"seq": 1, "kind": "resolve", "hash": "0" * 64, "payload": {"notices": []},
                            "events": [{"text": e.text, "kind": e.kind, "visible_to": sorted(e.visible_to),
                                        "data": dict(e.data)} for e in step.events],
                            "rolls": [{"sides": r.sides, "value": r.value, "why": r.why, "seen_by": sorted(r.seen_by)}
                                      for r in step.rolls]}]
                t = time.perf_counter()
                for seat in ruleset.seats(step.state):
                    build_sitrep(ruleset, game, {"name": seat.name, "side": seat.side, "title": seat.title,
                                                 "tz": "UTC"}, step.state, entries)
                rep_t.append(time.perf_counter() - t)
                prev = step.state
                tick()
            per_phase = [a + b for a, b in zip(res_t, rep_t, strict=False)]
            curve.append((units(ruleset, steps[0].state), statistics.median(per_phase), scenario, options))
            if (scenario, options) == tuple(SIZES.get(name, [(scenario, options)])[0]):
                figure(f"{name}_resolve_median", 1000 * statistics.median(res_t), "ms")
                figure(f"{name}_resolve_p99", 1000 * quantile(res_t, 0.99), "ms")
                figure(f"{name}_sitreps_all_seats_median", 1000 * statistics.median(rep_t), "ms")
                figure(f"{name}_sitreps_all_seats_p99", 1000 * quantile(rep_t, 0.99), "ms")
                figure(f"{name}_phase_median", 1000 * statistics.median(per_phase), "ms", "<=", 30)
        CURVES[name] = [(u, 1000 * t) for u, t, *_ in curve]
        for u, t, scenario, options in curve:
            opts = ",".join(f"{k}={v}" for k, v in options.items() if k != "setup")
            figure(f"{name}_curve_{scenario}{'_' + opts if opts else ''}_units{u}", 1000 * t, "ms/phase")
        (u1, t1, *_), (u2, t2, *_) = curve[0], curve[-1]
        if u2 > u1:
            figure(f"{name}_growth_exponent", math.log(t2 / t1) / math.log(u2 / u1), "", "<=", 1.5)


def quantile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# --------------------------------------------------------------------------- scale
SCALE_PASS = r'''
import json, resource, sys, time
from pbem.home import Home
from pbem.server import Server
from pbem.delivery import deliver
server = Server(Home(sys.argv[1]).load())
t0 = time.perf_counter()
due = server.due_games()
resolved = sum(server.advance(g) for g in due)
t1 = time.perf_counter()
sent, failed = deliver(server)
t2 = time.perf_counter()
print(json.dumps({"due": len(due), "resolved": resolved, "resolve_s": t1 - t0, "sent": sent,
                  "deliver_s": t2 - t1, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
'''


def build_many_games(server: Server, n: int, due: int) -> None:
    """n active games in one database: one real game, cloned row by row (a benchmark's set-up, not play)."""
    from sqlalchemy import insert, select as sa_select, update

    from pbem.store.models import Game, Journal, Seat

    server.new_game("t", "bismarck", "last-dash", seed=b"benchmark scale game", settings={"max_missing": 9})
    for seat in ("german", "allied"):
        key = sshsig.generate_private_key()
        server.add_player("t", seat, f"{seat}@players.test", sshsig.public_key_of(key).line())
    with server.engine.begin() as conn:
        game = dict(conn.execute(sa_select(Game.__table__).where(Game.__table__.c.id == "t")).mappings().one())
        seats = [dict(r) for r in conn.execute(sa_select(Seat.__table__).where(Seat.__table__.c.game_id == "t")).mappings()]
        journal = [dict(r) for r in conn.execute(sa_select(Journal.__table__).where(Journal.__table__.c.game_id == "t")).mappings()]
        for start in range(0, n, 1000):
            ids = [f"g{i:05d}" for i in range(start, min(n, start + 1000))]
            conn.execute(insert(Game.__table__), [{**game, "id": i} for i in ids])
            conn.execute(insert(Seat.__table__), [{**s, "id": None, "game_id": i} for i in ids for s in seats])
            conn.execute(insert(Journal.__table__), [{**j, "id": None, "game_id": i} for i in ids for j in journal])
        past = server.clock() - timedelta(hours=1)
        conn.execute(update(Game.__table__).where(Game.__table__.c.id.in_([f"g{i:05d}" for i in range(due)]))
                     .values(deadline=past))


def bench_scale(tmp: Path, quick: bool, tick) -> None:
    n, due = (1000, 100) if quick else (10000, 1000)
    home = tmp / "scale"
    server = new_server(home)
    build_many_games(server, n, due)
    server.engine.dispose()
    tick()
    taskset = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    out = subprocess.run([*taskset, sys.executable, "-c", SCALE_PASS, str(home)], capture_output=True, text=True,
                         cwd=ROOT)
    if out.returncode:
        raise RuntimeError(f"the scale pass failed:\n{out.stderr[-3000:]}")
    r = json.loads(out.stdout.strip().splitlines()[-1])
    tick()
    assert r["resolved"] >= due, r
    figure("scale_games", n, "games")
    figure(f"scale_pass_resolve_{due}_phases", r["resolve_s"], "s", "<=", 10 * due / 1000)
    figure(f"scale_pass_deliver_{r['sent']}_mails", r["deliver_s"], "s")
    figure("scale_daemon_rss", r["rss_mb"], "MB", "<=", 300)
    figure("idle_daemon_cpu", idle_cpu(home, 3 if quick else 10), "%", "<=", 1)
    tick()


def idle_cpu(home: Path, seconds: float) -> float:
    proc = subprocess.Popen([sys.executable, "-m", "pbem.cli", "--home", str(home), "daemon", "--interval", "60"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        # the first pass runs at start (with 10,000 games it takes a while): measure once the process is idle
        deadline = time.time() + 120
        last = cpu_seconds(proc.pid)
        while time.time() < deadline:
            time.sleep(1)
            now = cpu_seconds(proc.pid)
            if now - last < 0.02:
                break
            last = now
        before = cpu_seconds(proc.pid)
        time.sleep(seconds)
        used = cpu_seconds(proc.pid) - before
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    return 100 * used / seconds


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# --------------------------------------------------------------------------- latency
def bench_latency(tmp: Path, quick: bool, tick) -> None:
    """From the last side's orders arriving (LMTP) to every sitrep sitting in the outbox."""
    home = tmp / "latency"
    server = new_server(home)
    port = free_port()
    cfg = server.home.config_path.read_text() + f'\n[lmtp]\nlisten = "127.0.0.1:{port}"\n'
    server.home.config_path.write_text(cfg)
    keys = {}
    server.new_game("lat", "bismarck", "last-dash", seed=b"benchmark latency game")
    ruleset = server.ruleset("bismarck")
    for seat in ("german", "allied"):
        keys[seat] = sshsig.generate_private_key()
        server.add_player("lat", seat, f"{seat}@players.test", sshsig.public_key_of(keys[seat]).line())
    log = open(home / "daemon.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "pbem.cli", "--home", str(home), "-v", "daemon", "--interval", "60"],
                            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    samples = []
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        outbox = home / "outbox" / "new"
        n = 0
        while len(samples) < (3 if quick else 10):
            st = server.status("lat")
            if st["status"] != "active":
                break
            mails = []
            for seat in st["owing"]:
                view = json.loads(server.sitrep("lat", seat).view_json)
                head = server.order_form("lat", seat).split("\n\n", 1)[0]
                body = ruleset.bot_orders(view, seat, bot_dice(b"lat", Phase(st["turn"], st["phase"], frozenset()), seat))
                text = parse_order_file(f"{head}\n\n{body}")[0].text
                n += 1
                mails.append(signed_mail(text, keys[seat], n, f"{seat}@players.test"))
            for early in mails[:-1]:
                with smtplib.LMTP("127.0.0.1", port) as client:
                    client.sendmail("p@players.test", ["pbem@localhost"], early)
                time.sleep(0.5)
            before = len(list(outbox.iterdir()))
            t = time.perf_counter()
            with smtplib.LMTP("127.0.0.1", port) as client:
                client.sendmail("p@players.test", ["pbem@localhost"], mails[-1])
            while len(list(outbox.iterdir())) < before + 3 and time.perf_counter() - t < 30:  # ack + 2 sitreps
                time.sleep(0.01)
            samples.append(time.perf_counter() - t)
            time.sleep(0.3)
            tick()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    figure("latency_last_orders_to_outbox_median", statistics.median(samples), "s", "<=", 2)
    figure("latency_last_orders_to_outbox_max", max(samples), "s", "<=", 2)


# --------------------------------------------------------------------------- the first sitrep
#: In a fresh process: the first phase of a game, every seat's sitrep timed; after the daemon's warm-up or not.
FIRST_SITREP = r"""
import json, sys, time
from types import SimpleNamespace
from pbem import rules
from pbem.core.play import play
from pbem.services.sitreps import build_sitrep
from pbem.services.warmup import warm
name, scenario, mode = sys.argv[1:4]
ruleset = rules.find_ruleset(name)
if mode == "warm":
    warm([(ruleset, scenario)])
step = play(ruleset, scenario, b"benchmark first sitrep", max_phases=1)[0]
game = SimpleNamespace(id="bench", title="bench", ruleset=name, scenario=scenario, seed_commitment="0" * 64,
                       seed_hex="00" * 16, seed_salt="", turn=0, journal_head="0" * 64, templates_dir="")
entries = [{"seq": 1, "kind": "resolve", "hash": "0" * 64, "payload": {"notices": []}, "events": [], "rolls": []}]
t = time.perf_counter()
for seat in ruleset.seats(step.state):
    build_sitrep(ruleset, game, {"name": seat.name, "side": seat.side, "title": seat.title, "tz": "UTC"},
                 step.state, entries)
print(json.dumps(time.perf_counter() - t))
"""


def bench_first_sitrep(quick: bool, tick) -> None:
    """Every seat's sitreps of a game's first phase in a process that just started: caches cold (as every
    process was before), and after the warm-up the daemon runs at its start (pbem.services.warmup)."""
    repeats = 1 if quick else 3
    samples: dict[str, list[float]] = {"cold": [], "warm": []}
    for ruleset in rules.RULESETS:
        name, scenario = ruleset.info.name, ruleset.info.scenarios[0].name
        for mode in ("cold", "warm"):
            times = []
            for _ in range(repeats):
                out = subprocess.run([sys.executable, "-c", FIRST_SITREP, name, scenario, mode], capture_output=True,
                                     text=True, cwd=ROOT)
                if out.returncode:
                    raise RuntimeError(f"the first sitrep of {name} failed:\n{out.stderr[-3000:]}")
                times.append(1000 * json.loads(out.stdout))
            samples[mode] += times
            figure(f"{name}_first_phase_sitreps_{mode}", max(times), "ms", *(("<=", 40) if mode == "warm" else ()))
        tick()
    figure("first_phase_sitreps_p99_cold", quantile(samples["cold"], 0.99), "ms")
    figure("first_phase_sitreps_p99_warm", quantile(samples["warm"], 0.99), "ms", "<=", 40)


# --------------------------------------------------------------------------- the MTA pipe
#: Runs a command once per message file (stdin from the file), as an MTA's pipe does, and prints the wall
#: time of each run and the largest resident size among them (getrusage of the children: start to exit).
PIPE_RUNS = r"""
import json, resource, subprocess, sys, time
cmd, files = json.loads(sys.argv[1]), sys.argv[2:]
times = []
for path in files:
    with open(path, "rb") as fh:
        t = time.perf_counter()
        done = subprocess.run(cmd, stdin=fh, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        times.append(time.perf_counter() - t)
    if done.returncode:
        sys.exit(f"{cmd} exited {done.returncode}: {done.stderr.decode()[-2000:]}")
print(json.dumps({"times": times, "rss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}))
"""


def pipe_runs(cmd: list[str], files: list[Path], env: dict[str, str]) -> tuple[float, float]:
    """(median seconds, max MB) of ``cmd`` run once per file but the last (which warms the caches first),
    each a whole process from start to exit."""
    with open(files[-1], "rb") as fh:  # once first, outside the measure: bytecode and file caches warm
        subprocess.run(cmd, stdin=fh, capture_output=True, cwd=ROOT, env=env)
    out = subprocess.run([sys.executable, "-c", PIPE_RUNS, json.dumps(cmd), *map(str, files[:-1])], capture_output=True,
                         text=True, cwd=ROOT, env=env)
    if out.returncode:
        raise RuntimeError(f"the pipe runs failed:\n{out.stderr[-3000:]}")
    r = json.loads(out.stdout)
    return statistics.median(r["times"]), r["rss_mb"]


def bench_pipe(tmp: Path, quick: bool, tick) -> None:
    """`pbem ingest -` as an MTA runs it, one process per message: taking the message in itself, and handing
    it to a running daemon over LMTP; with a bare Python start beside them (the machine's own speed)."""
    n = 6 if quick else 31  # the last of each set warms the caches, unmeasured
    home = tmp / "pipe"
    server = new_server(home)
    msgs = ingest_messages(server, "bismarck", "last-dash", 2, n)
    for gid in ("in0", "in1"):
        server.pause(gid)  # orders are checked and kept, nothing resolves: the pipe's own cost, not a phase's
    server.engine.dispose()
    files = []
    for k, raw in enumerate(msgs):
        files.append(home / f"msg-{k}.eml")
        files[-1].write_bytes(raw.replace(b"\r\n", b"\n"))  # as an MTA's pipe hands it over
    tick()
    # as installed: the `pbem` program beside this Python, and modules compiled to bytecode once (this
    # environment may say PYTHONDONTWRITEBYTECODE; an installed package has its .pyc files)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
    program = Path(sys.executable).with_name("pbem")
    pbem = [str(program)] if program.exists() else [sys.executable, "-m", "pbem.launch"]
    pbem += ["--home", str(home)]
    bare, bare_mb = pipe_runs([sys.executable, "-c", "pass"], files[:n], env)
    direct, direct_mb = pipe_runs([*pbem, "ingest", "-"], files[:n], env)
    tick()
    listen = home / "lmtp.sock"
    home.joinpath("config.toml").write_text(home.joinpath("config.toml").read_text()
                                            + f'\n[lmtp]\nlisten = "unix:{listen}"\n')
    daemon = subprocess.Popen([*pbem, "daemon", "--interval", "600"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 300
        while True:
            try:
                with socket.socket(socket.AF_UNIX) as probe:
                    probe.connect(str(listen))
                break
            except OSError:
                if daemon.poll() is not None or time.time() > deadline:
                    raise RuntimeError("the daemon did not listen on its LMTP socket") from None
                time.sleep(0.2)
        time.sleep(2)  # its first pass runs at start: measure the hand-off, not that pass
        handed, handed_mb = pipe_runs([*pbem, "ingest", "-"], files[n:2 * n], env)
    finally:
        daemon.terminate()
        daemon.wait(timeout=60)
    tick()
    figure("pipe_bare_python_start", bare, "s")
    figure("pipe_bare_python_rss", bare_mb, "MB")
    figure("pipe_ingest_handed_to_daemon_lmtp", handed, "s", "<=", 0.15)
    figure("pipe_ingest_handed_to_daemon_lmtp_rss", handed_mb, "MB", "<=", 40)
    figure("pipe_ingest_handed_to_daemon_vs_bare_python", handed / bare, "x")
    figure("pipe_ingest_direct_no_daemon", direct, "s")
    figure("pipe_ingest_direct_no_daemon_rss", direct_mb, "MB")
    figure("pipe_ingest_direct_vs_bare_python", direct / bare, "x")


# --------------------------------------------------------------------------- chart
def chart(curves: dict[str, list[tuple[int, float]]]) -> bytes:
    """The growth curves as a PNG: ms per phase against units on the board, one line per ruleset,
    with the 30 ms target; drawn with pbem's own picture renderer."""
    from pbem.core.picture import Circle, Line, Picture, Text
    from pbem.pictures import render_png

    width, height, left, bottom, top, right = 640, 360, 60, 40, 30, 150
    max_u = max(u for pts in curves.values() for u, _ in pts) * 1.1
    max_ms = max(40.0, max(ms for pts in curves.values() for _, ms in pts) * 1.15)

    def at(u: float, ms: float) -> tuple[float, float]:
        return (left + (width - left - right) * u / max_u, height - bottom - (height - top - bottom) * ms / max_ms)

    shapes = [Line((at(0, 0), at(max_u, 0)), "#000000"), Line((at(0, 0), at(0, max_ms)), "#000000"),
              Line((at(0, 30), at(max_u, 30)), "#cc0000"), Text(at(max_u, 30), " target 30 ms", "#cc0000", 11, "lm"),
              Text((left + (width - left - right) / 2, height - 12), "units on the board", size=12),
              Text((8, top - 18), "ms per phase (resolution + every sitrep), median; grey: linear growth",
                   size=12, anchor="la")]
    for k in range(0, int(max_ms) + 1, 10):
        shapes += [Line((at(0, k), (at(0, k)[0] - 4, at(0, k)[1]))), Text((left - 8, at(0, k)[1]), str(k), size=10,
                                                                           anchor="rm")]
    step = max(5, int(max_u / 8) // 5 * 5)
    for k in range(0, int(max_u) + 1, step):
        shapes += [Line((at(k, 0), (at(k, 0)[0], at(k, 0)[1] + 4))), Text((at(k, 0)[0], at(k, 0)[1] + 12), str(k),
                                                                           size=10)]
    colours = ["#1f5fa8", "#2e8b3a", "#b8660b", "#7a3fa0"]
    for n, (name, pts) in enumerate(sorted(curves.items())):
        colour, xy = colours[n % len(colours)], [at(u, ms) for u, ms in pts]
        if len(xy) > 1:
            # what linear growth from the smallest size would be: the measured line should stay under it
            (u1, t1), u2 = pts[0], min(max_u, pts[-1][0] * 1.05)
            shapes.append(Line((at(u1, t1), at(u2, min(max_ms, t1 * u2 / u1)) if t1 * u2 / u1 <= max_ms
                                else at(u1 * max_ms / t1, max_ms)), "#bbbbbb", 1))
            shapes.append(Line(tuple(xy), colour, 2))
        shapes += [Circle(p, 3, colour, colour) for p in xy]
        shapes.append(Text((width - right + 16, top + 20 * n), name, colour, 12, "lm"))
    return render_png(Picture(width, height, tuple(shapes)))


# --------------------------------------------------------------------------- main
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="smaller inputs, under a minute")
    parser.add_argument("--postgres", default=POSTGRES, help="PostgreSQL URL for the ingest figure ('' to skip)")
    parser.add_argument("--only", default="ingest,rulesets,scale,latency,pipe,first")
    parser.add_argument("--chart", default="", help="write the growth curves as a PNG to this path")
    args = parser.parse_args()
    only = set(args.only.split(","))
    postgres = args.postgres if args.postgres and _reachable(args.postgres) else None
    pin_one_core()
    tmp = Path(tempfile.mkdtemp(prefix="pbem-bench-"))
    work = [w for w in ("ingest", "rulesets", "scale", "latency", "pipe", "first") if w in only]
    steps = {"ingest": 6, "rulesets": 3 * (12 if args.quick else 40) * 3, "scale": 5, "latency": 12, "pipe": 4, "first": len(rules.RULESETS)}
    try:
        with click.progressbar(length=sum(steps[w] for w in work), label="benchmarks", file=sys.stderr) as bar:
            tick = lambda: bar.update(1)  # noqa: E731
            if "ingest" in work:
                bench_ingest(tmp, args.quick, postgres, tick)
            if "rulesets" in work:
                bench_rulesets(args.quick, tick)
            if "scale" in work:
                bench_scale(tmp, args.quick, tick)
            if "latency" in work:
                bench_latency(tmp, args.quick, tick)
            if "pipe" in work:
                bench_pipe(tmp, args.quick, tick)
            if "first" in work:
                bench_first_sitrep(args.quick, tick)
            bar.update(bar.length)
    finally:
        if os.environ.get("PBEM_BENCH_KEEP"):
            print(f"# kept {tmp}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"# {platform.node() and 'machine'}: {platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}, {platform.platform(terse=True)}; {'quick' if args.quick else 'full'} run")
    for f in FIGURES:
        print(f.line())
    if args.chart and CURVES:
        Path(args.chart).write_bytes(chart(CURVES))
        print(f"# growth curves drawn to {args.chart}")
    missed = [f.name for f in FIGURES if f.met is False]
    if missed:
        print(f"# missed: {', '.join(missed)}")


def _reachable(url: str) -> bool:
    try:
        import psycopg

        with psycopg.connect(url, connect_timeout=3):
            return True
    except Exception:
        return False


if __name__ == "__main__":
    main()
