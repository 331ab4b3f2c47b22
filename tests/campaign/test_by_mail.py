"""A campaign by mail and on the web: the administrative step's form mailed to each seat at `advance`, signed
administrative orders mailed in (answered at once, a later file replacing the earlier one, replays, forgeries
and another campaign's seats refused and isolated), `pbem campaign list`, and the public campaign page."""
import json
from email.message import EmailMessage

import pytest
from click.testing import CliRunner
from sqlmodel import col, select
from starlette.testclient import TestClient

import pbem.rules  # noqa: F401  (tests import pbem.rules)
from pbem.campaign.service import Campaigns
from pbem.cli import main
from pbem.crypto import sshsig
from pbem.home import Home
from pbem.server import Server
from pbem.store.models import Outbox
from pbem.web.app import create_app

from .play import players, signed


@pytest.fixture
def srv(tmp_path, db_url):
    server = Server.init(Home(tmp_path / "home"), db_url)
    yield server
    server.engine.dispose()


@pytest.fixture(scope="module")
def keys():
    return {s: sshsig.generate_private_key() for s in ("de", "gb", "de2", "gb2", "mallory")}


def admin_step(srv, camp, cid, keys, de="de", gb="gb"):
    """A campaign whose first game the GM ended, with its administrative step open."""
    camp.new(cid, "lew_morski/raid", players(keys, {"de": "de", "gb": "gb"}) if de == "de" else
             {"de": players(keys, {de: "de"})[de], "gb": players(keys, {gb: "gb"})[gb]})
    srv.end_game(f"{cid}-1", "the GM ends the probe")
    assert "administrative step is open" in camp.advance(cid)


def mail(text: str, n: int, sender: str = "gb@players.test") -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, "pbem@server.test", "campaign orders"
    msg["Message-ID"] = f"<camp-{n}@players.test>"
    msg.set_content(text)
    return bytes(msg)


def replies(srv, kind=None):
    with srv.reader() as s:
        rows = s.exec(select(Outbox).order_by(col(Outbox.id))).all()
    return [(r.kind, r.to_addr, r.subject, json.loads(r.parts_json)) for r in rows if kind is None or r.kind == kind]


def last_reply(srv):
    kind, to, subject, parts = replies(srv)[-1]
    return kind, to, subject, parts["text"]


def test_form_mailed_at_advance_and_orders_by_mail(srv, keys):
    camp = Campaigns(srv)
    admin_step(srv, camp, "r1", keys)
    forms = [r for r in replies(srv) if "administrative step after game 1" in r[2]]
    assert sorted(r[1] for r in forms) == ["de@players.test", "gb@players.test"]
    gb_mail = next(r for r in forms if r[1] == "gb@players.test")
    assert gb_mail[3]["form"].startswith("PBEM-ORDERS 1\nGame: r1\nSide: gb\nTurn: 1\nPhase: admin")
    text = gb_mail[3]["text"]
    gb_units = [u["name"] for u in camp.status("r1")["sides"]["gb"]["units"]]
    de_units = [u["name"] for u in camp.status("r1")["sides"]["de"]["units"]]
    assert "Spit-1" in gb_units and all(u in text for u in gb_units)
    assert not any(u in text for u in de_units)  # no side reads another's roster
    assert "RECOVER, REPLACE, PROMOTE and CHOOSE" in text and "no deadline" in text and "[campaign §C3]" in text
    head = gb_mail[3]["form"].split("\n\n", 1)[0]

    # accepted: the answer says what the file will do
    v = srv.ingest(mail(signed(head + "\n\nCHOOSE Spit-1\n", keys["gb"]), 1))
    assert v.status == "accepted", v.reasons
    kind, to, subject, text = last_reply(srv)
    assert (kind, to, subject) == ("ack", "gb@players.test", "[r1] accepted: gb admin orders")
    assert "- CHOOSE Spit-1" in text and "Into the next game: Spit-1." in text
    assert camp.status("r1")["sides"]["gb"]["chosen"] == ["Spit-1"]

    # refused: every problem, with the campaign rule and what is legal; nothing changes
    v = srv.ingest(mail(signed(head + "\n\nCHOOSE Me110-1\nPROMOTE Spit-2\n", keys["gb"]), 2))
    assert v.status == "rejected"
    kind, to, subject, text = last_reply(srv)
    assert kind == "reject" and to == "gb@players.test" and subject.startswith("[r1] REJECTED: gb admin orders — 2")
    assert "you have no unit 'Me110-1' (your units: " in text and "campaign §C6" in text
    assert "a promotion costs 2" in text and "campaign §C5" in text
    assert camp.status("r1")["sides"]["gb"]["chosen"] == ["Spit-1"]

    # a later file replaces the earlier one: the earlier CHOOSE is gone, not added to
    v = srv.ingest(mail(signed(head + "\n\n# second thoughts\nCHOOSE Spit-2\n", keys["gb"]), 3))
    assert v.status == "accepted", v.reasons
    assert "replaces your earlier file" in last_reply(srv)[3]
    assert camp.status("r1")["sides"]["gb"]["chosen"] == ["Spit-2"]
    v = srv.ingest(mail(signed(head + "\n\n# again\n", keys["gb"]), 4))
    assert v.status == "accepted" and camp.status("r1")["sides"]["gb"]["chosen"] is None

    # the replaced file sent again is a replay: refused, the standing stays
    v = srv.ingest(mail(signed(head + "\n\nCHOOSE Spit-1\n", keys["gb"]), 5))
    assert v.status == "rejected" and "already carried out" in last_reply(srv)[3]
    assert camp.status("r1")["sides"]["gb"]["chosen"] is None
    assert camp.replay("r1").ok, camp.replay("r1").problems

    # a GM edit between two files of a side survives the later file
    camp.edit("r1", "gb", ["POINTS", "3"])
    v = srv.ingest(mail(signed(head + "\n\n# third\nCHOOSE Spit-1\n", keys["gb"]), 6))
    assert v.status == "accepted" and camp.status("r1")["sides"]["gb"]["replacements"] == 3
    assert camp.replay("r1").ok, camp.replay("r1").problems
    assert "r1-2" in camp.advance("r1")
    first = srv.sitrep("r1-2", "gb").text  # the next game's first sitrep tells each seat it has begun
    assert "CAMPAIGN — Lew Morski: the course of a raid: game 2" in first and "Spit-1" in first

    # once the next game started, an administrative file is refused with what to do
    v = srv.ingest(mail(signed(head + "\n\n# late\n", keys["gb"]), 7))
    assert v.status == "rejected" and "not between games (it is playing)" in last_reply(srv)[3]


