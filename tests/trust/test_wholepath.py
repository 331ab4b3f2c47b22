"""Claim 3 on the whole path: hostile mail through intake AND delivery stops nothing and injects nothing.

Every input is ingested, then everything intake queued is delivered through the outbox Maildir, or SMTP
to an aiosmtpd server without SMTPUTF8, or one with it (``wholepath.Rig``).  After each input: no
crash or hang, 0 rows stuck, the sender answered, every delivered message with a clean header block
and no line of the signed text chosen by the sender.  Then the property: honest traffic around any
ONE hostile message is delivered exactly once.
"""
import os
from collections import defaultdict

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tests.trust import garbage
from tests.trust.hostile import CANARY, KNOWN, hostile_message, regressions
from tests.trust.wholepath import TRANSPORTS, Rig, check_message, honest_then_hostile

N = int(os.environ.get("PBEM_TRUST_FUZZ_EXAMPLES", "150"))
LIMIT = 1 << 20  # the default max_message_bytes, which the rigs keep
NAMES = sorted(regressions(LIMIT))


def summary(findings) -> str:
    """One line per kind of finding (with a count and the first input), not one per input."""
    groups = defaultdict(list)
    for f in findings:
        groups[(f.kind, f.via, f.detail[:70])].append(f)
    return "\n".join(f"{len(fs)} × {fs[0]}" for fs in groups.values())


@pytest.fixture(scope="module")
def rig(tmp_path_factory, keys):
    r = Rig.start(tmp_path_factory.mktemp("wholepath"), keys=keys)
    assert r.server.home.max_message_bytes == LIMIT
    yield r
    r.close()


@pytest.fixture(scope="module")
def pg_rig(tmp_path_factory, keys):
    from tests.conftest import postgres_schema

    with postgres_schema() as url:
        r = Rig.start(tmp_path_factory.mktemp("wholepath-pg"), url, keys=keys)
        yield r
        r.close()


@pytest.mark.logs_errors  # intake may log a message it could not process; the message must still be answered
def test_every_hostile_input_through_intake_and_delivery(rig):
    tried, findings = garbage.fuzz_whole_path(rig, N // 2)
    assert tried >= N // 2 * 0.9
    assert not findings, summary(findings)


def _large(name: str) -> bool:
    return "HTML" in name or "oversize" in name


# A large input's delivery is the same through every transport: the Maildir run covers it.
CASES = [(name, via) for name in NAMES for via in TRANSPORTS if via == "maildir" or not _large(name)]


@pytest.mark.logs_errors
@pytest.mark.parametrize("name, via", CASES)
def test_each_defect_of_issue_12(rig, name, via, request):
    """The inputs issue 12 named, each through each transport (the large ones through the Maildir)."""
    if name in KNOWN:
        request.applymarker(pytest.mark.xfail(strict=True, reason=KNOWN[name]))
    findings = rig.run(regressions(LIMIT)[name], via, name, unique=True)
    assert not findings, summary(findings)


def _honest_property(rig, examples: int) -> None:
    named = regressions(LIMIT)
    small = [raw for name, raw in sorted(named.items()) if "HTML" not in name and "oversize" not in name]

    @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(st.one_of(st.sampled_from(small), hostile_message(LIMIT), garbage.raw_mail), st.sampled_from(TRANSPORTS))
    def one(hostile, via):
        problems = honest_then_hostile(rig, hostile, via)
        assert not problems, problems

    one()


@pytest.mark.logs_errors
def test_honest_mail_is_delivered_once_whatever_one_hostile_message_was(rig):
    _honest_property(rig, max(10, N // 5))


@pytest.mark.postgres
@pytest.mark.logs_errors
def test_honest_mail_is_delivered_once_on_postgres(pg_rig):
    _honest_property(pg_rig, max(5, N // 15))


# ------------------------------------------------------------------------------------------ not blind
_CLEAN = (b"From: pbem <pbem@localhost>\r\nTo: a@b.test\r\nSubject: Re: hi\r\nMessage-ID: <1@x>\r\n"
          b"Auto-Submitted: auto-replied\r\nX-PBEM-Server: pbem\r\nContent-Type: text/plain; charset=utf-8\r\n"
          b"\r\nNOT ACCEPTED\r\n")


@pytest.mark.parametrize("raw, complaint", [
    (_CLEAN.replace(b"Subject: Re: hi", b"Subject: Re: hi\r\nBcc: x@y"), "does not write: bcc"),
    (_CLEAN.replace(b"Subject: Re: hi", b"Subject: Re: hi\nthere"), "not a header"),
    (_CLEAN.replace(b"Subject: Re: hi", b"Subject: Re: hi\rthere"), "bare CR"),
    (_CLEAN.replace(b"Subject: Re: hi", b"Subject: =?utf-8?q?hi=0Athere?="), "LF or NUL in the decoded subject"),
    (_CLEAN.replace(b"X-PBEM-Server: pbem\r\n", b""), "no X-PBEM-Server"),
    (_CLEAN.replace(b"To: a@b.test", b"To: a@b.test\r\nTo: c@d.test"), "appears 2 times"),
    (_CLEAN.replace(b"NOT ACCEPTED", b'NOT ACCEPTED ("x\r\n' + CANARY.encode() + b' accepted")'), "signed text"),
])
def test_the_header_check_sees_an_injection(raw, complaint):
    assert check_message(_CLEAN)[0] == []
    problems, _ = check_message(raw)
    assert any(complaint in p for p in problems), problems


def test_the_harness_sees_a_message_that_never_arrived(rig, monkeypatch):
    """A transport that reports acceptance and delivers nothing: stuck, and the sender unanswered."""
    class Drop:
        def send(self, raw, to, message_id, accepted=None):
            if accepted:
                accepted()

    monkeypatch.setitem(rig.transports, "maildir", Drop())
    findings = rig.run(regressions(LIMIT)["subject with a bare CR"], "maildir", "dropped", unique=True)
    assert any(f.kind == "stuck" and "never arrived" in f.detail for f in findings), summary(findings)
