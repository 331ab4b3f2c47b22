"""Two daemons (separate processes) on one PostgreSQL database share the work exactly once."""
import email
import email.policy
import json
import os
import random
import shutil
import subprocess
import sys
import time
from collections import Counter

import pytest
from aiosmtpd.controller import Controller
from sqlmodel import select

from pbem.crypto import sshsig
from pbem.home import Home
from pbem.server import Server
from pbem.store.models import Journal, Outbox
from tests.fixtures.duel import RULESET as DUEL
from tests.helpers import orders_mail
from tests.test_delivery import Sink, free_port

GAMES = 12


@pytest.mark.postgres
@pytest.mark.slow
def test_two_daemons_one_database(tmp_path, db_url, keys):
    if not db_url.startswith("postgresql"):
        pytest.skip("several daemons share a PostgreSQL database")
    sink = Sink()
    smtp = Controller(sink, hostname="127.0.0.1", port=free_port())
    smtp.start()
    homes = [tmp_path / "a", tmp_path / "b"]
    driver = Server.init(Home(homes[0]), db_url, extra_rulesets=(DUEL,))
    cfg = driver.home.config_path.read_text()
    cfg += f'\n[smtp]\nhost = "127.0.0.1"\nport = {smtp.port}\nstarttls = false\n'
    homes[0].joinpath("config.toml").write_text(cfg)
    Home(homes[1]).create(db_url)
    homes[1].joinpath("config.toml").write_text(cfg)
    shutil.copy(homes[0] / "server_key", homes[1] / "server_key")  # one server identity, two machines
    driver = Server(Home(homes[0]).load(), extra_rulesets=(DUEL,))

    for n in range(GAMES):
        gid = f"m{n}"
        driver.new_game(gid, "duel", "standard", seed=f"several daemons {n}".encode())
        for seat in ("east", "west"):
            driver.add_player(gid, seat, f"{seat}-{n}@x.test", sshsig.public_key_of(keys[seat]).line())

    stop = tmp_path / "stop"
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    procs = [subprocess.Popen([sys.executable, "-m", "tests.fixtures.tick_loop", str(h), str(stop)], env=env)
             for h in homes]
    rng = random.Random(7)
    sent_orders = Counter()
    try:
        deadline = time.time() + 240
        while time.time() < deadline:
            statuses = [driver.status(f"m{n}") for n in range(GAMES)]
            if all(st["status"] == "over" for st in statuses):
                break
            for st in statuses:
                for seat in st["owing"]:
                    key = (st["game"], st["turn"], st["phase"], seat)
                    if sent_orders[key]:
                        continue
                    body = "DIG\n" if st["window"] == "interrupt" else f"FIRE {rng.randint(1, 5)}\nMOVE 0\n"
                    raw = orders_mail(driver, st["game"], seat, body, keys[seat])
                    inbox = homes[rng.randrange(2)] / "inbox"
                    name = f"{len(sent_orders)}-{seat}"
                    (inbox / "tmp" / name).write_bytes(raw)
                    (inbox / "tmp" / name).replace(inbox / "new" / name)
                    sent_orders[key] += 1
            time.sleep(0.2)
    finally:
        stop.touch()
        for p in procs:
            p.wait(timeout=60)
        smtp.stop()
    assert all(p.returncode == 0 for p in procs)
    assert all(driver.status(f"m{n}")["status"] == "over" for n in range(GAMES)), "games did not finish"
    with driver.session() as s:
        journal = s.exec(select(Journal).where(Journal.kind == "resolve")).all()
        outbox = s.exec(select(Outbox)).all()
    per_phase = Counter((j.game_id, json.loads(j.payload_json)["phase"]) for j in journal)
    assert max(per_phase.values()) == 1, "a phase was resolved twice"
    assert all(r.state == "sent" for r in outbox)
    received = Counter(m["Message-ID"] for m in sink.messages)
    assert max(received.values()) == 1, "a message was delivered twice"
    assert set(received) == {r.message_id for r in outbox}
    # no order lost: every order file put in an inbox is in the journal of its phase
    orders_in_journal = sum(len(json.loads(j.payload_json)["orders"]) for j in journal)
    assert orders_in_journal == sum(sent_orders.values())
    driver.engine.dispose()
