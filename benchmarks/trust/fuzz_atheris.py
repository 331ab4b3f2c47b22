"""Coverage-guided fuzzing (atheris) of the parsers a stranger's mail reaches, for a time budget.

    python benchmarks/trust/fuzz_atheris.py --seconds 60 [--target mail|signature|orders|wholepath|all]

Runs each target in a child process (atheris takes over the process) for its share of the
budget and prints ``atheris <target> <runs> inputs, <crashes> crashes``.  A crash is any exception
other than the parser's documented one; the input that caused it is left in
``benchmarks/trust/crashes/``.  Exit status 1 when anything crashed.

``wholepath`` is the whole path of tests/trust/wholepath.py: each input becomes a message (the
fuzzer's bytes as a Subject, a From, a body, or the whole message), is ingested by a real server,
and everything it queued is delivered through the Maildir or SMTP (aiosmtpd with and without
SMTPUTF8); any finding there (crash, hang, stuck, unanswered, header injection) is a crash.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
TARGETS = ("mail", "signature", "orders", "wholepath")
#: libFuzzer options per target: the whole path times itself (SIGALRM, which libFuzzer's -timeout also uses)
OPTIONS = {"wholepath": ["-timeout=0", "-max_len=65536"]}


def child(target: str) -> None:
    import atheris

    with atheris.instrument_imports():
        from pbem.core.orders import parse_order_file
        from pbem.crypto import sshsig
        from pbem.mail.inbound import MailError, read_message

    def mail(data: bytes) -> None:
        try:
            read_message(data)
        except MailError:
            pass

    def signature(data: bytes) -> None:
        fdp = atheris.FuzzedDataProvider(data)
        text = fdp.ConsumeUnicodeNoSurrogates(fdp.remaining_bytes())
        for t in (text, f"{sshsig.BEGIN}\n{text}\n{sshsig.END}\n"):
            try:
                sshsig.verify(t, b"message")
            except sshsig.SignatureError:
                pass
        try:
            sshsig.PublicKey.parse(text)
        except ValueError:
            pass

    def orders(data: bytes) -> None:
        fdp = atheris.FuzzedDataProvider(data)
        f, problems = parse_order_file(fdp.ConsumeUnicodeNoSurrogates(fdp.remaining_bytes()))
        if f is not None and f.kind == "orders":
            f.turn  # noqa: B018

    if target == "wholepath":
        atheris.Setup(sys.argv, wholepath_target())
    else:
        atheris.Setup(sys.argv, {"mail": mail, "signature": signature, "orders": orders}[target])
    atheris.Fuzz()


def wholepath_target():
    """One message through intake and delivery per input; a finding raises (atheris keeps the input)."""
    import logging
    import tempfile

    import atheris

    with atheris.instrument_imports():
        import pbem.delivery  # noqa: F401
        import pbem.mail.compose  # noqa: F401
        import pbem.mail.inbound  # noqa: F401
    from tests.trust.hostile import STRANGER
    from tests.trust.wholepath import TRANSPORTS, Rig

    logging.disable(logging.CRITICAL)
    rig = Rig.start(Path(tempfile.mkdtemp(prefix="pbem-atheris-")))

    def one(data: bytes) -> None:
        if len(data) < 2:
            return
        via, shape, value = TRANSPORTS[data[0] % len(TRANSPORTS)], data[1] % 4, data[2:]
        head = f"From: {STRANGER}\r\nTo: pbem@localhost\r\n".encode()
        raw = {0: head + b"Subject: " + value + b"\r\n\r\nhello\r\n",
               1: b"From: " + value + b"\r\nSubject: orders\r\n\r\nhello\r\n",
               2: head + b"Subject: orders\r\nContent-Type: text/html\r\n\r\n" + value,
               3: value}[shape]
        findings = rig.run(raw, via, unique=True)
        if findings:
            raise AssertionError("\n".join(map(str, findings)))

    return one


def seed_corpus(directory: Path) -> Path:
    """Issue 12's inputs as the whole-path target's first corpus: byte 0 picks the transport, byte 1 the
    shape (3: the whole message), the rest is the message."""
    sys.path.insert(0, str(ROOT))
    from tests.trust.hostile import KNOWN, regressions

    directory.mkdir(parents=True, exist_ok=True)
    for old in directory.glob("issue12-*"):  # the list changes as cases are fixed or found
        old.unlink()
    known = [r for name, r in regressions(1 << 20).items() if name in KNOWN]  # would end every run at once
    for n, raw in enumerate(r for r in regressions(1 << 20).values() if len(r) < 65536 and r not in known):
        for via in range(3):
            (directory / f"issue12-{n}-{via}").write_bytes(bytes([via, 3]) + raw)
    (directory / "subject-crlf").write_bytes(b"\x00\x00=?us-ascii?Q?hi=0D=0ABcc:_x@y?=")
    (directory / "from-utf8").write_bytes("\x01\x01Jörg <jörg@exämple.de>".encode())
    return directory


def run(seconds: float, targets=TARGETS) -> list[tuple[str, int, int]]:
    """Fuzz each target for ``seconds / len(targets)``; return (target, inputs, crashes)."""
    crashes_dir = HERE / "crashes"
    crashes_dir.mkdir(exist_ok=True)
    out = []
    share = max(1, int(seconds / len(targets)))
    for target in targets:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        corpus = [str(seed_corpus(crashes_dir.parent / "corpus" / target))] if target == "wholepath" else []
        proc = subprocess.run([sys.executable, __file__, "--child", target, f"-max_total_time={share}",
                               "-rss_limit_mb=1024", "-timeout=5", f"-artifact_prefix={crashes_dir}/{target}-",
                               "-print_final_stats=1", *OPTIONS.get(target, []), *corpus],
                              capture_output=True, text=True, env=env, cwd=ROOT, timeout=share + 120)
        log = proc.stderr + proc.stdout
        runs = [int(x) for x in re.findall(r"stat::number_of_executed_units:\s*(\d+)", log)]
        crashed = int(proc.returncode != 0)
        out.append((target, runs[-1] if runs else 0, crashed))
        if crashed:
            print(log[-3000:], file=sys.stderr)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--target", default="all", choices=("all",) + TARGETS)
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args, rest = ap.parse_known_args()
    if args.child:
        sys.argv = [sys.argv[0]] + rest
        child(args.child)
        return 0
    bad = 0
    for target, runs, crashes in run(args.seconds, TARGETS if args.target == "all" else (args.target,)):
        print(f"atheris {target} {runs} inputs, {crashes} crashes")
        bad += crashes
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
