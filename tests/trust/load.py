"""Claim 5, load: many games and sides ingesting at once; memory stays bounded; a broken game is held alone.

:func:`run` creates ``games`` duel games plus one whose ruleset raises in resolution, then plays
every game to its end in rounds: each round, every owing side of every active game sends signed
order mail, and ``workers`` threads (each with its own :class:`Server`, as separate ``pbem
ingest`` processes would) push all of them through ``Server.ingest`` at once; ingest resolves a
phase as soon as its last order is in.  A message that fails for the storage (SQLite "database is
locked") is retried, as an MTA does on ``pbem ingest``'s EX_TEMPFAIL, and counted.

The games are played in ``batches`` one after the other; the process's resident memory is read
after each batch, so growth from one batch to the next shows whether memory is bounded.
"""
from __future__ import annotations

import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from sqlmodel import select

from pbem.crypto import sshsig
from pbem.home import Home
from pbem.server import Server
from pbem.store.models import Inbound, Outbox
from tests.fixtures.duel import RULESET as DUEL
from tests.fixtures.duel import BrokenDuel
from tests.helpers import mail, order_text, signed


def rss_mb() -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


@dataclass
class LoadResult:
    games: int = 0
    messages: int = 0
    seconds: float = 0.0
    retries: int = 0  # storage busy: retried as an MTA would
    verdicts: dict[str, int] = field(default_factory=dict)
    finished: int = 0
    held: list[str] = field(default_factory=list)
    held_reported: bool = False
    unanswered: int = 0
    rss_before: float = 0.0  # the process's resident memory before the first game (MB)
    rss_after_batch: list[float] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.messages / self.seconds if self.seconds else 0.0


def run(db_url: str, workdir: Path, *, games: int = 20, batches: int = 2, workers: int = 4, seed: int = 5,
        progress=None) -> LoadResult:
    rnd = random.Random(seed)
    res = LoadResult()
    keys = {s: sshsig.generate_private_key() for s in ("east", "west")}
    rulesets = (DUEL, BrokenDuel(message="rules bug under load"))
    home = Home(workdir / "home")
    driver = Server.init(home, db_url, extra_rulesets=rulesets)
    cfg = home.config_path.read_text().replace('name = "pbem"', 'name = "pbem"\ngm = "gm@club.test"')
    home.config_path.write_text(cfg)
    driver = Server(Home(home.path).load(), extra_rulesets=rulesets)
    local = threading.local()
    servers: list[Server] = []
    lock = threading.Lock()

    def ingest(raw: bytes):
        if not hasattr(local, "server"):
            local.server = Server(Home(home.path).load(), extra_rulesets=rulesets)
            with lock:
                servers.append(local.server)
        for attempt in range(50):
            try:
                return local.server.ingest(raw)
            except Exception as exc:  # storage busy: the MTA keeps the message and retries
                with lock:
                    res.retries += 1
                if attempt == 49:
                    raise
                time.sleep(0.05 * (attempt + 1))
                last = exc
        raise last  # pragma: no cover

    res.rss_before = rss_mb()
    started = time.monotonic()
    pool = ThreadPoolExecutor(workers)
    try:
        for batch in range(batches):
            ids = [f"b{batch}-g{n}" for n in range(games)]
            if batch == 0:
                ids.append("broken-1")
            for gid in ids:
                driver.new_game(gid, "broken" if gid.startswith("broken") else "duel", "standard",
                                seed=f"load test game {gid}".encode())
                for seat in ("east", "west"):
                    driver.add_player(gid, seat, f"{seat}.{gid}@players.test",
                                      sshsig.public_key_of(keys[seat]).line())
            res.games += len(ids)
            for _ in range(40):
                raws = []
                for gid in ids:
                    st = driver.status(gid)
                    if st["status"] != "active":
                        continue
                    for seat in st["owing"]:
                        body = rnd.choice(["DIG\n", "RUN\n"]) if st["window"] == "interrupt" else \
                            f"FIRE {rnd.randint(1, 5)}\nMOVE {rnd.choice(['-1', '0', '+1'])}\n"
                        text = order_text(driver, gid, seat, body)
                        if "MOVE" in body:  # keep the move legal (the duel rejects moves off the line)
                            text = order_text(driver, gid, seat, body.split("MOVE")[0] + "MOVE 0\n")
                        raws.append(mail(signed(text, keys[seat]), sender=f"{seat}.{gid}@players.test"))
                if not raws:
                    break
                rnd.shuffle(raws)
                for v in pool.map(ingest, raws):
                    res.messages += 1
                    res.verdicts[v.status] = res.verdicts.get(v.status, 0) + 1
                    if progress:
                        progress()
            res.rss_after_batch.append(rss_mb())
    finally:
        pool.shutdown()
    res.seconds = time.monotonic() - started
    for g in driver.games():
        res.finished += g.status == "over"
        if g.status == "held":
            res.held.append(g.id)
            if not g.id.startswith("broken"):
                res.problems.append(f"{g.id} held: {g.held_reason}")
        elif g.status != "over":
            res.problems.append(f"{g.id} is {g.status} at turn {g.turn} {g.phase}")
    with driver.session() as s:
        inbound = s.exec(select(Inbound)).all()
        outbox = s.exec(select(Outbox)).all()
    replies = {r.in_reply_to for r in outbox} if hasattr(Outbox, "in_reply_to") else None
    acks = sum(1 for r in outbox if r.kind in ("ack", "reject"))
    res.unanswered = sum(1 for r in inbound if r.status not in ("accepted", "rejected", "discarded"))
    if acks < len(inbound):
        res.unanswered += len(inbound) - acks
    del replies
    res.held_reported = any(r.kind == "notice" and r.to_addr == "gm@club.test" and "held" in r.subject
                            for r in outbox)
    for srv in servers + [driver]:
        srv.engine.dispose()
    return res