def test_hostile_mail_is_answered_and_isolated(srv, keys):
    camp = Campaigns(srv)
    admin_step(srv, camp, "ca", keys)
    admin_step(srv, camp, "cb", keys, de="de2", gb="gb2")
    before = {cid: camp.status(cid) for cid in ("ca", "cb")}
    head_a = camp.form("ca", "gb").split("\n\n", 1)[0]
    head_b = camp.form("cb", "gb").split("\n\n", 1)[0]
    n0 = len(replies(srv))

    # garbage, an unsigned file, a stranger's key, a forged seat, a seat of another campaign
    assert srv.ingest(mail("\x00\xff garbage PBEM-ORDERS", 10)).status == "rejected"
    assert srv.ingest(mail(head_a + "\n\nCHOOSE Spit-1\n", 11)).status == "rejected"
    v = srv.ingest(mail(signed(head_a + "\n\nCHOOSE Spit-1\n", keys["mallory"]), 12, "mallory@evil.test"))
    assert v.status == "rejected"
    kind, to, subject, text = last_reply(srv)
    assert to == "mallory@evil.test" and "ca" not in subject and "is not a signed order file" in text
    assert "Spit" not in text  # a stranger learns nothing of the campaign
    v = srv.ingest(mail(signed(head_a.replace("Side: gb", "Side: de") + "\n\nCHOOSE Spit-1\n", keys["gb"]), 13))
    assert v.status == "rejected"
    kind, to, subject, text = last_reply(srv)
    assert to == "gb@players.test" and "key of seat 'gb' of campaign ca" in text
    v = srv.ingest(mail(signed(head_b + "\n\nCHOOSE Spit-1\n", keys["gb"]), 14))  # gb of ca, for cb's gb
    assert v.status == "rejected"
    kind, to, subject, text = last_reply(srv)
    assert to == "gb@players.test" and "not registered in a game 'cb'" in text
    assert "gb2@players.test" not in [r[1] for r in replies(srv)[n0:]]  # cb's player is not told of it
    for cid in ("ca", "cb"):
        assert camp.status(cid)["sides"] == before[cid]["sides"] and camp.replay(cid).ok

    # one batch: a forged file and a good one; the good one is taken, cb untouched
    vs = srv.ingest_many([mail(signed(head_b + "\n\nCHOOSE Spit-1\n", keys["mallory"]), 15),
                          mail(signed(head_b + "\n\nCHOOSE Spit-2\n", keys["gb2"]), 16, "gb2@players.test"),
                          mail(signed(head_a + "\n\nRECOVER Nowhere\n", keys["gb"]), 17)])
    assert [v.status for v in vs] == ["rejected", "accepted", "rejected"]
    assert camp.status("cb")["sides"]["gb"]["chosen"] == ["Spit-2"]
    assert camp.status("ca")["sides"] == before["ca"]["sides"]


def test_campaign_list_and_web_page_show_no_roster(srv, keys, tmp_path):
    camp = Campaigns(srv)
    admin_step(srv, camp, "r1", keys)
    camp.edit("r1", "de", ["VP", "2"])
    out = CliRunner().invoke(main, ["--home", str(tmp_path / "home"), "campaign", "list"])
    assert out.exit_code == 0 and "r1: Lew Morski: the course of a raid (lew_morski) — admin, 1 game(s)" in out.output
    client = TestClient(create_app(srv.deps))
    page = client.get("/campaigns/")
    assert page.status_code == 200 and 'href="/campaigns/r1"' in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    page = client.get("/campaigns/r1")
    assert page.status_code == 200 and "<script" not in page.text
    assert 'href="/archive/r1-1/"' in page.text and "the GM ends the probe" in page.text
    assert "between games" in page.text and "<td>de</td><td>2</td>" in page.text
    for side in ("de", "gb"):
        for u in camp.status("r1")["sides"][side]["units"]:
            assert u["name"] not in page.text  # no roster of any side on a public page
    assert client.get("/campaigns/nothing").status_code == 404
    assert client.get("/archive/r1-1/").status_code == 200
