"""The order file's header and canonical form."""
import pytest

from pbem.core.errors import Code
from pbem.core.orders import canonical, parse_order_file


def test_canonical_form_survives_what_clients_do():
    """CRLF, trailing blanks, a BOM and extra blank lines do not change the signed text."""
    a = "PBEM-ORDERS 1\nGame: g\n\nMOVE A 1\n"
    b = "\ufeff\r\n\r\nPBEM-ORDERS 1  \r\nGame: g\t\r\n\r\nMOVE A 1 \r\n\r\n\r\n"
    assert canonical(a) == canonical(b) == a


def test_header_and_lines():
    f, problems = parse_order_file("PBEM-ORDERS 1\nGame: g1\nSide: east\nTurn: 3\nPhase: fire\n\n"
                                   "# a comment\nFIRE 2\n\nMOVE +1\n")
    assert not problems
    assert (f.game, f.side, f.turn, f.phase) == ("g1", "east", 3, "fire")
    assert [(ln.line_no, ln.text) for ln in f.lines] == [(8, "FIRE 2"), (10, "MOVE +1")]


@pytest.mark.parametrize("text, code, fragment", [
    ("hello\n", Code.HEADER_MISSING, "PBEM-ORDERS 1"),
    ("PBEM-ORDERS 1\nGame: g\nSide: s\nTurn: x\nPhase: p\n", Code.HEADER_BAD, "whole number"),
    ("PBEM-ORDERS 1\nGame: g\nTurn: 1\nPhase: p\n", Code.HEADER_MISSING, "'Side'"),
    ("PBEM-ORDERS 1\nGame: g\nGame: h\nSide: s\nTurn: 1\nPhase: p\n", Code.HEADER_BAD, "twice"),
])
def test_header_problems_are_named(text, code, fragment):
    f, problems = parse_order_file(text)
    assert f is None
    assert any(p.code == code and fragment in p.message for p in problems), problems
