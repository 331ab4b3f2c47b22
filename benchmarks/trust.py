"""The trust figures: leaks, forgery, garbage, crashes, load and several daemons, measured.

    python benchmarks/trust.py [--quick] [--only leaks,forgery,garbage,crash,daemons,load] [--atheris SECONDS]

Prints one line per figure, ``name value unit target met|missed``, after a progress bar per part
(on stderr).  Exit status 1 when a figure misses its target.  ``--quick`` is what the test suite
runs (under a minute on two cores); without it the run takes tens of minutes.  The code measured is
the test code in tests/trust/ and tests/soak/, so every figure is backed by a test.
"""
from __future__ import annotations

import os
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import click  # noqa: E402


@dataclass
class Figure:
    name: str
    value: float
    unit: str
    target: str  # e.g. "= 0", ">= 1000", "<= 30"

    @property
    def met(self) -> bool | None:
        if not self.target:  # reported to explain the others, not judged
            return None
        op, num = self.target.split()
        n = float(num)
        return {"=": self.value == n, ">=": self.value >= n, "<=": self.value <= n}[op]

    def line(self) -> str:
        v = f"{self.value:g}" if isinstance(self.value, (int, float)) else str(self.value)
        verdict = "-" if self.met is None else ("met" if self.met else "missed")
        return f"{self.name} {v} {self.unit} {self.target.replace(' ', '') or '-'} {verdict}"


def bar(label: str, length: int):
    return click.progressbar(length=length, label=label.ljust(10), file=sys.stderr, show_pos=True)


def _postgres() -> bool:
    from tests.conftest import _postgres_available

    return _postgres_available()


# ------------------------------------------------------------------------------------------ parts
def leaks(quick: bool) -> list[Figure]:
    from tests.trust import leakcheck
    from tests.trust.perturb import PERTURBERS, all_rulesets

    examples, seeds = (8, 2) if quick else (150, 6)
    names = sorted(all_rulesets())
    covered = [n for n in names if n in PERTURBERS]
    comparisons = outputs = found = 0
    with bar("leaks", examples * len(covered)) as b:
        for name in covered:
            t = leakcheck.scan(name, examples, seeds, progress=lambda: b.update(1))
            comparisons += t.comparisons
            outputs += t.outputs
            found += len(set(t.leaks))
            for leak in sorted(set(t.leaks))[:5]:
                click.echo(f"  LEAK {leak}", err=True)
    return [Figure("leak_rulesets_covered", len(covered), "rulesets", f">= {len(names)}"),
            Figure("leak_twins_compared", comparisons, "twins", f">= {examples * len(covered)}"),
            Figure("leak_outputs_compared", outputs, "outputs", f">= {examples * len(covered) * 5}"),
            Figure("leaks_found", found, "leaks", "= 0")]


def _server(tmp: Path):
    from pbem.home import Home
    from pbem.server import Server
    from tests.fixtures.duel import RULESET as DUEL

    return Server.init(Home(tmp / "home"), f"sqlite:///{tmp}/pbem.db", extra_rulesets=(DUEL,))


def forgery(quick: bool) -> list[Figure]:
    from pbem.crypto import sshsig
    from tests.trust import forgery as fg

    flips = 150 if quick else None
    keys = {n: sshsig.generate_private_key() for n in ("east", "west", "mallory", "gm")}
    with tempfile.TemporaryDirectory() as d:
        server = _server(Path(d))
        with bar("forgery", 200 if quick else 1100) as b:
            t = fg.run(server, keys, flips=flips, progress=lambda: b.update(1))
        server.engine.dispose()
    for p in t.problems[:5]:
        click.echo(f"  FORGERY {p}", err=True)
    return [Figure("forgery_attempts", t.attempts, "messages", ">= 100"),
            Figure("forgery_byte_flips", t.tried["byte flip"], "messages", ">= 100"),
            Figure("forgery_categories", len(t.tried), "kinds", ">= 12"),
            Figure("forgeries_accepted", t.forgeries, "messages", "= 0"),
            Figure("forgery_unanswered", sum(t.unanswered.values()), "messages", "= 0")]


