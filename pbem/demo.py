"""`pbem demo`: a seed game played by two scripted sides through the real mail path.

Each scripted player reads its latest sitrep mail from the outbox Maildir,
takes the order form attached to it, fills in the body with the ruleset's
scripted orders (chosen from the view, as a human would), signs it, and
mails it into the inbox Maildir.  Each `tick` then ingests, acknowledges,
resolves and mails sitreps exactly as with real players.
"""
from __future__ import annotations

import email
import email.policy
import hashlib
import json
import sys
from email.message import EmailMessage
from pathlib import Path

import click

from pbem import rules
from pbem.core.orders import parse_order_file
from pbem.core.play import bot_dice
from pbem.core.ruleset import Phase
from pbem.crypto import sshsig
from pbem.daemon import tick
from pbem.home import Home
from pbem.replay import replay
from pbem.server import Server

#: Rulesets the demo prefers, in order, with the scenario it plays.
PREFERRED = (("bismarck", None), ("lew_morski", None), ("sky_ww2", None))


def _pick(server: Server, ruleset: str | None, scenario: str | None):
    if ruleset is None:
        names = {r.info.name for r in rules.RULESETS}
        ruleset = next((n for n, _ in PREFERRED if n in names), None)
        if ruleset is None:
            raise click.ClickException("no ruleset is installed")
    r = server.ruleset(ruleset)
    return r, scenario or r.info.scenarios[0].name


def _latest_mail(outbox: Path, message_id: str) -> EmailMessage:
    name = "pbem." + hashlib.sha256(message_id.encode()).hexdigest()[:40]
    for folder in ("new", "cur"):
        path = outbox / folder / name
        if path.exists():
            return email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    raise click.ClickException(f"sitrep {message_id} is not in {outbox}")


def _attachment(msg: EmailMessage, filename: str) -> str:
    for part in msg.iter_attachments():
        if part.get_filename() == filename:
            return part.get_content()
    raise click.ClickException(f"the sitrep mail has no {filename}")


def run_demo(home: Home, ruleset: str | None, scenario: str | None, turns: int, game_id: str,
             options: dict | None = None) -> str:
    if not home.exists():
        Server.init(home)
        click.echo(f"created pbem home {home.path}")
    server = Server(home.load())
    r, scenario = _pick(server, ruleset, scenario)
    existing = {g.id for g in server.games()}
    base, n = game_id, 1
    while game_id in existing:
        n += 1
        game_id = f"{base}-{n}"
    seed = hashlib.sha256(f"pbem demo {game_id}".encode()).digest()
    game = server.new_game(game_id, r.info.name, scenario, options, seed=seed, settings={"max_missing": 99})
    click.echo(f"game {game_id}: {game.title}")
    keys = {}
    keydir = home.path / "demo-keys" / game_id
    keydir.mkdir(parents=True, exist_ok=True)
    for seat in server.status(game_id)["seats"]:
        key = sshsig.generate_private_key()
        (keydir / seat["name"]).write_bytes(sshsig.private_key_pem(key))
        (keydir / seat["name"]).chmod(0o600)
        pub = sshsig.public_key_of(key, seat["name"])
        (keydir / f"{seat['name']}.pub").write_text(pub.line() + "\n")
        keys[seat["name"]] = key
        server.add_player(game_id, seat["name"], f"{seat['name']}@players.invalid", pub.line())
    tick(server)
    mails = 0
    with click.progressbar(length=turns or 1, label="playing turns", show_pos=True) as bar:
        last_turn = server.status(game_id)["turn"]
        while True:
            st = server.status(game_id)
            if st["status"] != "active" or (turns and st["turn"] > turns):
                break
            for seat in st["owing"]:
                mails += 1
                _send_orders(server, game_id, seat, keys[seat], mails)
            report = tick(server)
            if report.held:
                raise click.ClickException(f"game held: {server.status(game_id)['held_reason']}")
            if server.status(game_id)["turn"] > last_turn:
                bar.update(server.status(game_id)["turn"] - last_turn)
                last_turn = server.status(game_id)["turn"]
    st = server.status(game_id)
    out = home.path / "demo" / game_id
    out.mkdir(parents=True, exist_ok=True)
    for seat in st["seats"]:
        row = server.sitrep(game_id, seat["name"])
        (out / f"{seat['name']}.txt").write_text(row.text)
        (out / f"{seat['name']}.html").write_text(row.html.replace("cid:map@pbem", f"{seat['name']}.png"))
        if row.png:
            (out / f"{seat['name']}.png").write_bytes(row.png)
    click.echo(f"played to turn {st['turn']} ({st['status']}); {mails} signed order mails went through the inbox")
    if st["outcome"]:
        click.echo(f"result: {st['outcome']['text']}")
    rep = replay(server, game_id)
    click.echo(f"replay: {'OK, every state and sitrep reproduced byte for byte' if rep.ok else rep.problems}")
    click.echo("")
    click.echo(f"Every mail the server sent is a file in {home.outbox}/new (a Maildir: `mutt -f {home.outbox}`).")
    click.echo(f"The latest sitreps, as text, HTML and map picture: {out}/")
    first = st["seats"][0]["name"]
    pbem = _command()
    click.echo(f"Read one:  {pbem} --home {home.path} sitrep {game_id} {first}")
    click.echo(f"Its view:  {pbem} --home {home.path} sitrep {game_id} {first} --json")
    click.echo(f"Verify:    {pbem} --home {home.path} replay {game_id}")
    return game_id


def _command() -> str:
    """How the user ran pbem (e.g. .venv/bin/pbem after `make demo`), so the hints can be pasted."""
    argv0 = Path(sys.argv[0])
    if argv0.name != "pbem":
        return "pbem"
    try:
        return str(argv0.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(argv0)


def _send_orders(server: Server, game_id: str, seat: str, key, n: int) -> None:
    """Play one seat: read its sitrep mail, fill in the attached form, sign it, mail it in."""
    row = server.sitrep(game_id, seat)
    mail = _latest_mail(server.home.outbox, row.message_id)
    form, _ = parse_order_file(_attachment(mail, "orders.txt"))
    assert form is not None
    ruleset = server.ruleset(server.status(game_id)["ruleset"])
    phase = Phase(form.turn, form.phase, frozenset())
    body = ruleset.bot_orders(json.loads(row.view_json), seat,
                              bot_dice(hashlib.sha256(game_id.encode()).digest(), phase, seat))
    head = form.text.split("\n\n", 1)[0]
    filled, problems = parse_order_file(f"{head}\n\n{body}")
    assert filled is not None, problems  # the bot fills in the form the server made
    text = filled.text
    msg = EmailMessage()
    msg["From"] = f"{seat}@players.invalid"
    msg["To"] = server.home.address
    msg["Subject"] = f"orders {game_id} {seat} turn {form.turn} {form.phase}"
    msg["Message-ID"] = f"<demo-{game_id}-{n}@players.invalid>"
    msg.set_content(text + sshsig.sign(key, text.encode()))
    inbox = server.home.inbox
    (inbox / "tmp" / f"demo-{n}").write_bytes(bytes(msg))
    (inbox / "tmp" / f"demo-{n}").replace(inbox / "new" / f"{game_id}-{n}")
