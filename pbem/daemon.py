"""The daemon: take in mail, resolve what is due, send what is queued — once (`tick`) or on a schedule.

APScheduler only decides *when* to run a pass: every ``interval`` seconds,
and once more at the earliest deadline.  The truth about deadlines lives in
the database, so a restarted daemon, or a second one, loses nothing.
"""
from __future__ import annotations

import imaplib
import logging
import signal
import threading
from dataclasses import dataclass, field
from pathlib import Path

from pbem import config
from pbem.club import ladder, ratings, tournament
from pbem.club.results import JournalError
from pbem.delivery import deliver
from pbem.mail.inbound import read_capped
from pbem.server import Server
from pbem.services.ingest import Verdict

log = logging.getLogger("pbem.runner")


@dataclass
class TickReport:
    ingested: int = 0
    verdicts: dict[str, int] = field(default_factory=dict)
    resolved: int = 0
    sent: int = 0
    failed: int = 0
    held: list[str] = field(default_factory=list)
    reminded: int = 0
    digests: int = 0
    alarms: int = 0
    hooks_posted: int = 0
    hooks_failed: int = 0

    def line(self) -> str:
        v = ", ".join(f"{n} {k}" for k, n in sorted(self.verdicts.items())) or "none"
        held = f"; held: {', '.join(self.held)}" if self.held else ""
        notices = (f"; {self.digests} digest(s), {self.alarms} alarm(s), web hooks {self.hooks_posted} posted, "
                   f"{self.hooks_failed} failed" if self.digests or self.alarms or self.hooks_posted
                   or self.hooks_failed else "")
        return (f"tick: {self.ingested} message(s) in ({v}); {self.resolved} phase(s) resolved; "
                f"{self.reminded} reminder(s); {self.sent} sent, {self.failed} failed{held}{notices}")


#: Messages taken in one transaction from a Maildir or an IMAP poll.
BATCH = 200


def ingest_maildir(server: Server, root: Path, report: TickReport) -> set[str]:
    """Ingest every message in ``root/new`` in batches, then move each to ``cur``; return the games touched.

    Another pass may work on the same Maildir at the same time (a `pbem tick` beside the daemon): a
    file it took first is skipped, and what both read is stored once (the second sees a duplicate).
    Batches go through ``server.ingest_many``, the intake service's entry on the façade.
    """
    touched: set[str] = set()
    new = root / "new"
    if not new.is_dir():
        return touched
    paths = sorted(p for p in new.iterdir() if not p.name.startswith("."))
    for start in range(0, len(paths), BATCH):
        batch = [(path, raw) for path in paths[start:start + BATCH] if (raw := _read(path, server.home.max_message_bytes)) is not None]
        # the batch commits before any file moves: a crash in between makes the next pass see duplicates
        verdicts = server.ingest_many([raw for _, raw in batch], advance=False)
        for (path, _), verdict in zip(batch, verdicts):
            _count(report, verdict)
            if verdict.status == "accepted":
                touched.add(verdict.game)
            try:
                if verdict.status == "confirmed":  # a copy of our own mail, recorded: the outbox keeps its bytes
                    path.unlink()
                else:
                    path.replace(root / "cur" / f"{path.name}:2,S")
            except FileNotFoundError:  # moved meanwhile by the other pass, which stored it too
                pass
    return touched


def _read(path: Path, limit: int) -> bytes | None:
    try:
        with open(path, "rb") as fh:  # a 30 MB message costs limit + 1 bytes of memory, not 30 MB
            return read_capped(fh, limit)
    except FileNotFoundError:  # taken by another pass since the listing
        return None


def _count(report: TickReport, verdict: Verdict) -> None:
    report.ingested += 1
    report.verdicts[verdict.status] = report.verdicts.get(verdict.status, 0) + 1


def ingest_imap(server: Server, report: TickReport) -> set[str]:
    from pbem.mail.imap import ImapSource  # imported on use, for start-up speed (most homes have no IMAP)

    source = ImapSource.from_config(server.home)
    if source is None:
        return set()
    verdicts = source.poll(lambda raws: server.ingest_many(raws, advance=False), batch=BATCH)
    for v in verdicts:
        _count(report, v)
    return {v.game for v in verdicts if v.status == "accepted"}


def tick(server: Server) -> TickReport:
    """One pass, each service in turn: intake (Maildir, then IMAP), resolution of the games it touched and
    of those due, reminders, then delivery of everything queued."""
    report = TickReport()
    touched = ingest_maildir(server, server.home.inbox, report)
    try:
        touched |= ingest_imap(server, report)
    except (OSError, imaplib.IMAP4.error) as exc:  # the provider down, a password changed: the rest goes on
        log.warning("IMAP poll failed: %s", exc)
    for game_id in sorted(touched | set(server.deadlines.due_games())):
        report.resolved += server.resolution.advance(game_id)
    report.reminded = server.deadlines.remind()
    # lapsed challenges, finished ladder and tournament games, tournament rounds (pbem.club)
    for line in ladder.tick(server.services) + tournament.tick(server.services):
        log.info("%s", line)
    rate(server)
    notices(server, report)
    report.held = server.queries.held_games()
    report.sent, report.failed = deliver(server)
    return report


