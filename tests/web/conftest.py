"""A home with a web URL, a GM key and a duel played two turns by signed mail: what the web pages show."""
from __future__ import annotations

import json
import re

import pytest
from sqlmodel import col, select
from starlette.testclient import TestClient

from pbem.crypto import sshsig
from pbem.home import Home
from pbem.server import Server
from pbem.store.models import Outbox
from pbem.web.app import RateLimit, create_app
from tests.fixtures.duel import RULESET as DUEL
from tests.helpers import orders_mail

URL = "https://pbem.test"
LINK = re.compile(re.escape(URL) + r"/l/([A-Za-z0-9_.-]+)")


@pytest.fixture
def web_server(tmp_path, db_url, clock, keys):
    srv = Server.init(Home(tmp_path / "home"), db_url, clock=clock, extra_rulesets=(DUEL,))
    (srv.home.path / "gm.pub").write_text(sshsig.public_key_of(keys["gm"]).line() + "\n")
    srv.home.config.setdefault("server", {}).update({"gm_key": "gm.pub", "gm": "gm@club.test"})
    srv.home.config["web"] = {"url": URL}
    assert srv.deps.home.section("web")["url"] == URL  # the services read the same config
    yield srv
    srv.engine.dispose()


@pytest.fixture
def game(web_server, keys, clock):
    """Game g1, two turns of orders in: each side has had several sitreps."""
    web_server.new_game("g1", "duel", "standard", seed=b"fixed seed of game g1 for the web", title="Duel at dawn")
    for seat in ("east", "west"):
        web_server.add_player("g1", seat, f"{seat}@players.test", sshsig.public_key_of(keys[seat]).line())
    for turn in range(2):
        clock.advance(hours=1)
        st = web_server.status("g1")
        for seat in st["owing"]:
            body = "DIG\n" if st["window"] == "interrupt" else f"FIRE {turn + 2}\n"
            assert web_server.ingest(orders_mail(web_server, "g1", seat, body, keys[seat])).status == "accepted"
    return "g1"


def mailed_link(server, seat: str, game: str = "g1") -> str:
    """The path of the link in the seat's latest sitrep mail."""
    with server.reader() as s:
        rows = s.exec(select(Outbox).where(Outbox.kind == "sitrep", Outbox.game_id == game)
                      .order_by(col(Outbox.id).desc())).all()
    for row in rows:
        if row.to_addr == f"{seat}@players.test":
            m = LINK.search(json.loads(row.parts_json)["text"])
            assert m, "the sitrep mail carries no link"
            return f"/l/{m.group(1)}"
    raise AssertionError(f"no sitrep mailed to {seat}")


@pytest.fixture
def client(web_server):
    with TestClient(create_app(web_server.deps, limit=RateLimit(10_000)), base_url="https://pbem.test") as c:
        yield c