def garbage(quick: bool, atheris_seconds: float) -> list[Figure]:
    from pbem.crypto import sshsig
    from tests.helpers import orders_mail
    from tests.trust import garbage as gb
    from tests.trust.perturb import all_rulesets

    n = 200 if quick else 3000
    names = sorted(all_rulesets())
    tried = crashes = 0
    unanswered: list[str] = []
    jobs = [("mail", lambda: gb.fuzz_mail(n)), ("signatures", lambda: gb.fuzz_signatures(n)),
            ("order files", lambda: gb.fuzz_order_files(n))]
    jobs += [(f"check_orders {name}", lambda name=name: gb.fuzz_check_orders(name, n // 2)) for name in names]
    with bar("garbage", len(jobs) + 1) as b:
        for what, job in jobs:
            try:
                tried += job()
            except Exception as exc:  # hypothesis re-raises the (shrunk) crashing input's exception
                import traceback

                crashes += 1
                click.echo(f"  CRASH {what}: {exc.__class__.__name__}: {str(exc)[:300]}\n"
                           + traceback.format_exc()[-3000:], err=True)
            b.update(1)
        keys = {s: sshsig.generate_private_key() for s in ("east", "west")}
        with tempfile.TemporaryDirectory() as d:
            server = _server(Path(d))
            server.new_game("g1", "duel", "standard", seed=b"benchmark fuzz game")
            for seat in ("east", "west"):
                server.add_player("g1", seat, f"{seat}@players.test", sshsig.public_key_of(keys[seat]).line())
            valid = orders_mail(server, "g1", "east", "FIRE 2\nMOVE 0\n", keys["east"])
            try:
                k, unanswered = gb.fuzz_ingest(server, n // 2, valid)
                tried += k
            except Exception as exc:
                import traceback

                crashes += 1
                click.echo(f"  CRASH ingest: {exc.__class__.__name__}: {str(exc)[:300]}\n"
                           + traceback.format_exc()[-3000:], err=True)
            server.engine.dispose()
            b.update(1)
    paths, rounds = (60, 10) if quick else (n // 2, n // 10)  # each input is a pass of intake and delivery
    whole = whole_path(paths, rounds)
    figures = [Figure("garbage_inputs_tried", tried + whole.inputs, "inputs",
                      f">= {int(n * (3 + len(names) / 2) * 0.9)}"),
               Figure("garbage_inputs_through_delivery", whole.inputs, "inputs", f">= {int(paths * 0.9)}"),
               Figure("garbage_crashes", crashes + whole.count("crash", "hang"), "crashes", "= 0"),
               Figure("garbage_stuck", whole.count("stuck"), "messages", "= 0"),
               Figure("garbage_unanswered", len(unanswered) + whole.count("unanswered"), "messages", "= 0"),
               Figure("garbage_header_injections", whole.count("header", "signed-line"), "messages", "= 0"),
               Figure("garbage_oversize_kept_whole", whole.count("kept-whole"), "messages", "= 0"),
               Figure("garbage_oversize_30mb_intake_peak", whole.oversize_peak_mb, "MB", "<= 8"),
               Figure("garbage_honest_rounds", whole.rounds, "rounds", f">= {rounds}"),
               Figure("garbage_honest_messages_not_delivered_once", whole.honest_lost, "messages", "= 0")]
    click.echo(f"  {whole.inputs} inputs through intake and delivery: {whole.count('crash', 'hang')} crashes, "
               f"{whole.count('stuck')} stuck, {whole.count('unanswered')} unanswered, "
               f"{whole.count('header', 'signed-line')} header injections", err=True)
    if atheris_seconds:
        sys.path.insert(0, str(ROOT / "benchmarks" / "trust"))
        import fuzz_atheris

        with bar("atheris", 1) as b:
            results = fuzz_atheris.run(atheris_seconds)
            b.update(1)
        figures += [Figure("atheris_inputs_tried", sum(r[1] for r in results), "inputs", ">= 1000"),
                    Figure("atheris_crashes", sum(r[2] for r in results), "crashes", "= 0")]
    return figures


@dataclass
class WholePath:
    inputs: int = 0
    findings: list = field(default_factory=list)
    rounds: int = 0
    honest_lost: int = 0
    oversize_peak_mb: float = 0.0

    def count(self, *kinds: str) -> int:
        return sum(1 for f in self.findings if f.kind in kinds)


def oversize_peak(rig, raw: bytes) -> float:
    """MB that intake allocates, at its peak, for one oversize message (issue 12: 165 MB for 30 MB)."""
    import tracemalloc

    raw = rig.unique(raw)
    tracemalloc.start()
    try:
        rig.server.ingest(raw)
        return round(tracemalloc.get_traced_memory()[1] / 1e6, 1)
    finally:
        tracemalloc.stop()


def whole_path(examples: int, rounds: int) -> WholePath:
    """Hostile mail through intake and delivery (Maildir, SMTP, SMTP with SMTPUTF8; tests/trust/wholepath.py):
    the fuzz, issue 12's named inputs through every transport, and honest traffic around one hostile message."""
    import logging

    from hypothesis import HealthCheck, given, settings, strategies as st

    from tests.trust import garbage as gb
    from tests.trust.hostile import hostile_message, regressions
    from tests.trust.wholepath import TRANSPORTS, Rig, honest_then_hostile

    logging.getLogger("pbem").setLevel(logging.CRITICAL)  # intake logs what it could not process; counted here
    out = WholePath()
    with tempfile.TemporaryDirectory() as d, bar("delivery", 3) as b:
        rig = Rig.start(Path(d))
        try:
            out.inputs, out.findings = gb.fuzz_whole_path(rig, examples)
            b.update(1)
            for name, raw in regressions(rig.server.home.max_message_bytes).items():
                for via in TRANSPORTS if "HTML" not in name and "oversize" not in name else ("maildir",):
                    out.inputs += 1
                    out.findings += rig.run(raw, via, name, unique=True)
            b.update(1)
            limit = rig.server.home.max_message_bytes
            lost: list[str] = []

            @settings(max_examples=rounds, deadline=None, database=None, derandomize=True,
                      suppress_health_check=list(HealthCheck))
            @given(st.one_of(hostile_message(limit), gb.raw_mail), st.sampled_from(TRANSPORTS))
            def one(hostile, via):
                out.rounds += 1
                lost.extend(honest_then_hostile(rig, hostile, via))

            one()
            out.honest_lost = sum(1 for p in lost if p.startswith("honest"))
            out.oversize_peak_mb = oversize_peak(rig, regressions(limit)["oversize message"])
            for p in sorted(set(lost))[:5]:
                click.echo(f"  HONEST {p}", err=True)
            b.update(1)
        finally:
            rig.close()
    seen = set()
    for f in out.findings:
        key = (f.kind, f.via, f.detail[:60])
        if key not in seen and len(seen) < 15:
            seen.add(key)
            click.echo(f"  {f.kind.upper()} {f}", err=True)
    return out


def crash(quick: bool) -> list[Figure]:
    from tests.soak import crash as soak

    games, kills = (2, 6) if quick else (12, 200)  # new games are added while the kills go on
    with bar("kill -9", kills) as b:
        from pbem import rules

        real = () if quick else tuple(r.info.name for r in rules.RULESETS)  # one game of each, by its bots
        r = soak.run(games=games, kills=kills, seed=1, progress=lambda: b.update(1),
                     time_budget=60 if quick else 3600, real=real)
    for p in r.problems[:5] + r.duplicate_detail[:5]:
        click.echo(f"  SOAK {p}", err=True)
    return [Figure("crash_kills_survived", r.kills, "kills", f">= {kills}"),
            Figure("crash_orders_sent", r.orders_sent, "orders", f">= {4 * games}"),
            Figure("crash_orders_lost", r.orders_lost, "orders", "= 0"),
            Figure("crash_phases_resolved_twice", r.phases_twice, "phases", "= 0"),
            Figure("crash_games_unfinished", r.games_unfinished, "games", "= 0"),
            Figure("crash_sitreps_lost", r.sitreps_lost, "sitreps", "= 0"),
            Figure("crash_duplicate_deliveries", r.duplicates, "messages", "= 0"),
            Figure("crash_in_doubt_found_delivered", r.in_doubt_confirmed, "messages", ""),
            Figure("crash_replay_failures", r.replay_failures, "games", "= 0")]


def daemons(quick: bool) -> list[Figure]:
    if not _postgres():
        click.echo("  two daemons: PostgreSQL (PBEM_TEST_POSTGRES) not reachable; skipped", err=True)
        return [Figure("daemons_postgres_reachable", 0, "bool", "= 1")]
    from tests.soak import crash as soak

    games, kills = (2, 4) if quick else (8, 100)
    with soak.fresh_postgres_schema() as url, bar("2 daemons", kills) as b:
        r = soak.run(games=games, kills=kills, seed=3, db_url=url, daemons=2, progress=lambda: b.update(1),
                     time_budget=60 if quick else 3600)
    for p in r.problems[:5] + r.duplicate_detail[:5]:
        click.echo(f"  DAEMONS {p}", err=True)
    return [Figure("daemons_kills_survived", r.kills, "kills", f">= {kills}"),
            Figure("daemons_orders_lost", r.orders_lost, "orders", "= 0"),
            Figure("daemons_phases_resolved_twice", r.phases_twice, "phases", "= 0"),
            Figure("daemons_games_unfinished", r.games_unfinished, "games", "= 0"),
            Figure("daemons_duplicate_deliveries", r.duplicates, "messages", "= 0"),
            Figure("daemons_in_doubt_found_delivered", r.in_doubt_confirmed, "messages", ""),
            Figure("daemons_replay_failures", r.replay_failures, "games", "= 0")]


def load(quick: bool) -> list[Figure]:
    import logging

    from tests.trust import load as ld

    games, batches = (10, 2) if quick else (100, 3)
    logging.getLogger("pbem.server").setLevel(logging.CRITICAL)  # the broken game's traceback is expected
    use_pg = not quick and _postgres()
    with tempfile.TemporaryDirectory() as d:
        est = games * batches * 16
        with bar("load", est) as b:
            if use_pg:
                from tests.soak import crash as soak

                with soak.fresh_postgres_schema() as url:
                    r = ld.run(url, Path(d), games=games, batches=batches, workers=4, progress=lambda: b.update(1))
            else:
                r = ld.run(f"sqlite:///{d}/load.db", Path(d), games=games, batches=batches, workers=4,
                           progress=lambda: b.update(1))
    for p in r.problems[:5]:
        click.echo(f"  LOAD {p}", err=True)
    growth = r.rss_after_batch[-1] - r.rss_after_batch[0] if len(r.rss_after_batch) > 1 else 0.0
    return [Figure("load_games", r.games, "games", f">= {games * batches}"),
            Figure("load_messages", r.messages, "messages", f">= {games * batches * 8}"),
            Figure("load_ingest_rate", round(r.rate, 1), "msg/s", ">= 20"),
            Figure("load_rss_for_first_batch", round(r.rss_after_batch[0] - r.rss_before, 1), "MB", "<= 150"),
            Figure("load_rss_growth_later_batches", round(growth, 1), "MB", "<= 25"),
            Figure("load_healthy_games_held", len([g for g in r.held if not g.startswith("broken")]), "games", "= 0"),
            Figure("load_broken_game_held_and_reported", int(r.held == ["broken-1"] and r.held_reported), "bool",
                   "= 1"),
            Figure("load_unanswered", r.unanswered, "messages", "= 0")]


PARTS = ("load", "leaks", "forgery", "garbage", "crash", "daemons")  # load first: its memory figures want a fresh process


@click.command()
@click.option("--quick", is_flag=True, help="Small budgets (what the test suite runs).")
@click.option("--only", default=",".join(PARTS), show_default=True, help="Comma-separated parts to run.")
@click.option("--atheris", "atheris_seconds", type=float, default=None,
              help="Seconds of atheris fuzzing (default: 0 with --quick, 180 without).")
def main(quick: bool, only: str, atheris_seconds: float | None) -> None:
    """Measure the trust figures and print `name value unit target met|missed`."""
    os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", str(Path(tempfile.gettempdir()) / "pbem-hypothesis"))
    if atheris_seconds is None:
        atheris_seconds = 0 if quick else 180
    started = time.monotonic()
    figures: list[Figure] = []
    for part in [p.strip() for p in only.split(",") if p.strip()]:
        if part not in PARTS:
            raise click.BadParameter(f"unknown part {part!r} (parts: {', '.join(PARTS)})")
        if part == "garbage":
            got = garbage(quick, atheris_seconds)
        else:
            got = globals()[part](quick)
        for f in got:
            click.echo(f.line())
        figures += got
    click.echo(f"trust_run_seconds {time.monotonic() - started:.1f} s <={'90' if quick else '7200'} "
               f"{'met' if time.monotonic() - started <= (90 if quick else 7200) else 'missed'}")
    sys.exit(0 if all(f.met is not False for f in figures) else 1)


if __name__ == "__main__":
    main()