def rate(server: Server) -> None:
    """Keep the club's ratings current: recomputed from the journals when a game has ended since the last time
    (pbem.club.ratings.refresh; a look at the games' rows otherwise).  A journal that fails its hash chain is
    logged and the pass goes on: `pbem ratings --verify` and `pbem verify` name it."""
    try:
        n = ratings.refresh(server.deps)
    except JournalError as exc:
        log.warning("ratings not updated: %s", exc)
        return
    if n is not None:
        log.info("ratings updated: %d rating(s) from the journals", n)


def notices(server: Server, report: TickReport) -> None:
    """The notices players chose beside the per-phase sitrep (pbem.notices): alarms, digests, web hooks.
    A failure here is logged and the pass goes on: mail already decided must still go."""
    from pbem.notices.alarms import Alarms
    from pbem.notices.digest import Digests
    from pbem.notices.webhooks import Poster

    deps, outbox = server.deps, server.services.outbox
    try:
        # hooks first: a digest of the same pass then tells of a post that failed for good
        report.hooks_posted, report.hooks_failed = Poster(deps).run()
        report.alarms = Alarms(deps, outbox).run()
        report.digests = Digests(deps, outbox, server.queries.order_form).run()
    except Exception:
        log.exception("notices failed this pass; the next pass tries again")


def warn_if_no_gm(home) -> None:
    """Say so at start when held games, breaker trips and bounces would reach nobody."""
    if not home.section("server").get("gm"):
        log.warning(config.NO_GM, home.config_path)


def banner(server: Server, interval: float) -> str:
    """What the daemon runs on: home, database (password masked), transports, games."""
    games = server.queries.games()
    active = sum(1 for g in games if g.status == "active")
    where = "; ".join(f"{k} {v}" for k, v in config.transports(server.home).items())
    return (f"pbem daemon started: home {server.home.path}; database {config.mask_url(server.home.db_url)}; "
            f"{where}; {len(games)} game(s), {active} active; a pass every {interval:g} s")


def _did_work(report: TickReport) -> bool:
    return bool(report.ingested or report.resolved or report.sent or report.failed or report.reminded
                or report.digests or report.alarms or report.hooks_posted or report.hooks_failed)


def run(server: Server, interval: float = 60.0) -> None:
    """Run passes every ``interval`` seconds, at the earliest deadline, and when mail arrives
    (LMTP delivery or IMAP IDLE), until SIGTERM or SIGINT."""
    # imported here for start-up speed: only the long-running daemon needs the scheduler
    from apscheduler.schedulers.blocking import BlockingScheduler  # type: ignore[import-untyped]  # no stubs

    log.info("%s", banner(server, interval))
    warn_if_no_gm(server.home)
    sched = BlockingScheduler(timezone="UTC")
    stopping = threading.Event()

    def one_pass():
        try:
            report = tick(server)
            if _did_work(report):  # an idle pass says nothing: a minute's poll is not news
                log.info(report.line())
        except Exception:  # one bad pass must not end the daemon
            log.exception("tick failed; next pass in %s s", interval)
        nxt = server.deadlines.next_deadline()
        if nxt is not None and not stopping.is_set():
            sched.add_job(one_pass, "date", run_date=nxt, id="deadline", replace_existing=True)

    def wake():
        if not stopping.is_set():
            sched.add_job(one_pass, id="wake", replace_existing=True)

    sched.add_job(one_pass, "interval", seconds=interval, id="poll", max_instances=1, coalesce=True,
                  next_run_time=server.clock())

    listener = None
    listen = server.home.section("lmtp").get("listen", "")
    if listen:
        from pbem.mail.lmtp import start_lmtp  # imported on use, for start-up speed (aiosmtpd, asyncio)

        def ingest_and_wake(raws):
            verdicts = server.ingest_many(raws)
            wake()
            return verdicts

        listener = start_lmtp(listen, ingest_and_wake, server.home.max_message_bytes)
        log.info("LMTP listening on %s", listen)
    idler = threading.Thread(target=_idle_loop, args=(server, wake, stopping), daemon=True)
    idler.start()
    from pbem.services.warmup import warm_active

    # the active games' first sitreps find their templates compiled and maps' static layers drawn
    threading.Thread(target=warm_active, args=(server,), name="warm-up", daemon=True).start()

    def stop(*_):
        stopping.set()
        sched.shutdown(wait=False)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        sched.start()
    finally:
        stopping.set()
        if listener is not None:
            listener.stop()


def _idle_loop(server, wake, stopping) -> None:
    """Hold an IMAP IDLE session and wake the daemon when mail arrives (no-op without [imap])."""
    from pbem.mail.imap import ImapSource, _close  # imported on use, for start-up speed

    source = ImapSource.from_config(server.home)
    if source is None:
        return
    while not stopping.is_set():
        try:
            conn = source.connect()
            try:
                while not stopping.is_set():
                    if source.idle(conn, 25 * 60):  # servers drop IDLE after 30 min; renew before
                        wake()
                    elif "IDLE" not in conn.capabilities:
                        return  # the poll every interval is all we can do
            finally:
                _close(conn)
        except OSError as exc:
            log.warning("IMAP IDLE: %s; retrying in 60 s", exc)
            stopping.wait(60)
