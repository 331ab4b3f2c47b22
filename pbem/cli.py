"""The `pbem` command line (click).  A stable interface: other tools drive it.

All state lives under the home folder: ``--home DIR``, ``PBEM_HOME``, or ``./pbem-home``.
"""
from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

import click

from pbem.core.errors import PbemError
from pbem.home import Home, HomeError


def _server(ctx: click.Context):
    from pbem.server import Server

    home = Home.locate(ctx.obj["home"])
    try:
        return Server(home.load())
    except HomeError as exc:
        raise click.ClickException(str(exc)) from None


class Group(click.Group):
    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (PbemError, HomeError) as exc:
            raise click.ClickException(str(exc)) from None


@click.group(cls=Group)
@click.option("--home", envvar="PBEM_HOME", default="pbem-home", show_default=True,
              help="Folder holding config, database, keys and mail folders.")
@click.option("-v", "--verbose", count=True, help="Log more (-v info, -vv debug).")
@click.pass_context
def main(ctx: click.Context, home: str, verbose: int) -> None:
    """pbem — a play-by-email turn processor for wargames."""
    ctx.obj = {"home": home}
    logging.basicConfig(level=[logging.WARNING, logging.INFO, logging.DEBUG][min(verbose, 2)],
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")


@main.command()
@click.option("--database", help="Database URL (default: SQLite in the home folder).")
@click.pass_context
def init(ctx, database):
    """Create the home: config, migrated database, server key, mail folders."""
    from pbem.server import Server

    home = Home.locate(ctx.obj["home"])
    Server.init(home, database)
    click.echo(f"pbem home ready at {home.path}")
    click.echo(f"  config:     {home.config_path}")
    click.echo(f"  server key: {home.key_path}.pub")
    click.echo(f"  inbox:      {home.inbox} (Maildir)   outbox: {home.outbox} (Maildir)")


@main.command("rules")
@click.option("--provenance", is_flag=True, help="Also count data values by provenance.")
def rules_cmd(provenance):
    """List rulesets and their scenarios."""
    from pbem import rules
    from pbem.core.data import package_data, provenance_counts

    for r in rules.RULESETS:
        click.echo(f"{r.info.name}: {r.info.title}  (sides: {', '.join(r.info.sides)})")
        if provenance:
            total = {"rulebook": 0, "example": 0, "placeholder": 0}
            for data in package_data(f"pbem.rules.{r.info.name}").values():
                for k, v in provenance_counts(data).items():
                    total[k] += v
            click.echo("  data values: " + ", ".join(f"{v} {k}" for k, v in total.items()))
        for sc in r.info.scenarios:
            click.echo(f"  scenario {sc.name}: {sc.title}")
        for opt in r.info.options:
            choices = f" [{'|'.join(map(str, opt.choices))}]" if opt.choices else ""
            click.echo(f"  option {opt.name}={opt.default!r}{choices}: {opt.doc}")


@main.command()
@click.argument("ruleset")
@click.option("--all", "show_all", is_flag=True, help="List every value, not only placeholders.")
def placeholders(ruleset, show_all):
    """List the data values of RULESET that were chosen, not taken from the rulebook.

    An owner of the printed game can correct each in the named file, without touching code.
    """
    from pbem import rules
    from pbem.core.data import package_data, walk_provenance

    r = rules.find_ruleset(ruleset)
    root = Path(str(__import__("importlib").resources.files(f"pbem.rules.{r.info.name}")))
    for name, data in package_data(f"pbem.rules.{r.info.name}").items():
        for where, value, prov in walk_provenance(data):
            if show_all or prov == "placeholder":
                click.echo(f"{root / name}: {where} = {value!r} ({prov})")


@main.group()
def game():
    """Create and manage games."""


def _parse_options(items):
    out = {}
    for item in items:
        if "=" not in item:
            raise click.BadParameter(f"{item!r}: options are NAME=VALUE")
        k, v = item.split("=", 1)
        try:
            out[k] = json.loads(v)
        except json.JSONDecodeError:
            out[k] = v
    return out


@game.command("new")
@click.argument("game_id")
@click.option("--rules", "ruleset", required=True, help="Ruleset name (see `pbem rules`).")
@click.option("--scenario", required=True)
@click.option("--option", "options", multiple=True, help="NAME=VALUE, repeatable.")
@click.option("--seed-hex", help="The game's secret seed (hex); random by default.")
@click.option("--hours", type=float, help="Hours per phase (default from config).")
@click.option("--interrupt-hours", type=float, help="Hours for an interrupt window.")
@click.option("--wait/--no-wait", default=False, help="Wait for the deadline even when all orders are in.")
@click.option("--schedule", default="", help="Fixed deadlines, e.g. 'mon,thu 20:00 Europe/Warsaw'.")
@click.option("--set", "settings", multiple=True,
              help="min_hours, grace_hours, remind_hours, max_missing or vacation_hours =VALUE; repeatable.")
@click.option("--templates", "templates_dir", default=None, type=click.Path(exists=True, file_okay=False),
              help="A folder of template overrides for this game (same names as under templates/).")
@click.option("--title", default="")
@click.pass_context
def game_new(ctx, game_id, ruleset, scenario, options, seed_hex, hours, interrupt_hours, wait, schedule,
             settings, templates_dir, title):
    """Create GAME_ID from a ruleset and scenario."""
    from pbem.journal import SEED_BYTES

    try:
        seed = bytes.fromhex(seed_hex) if seed_hex else None
    except ValueError:
        raise click.BadParameter("--seed-hex must be hexadecimal") from None
    if seed is not None and not SEED_BYTES[0] <= len(seed) <= SEED_BYTES[1]:
        raise click.BadParameter(f"--seed-hex must be {SEED_BYTES[0]} to {SEED_BYTES[1]} bytes "
                                 f"({2 * SEED_BYTES[0]} to {2 * SEED_BYTES[1]} hex digits), so that nobody can "
                                 f"guess it; this one is {len(seed)} bytes. Leave it out for a random seed")
    server = _server(ctx)
    g = server.new_game(game_id, ruleset, scenario, _parse_options(options), seed=seed, hours=hours,
                        interrupt_hours=interrupt_hours, title=title, wait_for_deadline=wait, schedule=schedule,
                        settings=_parse_options(settings), templates_dir=templates_dir or "")
    seats = [x["name"] for x in server.status(g.id)["seats"]]
    click.echo(f"created {g.id}: {g.title}; sides: {', '.join(seats)}")
    click.echo(f"seed commitment {g.seed_commitment}; add a player for every side to start it")


@main.command()
@click.pass_context
def games(ctx):
    """List games with turn, phase and state."""
    for g in _server(ctx).games():
        click.echo(f"{g.id:20} {g.ruleset:12} {g.status:7} turn {g.turn:<3} {g.phase}")


@main.group()
def player():
    """Register players."""


@player.command("add")
@click.argument("game_id")
@click.argument("side")
@click.option("--email", required=True)
@click.option("--key", "keyfile", required=True, type=click.Path(exists=True, dir_okay=False),
              help="OpenSSH public key file (ssh-ed25519), e.g. from `pbem keygen`.")
@click.option("--tz", default="UTC", help="The player's time zone, e.g. Europe/Warsaw.")
@click.pass_context
def player_add(ctx, game_id, side, email, keyfile, tz):
    """Register the player of SIDE in GAME_ID."""
    server = _server(ctx)
    seat = server.add_player(game_id, side, email, Path(keyfile).read_text(), tz)
    click.echo(f"{game_id}/{seat.name}: {email} key {seat.fingerprint}")
    st = server.status(game_id)
    if st["status"] == "active" and st["turn"]:
        click.echo(f"{game_id} started: turn {st['turn']} {st['phase']}, sitreps queued")


@main.command()
@click.argument("path", type=click.Path(dir_okay=False))
def keygen(path):
    """Write an Ed25519 private key to PATH and its public key to PATH.pub."""
    from pbem.crypto import sshsig

    p = Path(path)
    if p.exists():
        raise click.ClickException(f"{p} exists; not overwriting a key")
    key = sshsig.generate_private_key()
    p.write_bytes(sshsig.private_key_pem(key))
    p.chmod(0o600)
    pub = sshsig.public_key_of(key, p.name)
    Path(f"{path}.pub").write_text(pub.line() + "\n")
    click.echo(f"wrote {p} and {p}.pub ({pub.fingerprint})")


@main.command()
@click.argument("file", type=click.File("r"))
@click.option("--key", "keyfile", required=True, type=click.Path(exists=True, dir_okay=False))
def sign(file, keyfile):
    """Print FILE in canonical form followed by its signature, ready to mail."""
    from pbem.core.orders import canonical
    from pbem.crypto import sshsig

    text = canonical(file.read())
    key = sshsig.load_private_key(Path(keyfile).read_bytes())
    click.echo(text + sshsig.sign(key, text.encode()), nl=False)


@main.command()
@click.argument("game_id")
@click.argument("side")
@click.pass_context
def orders(ctx, game_id, side):
    """Print the order form for SIDE's next phase, header filled in."""
    click.echo(_server(ctx).order_form(game_id, side), nl=False)


@main.command()
@click.argument("files", nargs=-1)
@click.pass_context
def ingest(ctx, files):
    """Take RFC 5322 messages or bare signed order files (FILE... or - for stdin).

    Prints one verdict line per message.  Exits 0 once the messages are stored, rejected ones
    included (the sender is told), whatever happens after (resolving, sending: the next pass
    does it); 75 (EX_TEMPFAIL) when one could not be stored, say the database is locked or
    down, so that an MTA keeps the message and tries again.
    """
    try:
        server = _server(ctx)
    except click.ClickException as exc:  # a home to fix: the MTA keeps the mail meanwhile, never bounces it
        click.echo(f"failed: {exc.message}", err=True)
        sys.exit(75)
    stored, failed = [], False
    for src in files or ("-",):
        try:
            raw = sys.stdin.buffer.read() if src == "-" else Path(src).read_bytes()
            verdict = server.ingest(raw, advance=False)  # stored and answered in one transaction
        except Exception as exc:  # storage down, locked, unreadable: let the MTA retry
            click.echo(f"failed {src}: {exc.__class__.__name__}: {exc}", err=True)
            failed = True
            continue
        click.echo(verdict.line())
        stored.append(verdict)
    if stored:
        _after_ingest(server, stored)
    if failed:
        sys.exit(75)  # EX_TEMPFAIL: the MTA will try again


def _after_ingest(server, verdicts) -> None:
    """Resolve what the messages completed and send the answers; a failure here is logged, never an exit
    status: the messages are stored, and the next pass (`pbem tick`, the daemon) finishes the work."""
    from pbem.delivery import deliver

    log = logging.getLogger("pbem.runner")
    try:
        for game_id in sorted({v.game for v in verdicts if v.status == "accepted" and v.game}):
            server.advance(game_id)
        deliver(server)
    except Exception as exc:
        log.warning("stored; resolving or sending failed and is left to the next pass: %s: %s",
                    exc.__class__.__name__, exc)


@main.command()
@click.pass_context
def tick(ctx):
    """One pass of the daemon: take in mail, resolve what is due, send what is queued."""
    from pbem.daemon import tick as do_tick

    report = do_tick(_server(ctx))
    click.echo(report.line())


@main.command()
@click.option("--interval", default=60.0, show_default=True, help="Seconds between passes.")
@click.pass_context
def daemon(ctx, interval):
    """Run the daemon until stopped (SIGINT/SIGTERM)."""
    from pbem.daemon import run

    run(_server(ctx), interval)


@main.group()
def gm():
    """GM commands; each is a journal entry that every side's next sitrep reports.

    The same commands arrive by mail as a PBEM-COMMAND 1 file signed with the GM's key.
    """


@gm.command("pause")
@click.argument("game_id")
@click.pass_context
def gm_pause(ctx, game_id):
    """Stop the clock."""
    click.echo(_server(ctx).pause(game_id))


@gm.command("resume")
@click.argument("game_id")
@click.pass_context
def gm_resume(ctx, game_id):
    """Restart a paused or held game."""
    click.echo(_server(ctx).resume(game_id))


@gm.command("extend")
@click.argument("game_id")
@click.argument("hours", type=float)
@click.pass_context
def gm_extend(ctx, game_id, hours):
    """Move the deadline HOURS later."""
    click.echo(_server(ctx).extend(game_id, hours))


@gm.command("resolve")
@click.argument("game_id")
@click.pass_context
def gm_resolve(ctx, game_id):
    """Resolve the current phase now; missing orders get the rules' default."""
    click.echo(_server(ctx).resolve_now(game_id))


@gm.command("rollback")
@click.argument("game_id")
@click.argument("seq", type=int)
@click.pass_context
def gm_rollback(ctx, game_id, seq):
    """Return to the state after journal entry SEQ (see `pbem gm journal`)."""
    click.echo(_server(ctx).rollback(game_id, seq))


@gm.command("replace")
@click.argument("game_id")
@click.argument("side")
@click.option("--email", required=True)
@click.option("--key", "keyfile", required=True, type=click.Path(exists=True, dir_okay=False))
@click.pass_context
def gm_replace(ctx, game_id, side, email, keyfile):
    """Give SIDE a new player (address and key)."""
    click.echo(_server(ctx).replace_player(game_id, side, email, Path(keyfile).read_text()))


@gm.command("resend")
@click.argument("game_id")
@click.argument("side")
@click.pass_context
def gm_resend(ctx, game_id, side):
    """Mail SIDE's latest sitrep again."""
    click.echo(_server(ctx).resend(game_id, side))


@gm.command("end")
@click.argument("game_id")
@click.argument("text", required=False, default="")
@click.pass_context
def gm_end(ctx, game_id, text):
    """End the game now and reveal the seed."""
    click.echo(_server(ctx).end_game(game_id, text))


@gm.command("journal")
@click.argument("game_id")
@click.pass_context
def gm_journal(ctx, game_id):
    """List the journal entries (what roll back takes)."""
    for e in _server(ctx).journal(game_id):
        click.echo(f"{e['seq']:5} {e['kind']:8} turn {e['turn']:<3} {e['phase']:24} {e['hash']} {e['what']}")


@main.command()
@click.argument("game_id")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def status(ctx, game_id, as_json):
    """Turn, phase, which sides owe orders, deadline, result when over."""
    st = _server(ctx).status(game_id)
    if as_json:
        click.echo(json.dumps(st, indent=2))
        return
    click.echo(f"{st['game']}: {st['title']}")
    click.echo(f"  status {st['status']}, turn {st['turn']}, phase {st['phase_title']} ({st['window']})")
    if st["status"] == "active":
        click.echo(f"  owing: {', '.join(st['owing']) or 'nobody'}; in: {', '.join(st['in']) or 'nobody'}")
        click.echo(f"  deadline: {st['deadline'] or 'none'}")
    if st["held_reason"]:
        click.echo(f"  held: {st['held_reason']}")
    if st["outcome"]:
        click.echo(f"  result: {st['outcome']['text']}")


@main.command()
@click.argument("game_id")
@click.argument("side")
@click.option("--turn", type=int)
@click.option("--json", "as_json", is_flag=True, help="Print the view the sitrep was rendered from.")
@click.option("--html", "as_html", is_flag=True, help="Print the HTML part.")
@click.pass_context
def sitrep(ctx, game_id, side, turn, as_json, as_html):
    """The latest (or turn N) sitrep of SIDE exactly as mailed."""
    row = _server(ctx).sitrep(game_id, side, turn)
    if as_json:
        click.echo(json.dumps(json.loads(row.view_json), indent=2, sort_keys=True))
    else:
        click.echo(row.html if as_html else row.text, nl=False)


@main.command()
@click.argument("game_id")
@click.pass_context
def replay(ctx, game_id):
    """Re-run GAME_ID from its journal and seed; exit 0 only if every byte is reproduced."""
    from pbem.replay import replay as do_replay

    report = do_replay(_server(ctx), game_id)
    for note in report.notes:
        click.echo(f"  note: {note}")
    if report.ok:
        click.echo(f"replay {game_id}: OK — {report.entries} journal entries and {report.sitreps} sitreps "
                   "reproduced byte for byte")
        return
    for p in report.problems:
        click.echo(f"  {p}", err=True)
    raise click.ClickException(f"replay {game_id}: {len(report.problems)} difference(s)")


@main.command()
@click.option("--rules", "ruleset", default=None, help="Ruleset to play (default: the first that is ready).")
@click.option("--scenario", default=None)
@click.option("--turns", default=4, show_default=True, help="How many turns to play (0: to the end).")
@click.option("--option", "options", multiple=True, help="NAME=VALUE game option, repeatable.")
@click.option("--game", "game_id", default="demo", show_default=True)
@click.pass_context
def demo(ctx, ruleset, scenario, turns, options, game_id):
    """Play a seed game between scripted sides through the real mail path."""
    from pbem.demo import run_demo

    run_demo(Home.locate(ctx.obj["home"]), ruleset, scenario, turns, game_id, _parse_options(options))


if __name__ == "__main__":  # pragma: no cover
    main()
