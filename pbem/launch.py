"""The `pbem` program: hands a piped message to a running daemon before loading the command line.

An MTA starts ``pbem [--home DIR] ingest -`` once per message.  When a daemon listens for LMTP
(``[lmtp] listen``), that process needs nothing but the standard library: this module recognises that
one command line, hands the message over (:mod:`pbem.pipe`) and exits, without importing click or any
of the engine.  Every other command line, and a message the daemon did not take, goes to
:mod:`pbem.cli` as before (the message already read is passed on, never read twice).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path


def pipe_home(args: list[str]) -> Path | None:
    """The home folder when ``args`` are ``[--home DIR] [-v...] ingest [-]``; None for any other command."""
    home = os.environ.get("PBEM_HOME") or "pbem-home"
    rest = list(args)
    while rest and rest[0] != "ingest":
        arg = rest.pop(0)
        if arg == "--home" and rest:
            home = rest.pop(0)
        elif arg.startswith("--home="):
            home = arg[len("--home="):]
        elif not (arg in ("--verbose", "-v", "-vv", "-vvv")):
            return None  # an option this shortcut does not know (--help, --log-format...): the full CLI
    if rest not in (["ingest"], ["ingest", "-"]):
        return None
    return Path(home).resolve()


def main() -> None:
    home = pipe_home(sys.argv[1:])
    if home is not None:
        from pbem import pipe

        settings = pipe.read_config(home / "config.toml")
        if settings.listen:
            raw, within = pipe.read_message(sys.stdin.buffer, settings.max_bytes)
            if within:
                try:
                    said = pipe.hand_off(settings.listen, raw, sender=pipe.envelope_sender(),
                                         recipient=settings.address)
                except pipe.HandOffFailed as exc:
                    print(f"-: {exc}; taking it in directly", file=sys.stderr)
                else:
                    print(f"{pipe.status_of(said)} handed to the daemon on {settings.listen}: {said}")
                    sys.exit(0)
            pipe.READ_ALREADY = (raw, within)  # the command line takes it in from here
            pipe.TRIED = True
    from pbem.cli import main as cli

    cli()


if __name__ == "__main__":  # pragma: no cover
    main()
