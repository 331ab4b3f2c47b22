"""Claim 3, no crash on garbage: the parsers, every ruleset's check_orders and Server.ingest, fuzzed."""
import os

import pytest

from tests.trust import garbage
from tests.trust.perturb import all_rulesets

N = int(os.environ.get("PBEM_TRUST_FUZZ_EXAMPLES", "150"))


def test_mail_parser():
    assert garbage.fuzz_mail(N) >= N * 0.9


def test_signature_parser():
    assert garbage.fuzz_signatures(N) >= N * 0.9


def test_order_file_parser():
    assert garbage.fuzz_order_files(N) >= N * 0.9


@pytest.mark.parametrize("name", sorted(all_rulesets()))
def test_check_orders(name):
    assert garbage.fuzz_check_orders(name, N // 3) >= N // 3 * 0.9


@pytest.mark.logs_errors  # a ruleset or template failure may be logged; the input must still be answered
def test_every_input_through_ingest_is_answered(server, duel_game, keys):
    from tests.helpers import orders_mail

    valid = orders_mail(server, duel_game, "east", "FIRE 2\nMOVE 0\n", keys["east"])
    tried, unanswered = garbage.fuzz_ingest(server, N // 2, valid)
    assert tried >= N // 2 * 0.9 and not unanswered, unanswered[:5]


def test_a_crashing_parser_would_be_caught(monkeypatch):
    """The fuzzer is not blind: a parser that chokes on a NUL byte is found."""
    import pbem.mail.inbound as inbound

    real = inbound.read_message

    def fragile(raw):
        if b"\x00" in raw:
            raise KeyError("boom")
        return real(raw)

    monkeypatch.setattr(garbage, "read_message", fragile)
    with pytest.raises(KeyError):
        garbage.fuzz_mail(200)


@pytest.mark.parametrize("raw", [
    b":\nContent-Disposition:;filename*=\x00''",  # found by the fuzzer: crashed read_message (get_filename)
    b"From: a@b.test\nContent-Type: text/plain; charset=\"ut\x00f-8\"\n\nPBEM-ORDERS 1\nGame: g1\n",
    b"From: a@b.test\nSubject: =?ut\x00f-8?q?x?=\n\nhello\n",
])
def test_inputs_that_once_crashed_are_answered(server, duel_game, raw):
    v = server.ingest(raw)
    assert v.status in ("rejected", "discarded"), v.line()
