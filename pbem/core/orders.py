"""The order file: a signed, human-writable text with a header that binds it to one phase.

::

    PBEM-ORDERS 1
    Game: ladder-17
    Side: german
    Turn: 3
    Phase: movement

    # comments and blank lines are ignored
    MOVE TF1 D12 D13
    ON_SHADOW Bismarck EVADE

The header is inside the signed bytes, so a signature made for one game,
side, turn or phase cannot be replayed into another.  Mail clients change
line endings and trailing white space, so signatures are made and checked
over the *canonical* text (:func:`canonical`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import Code, OrderProblem

MAGIC = "PBEM-ORDERS 1"
COMMAND_MAGIC = "PBEM-COMMAND 1"
HEADER_KEYS = ("Game", "Side", "Turn", "Phase")
_KEY = re.compile(r"^([A-Za-z][A-Za-z-]*):\s*(.*)$")


def canonical(text: str) -> str:
    """Return the form of ``text`` that signatures cover.

    LF line endings, no trailing white space on any line, no leading or
    trailing blank lines, exactly one final newline, no byte-order mark.
    """
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n" if lines else ""


@dataclass(frozen=True)
class OrderLine:
    """One order: its 1-based line number in the order file, the text, and its words."""

    line_no: int
    text: str

    @property
    def words(self) -> tuple[str, ...]:
        return tuple(self.text.split())

    @property
    def verb(self) -> str:
        return self.words[0].upper() if self.words else ""


@dataclass(frozen=True)
class OrderFile:
    """A parsed order file (or GM command file): header values and the order lines."""

    kind: str  # "orders" or "command"
    header: dict[str, str]
    lines: tuple[OrderLine, ...]
    text: str  # the canonical text, exactly what the signature covers

    @property
    def game(self) -> str:
        return self.header.get("Game", "")

    @property
    def side(self) -> str:
        return self.header.get("Side", "")

    @property
    def turn(self) -> int:
        return int(self.header["Turn"])

    @property
    def phase(self) -> str:
        return self.header.get("Phase", "")


def parse_order_file(text: str) -> tuple[OrderFile | None, list[OrderProblem]]:
    """Split canonical order text into header and order lines.

    Returns the file, or ``None`` with the problems that make it unusable.
    Order lines are not interpreted here; that is the ruleset's job.
    """
    text = canonical(text)
    rows = text.split("\n")[:-1] if text else []
    if not rows or rows[0].strip() not in (MAGIC, COMMAND_MAGIC):
        return None, [OrderProblem(1, rows[0] if rows else "", Code.HEADER_MISSING,
                                   f"an order file starts with the line {MAGIC!r}")]
    kind = "orders" if rows[0].strip() == MAGIC else "command"
    header: dict[str, str] = {}
    problems: list[OrderProblem] = []
    i = 1
    while i < len(rows) and rows[i].strip():
        m = _KEY.match(rows[i].strip())
        if not m:
            break
        key = m.group(1).capitalize()
        if key in header:
            problems.append(OrderProblem(i + 1, rows[i], Code.HEADER_BAD, f"header {key!r} given twice"))
        header[key] = m.group(2).strip()
        i += 1
    # a club command file names a ladder instead of a game (pbem.club.ladder)
    needed = HEADER_KEYS if kind == "orders" else () if header.get("Ladder") else ("Game",)
    for key in needed:
        if not header.get(key):
            problems.append(OrderProblem(0, "", Code.HEADER_MISSING,
                                         f"the header has no {key!r} line (expected {key}: ...)"))
    if "Turn" in header and not header["Turn"].isdigit():
        problems.append(OrderProblem(0, f"Turn: {header['Turn']}", Code.HEADER_BAD, "turn must be a whole number"))
    lines = tuple(
        OrderLine(n + 1, row.strip())
        for n, row in enumerate(rows)
        if n >= i and row.strip() and not row.lstrip().startswith("#")
    )
    if problems:
        return None, problems
    return OrderFile(kind, header, lines, text), []


def order_file_text(kind: str, header: dict[str, str], body: str) -> str:
    """Build the canonical text of an order file from a header and a body."""
    magic = MAGIC if kind == "orders" else COMMAND_MAGIC
    head = "\n".join(f"{k}: {v}" for k, v in header.items())
    return canonical(f"{magic}\n{head}\n\n{body}")
