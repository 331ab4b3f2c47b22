"""Operator logging: pbem's own lines at the chosen level, libraries quiet unless asked, text or JSON.

A daemon that logs nothing cannot be watched, and one whose -v prints a scheduler's
three lines per pass (thousands a day) cannot be read; so the libraries stay at
WARNING up to -v and speak only at -vv, while pbem's loggers say what pbem did.
"""
from __future__ import annotations

import json
import logging
import sys
from datetime import datetime, UTC

#: Libraries that are chatty at INFO; silenced below -vv.
THIRD_PARTY = ("apscheduler", "aiosmtpd", "mail.log", "sqlalchemy", "alembic")
LEVELS = (logging.WARNING, logging.INFO, logging.DEBUG)
TEXT_FORMAT = "%(asctime)s %(name)s %(levelname)s %(message)s"

#: The attributes every LogRecord has; anything else came in through ``extra=``.
_STANDARD = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime", "taskName"}


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, and the record's extra fields."""

    def format(self, record: logging.LogRecord) -> str:
        out = {"time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
               "level": record.levelname, "logger": record.name, "message": record.getMessage()}
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in out:
                out[key] = value
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str, ensure_ascii=False)


class StderrHandler(logging.StreamHandler):
    """Writes to whatever ``sys.stderr`` is at the time (a test runner swaps it between commands)."""

    def __init__(self) -> None:
        super().__init__()

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, value) -> None:  # StreamHandler sets it; the property decides
        pass


def setup(verbose: int = 0, fmt: str = "text") -> None:
    """Send log records to stderr: WARNING, -v INFO, -vv DEBUG (libraries too only at -vv)."""
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, StderrHandler)]:
        root.removeHandler(old)  # a second setup (tests, or main invoked twice) replaces the first
    handler = StderrHandler()
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(TEXT_FORMAT))
    root.addHandler(handler)
    root.setLevel(LEVELS[min(verbose, 2)])
    logging.getLogger("pbem").setLevel(logging.NOTSET)  # undo an earlier operator()
    for name in THIRD_PARTY:
        logging.getLogger(name).setLevel(logging.NOTSET if verbose >= 2 else logging.WARNING)


def operator(logger: str = "pbem") -> None:
    """Let pbem's own INFO lines through even without -v (the daemon: its log is what an operator reads)."""
    log = logging.getLogger(logger)
    if log.getEffectiveLevel() > logging.INFO:
        log.setLevel(logging.INFO)
