"""The `pbem` command line (click).  A stable interface: other tools drive it.

All state lives under the home folder: ``--home DIR``, ``PBEM_HOME``, or ``./pbem-home``.

The commands import the engine's modules inside their functions, for start-up speed only: `pbem --help`
and `pbem sign` must not load the database layer and every ruleset.  No such import hides a cycle.
"""
from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import Any

import click

from pbem.core.errors import PbemError
from pbem.home import Home, HomeError


def _server(ctx: click.Context):
    from pbem.server import Server  # imported on use, like every engine module here: `pbem --help` stays fast

    home = Home.locate(ctx.obj["home"])
    try:
        return Server(home.load())
    except HomeError as exc:
        raise click.ClickException(str(exc)) from None


def _gm():
    """The GM command functions over the server's services (imported on use, for start-up speed)."""
    from pbem import gm

    return gm


class Group(click.Group):
    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (PbemError, HomeError) as exc:
            raise click.ClickException(str(exc)) from None


@click.group(cls=Group)
@click.option("--home", envvar="PBEM_HOME", default="pbem-home", show_default=True,
              help="Folder holding config, database, keys and mail folders.")
@click.option("-v", "--verbose", count=True,
              help="Log more: -v pbem's info lines, -vv debug and the libraries' own lines.")
@click.option("--log-format", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="json: one JSON object per log line (time, level, logger, message, fields).")
@click.version_option(package_name="pbem", message="pbem %(version)s")
@click.pass_context
def main(ctx: click.Context, home: str, verbose: int, log_format: str) -> None:
    """pbem — a play-by-email turn processor for wargames."""
    from pbem import logsetup

    ctx.obj = {"home": home}
    logsetup.setup(verbose, log_format)


@main.command()
@click.option("--database", help="Database URL (default: SQLite in the home folder).")
@click.pass_context
def init(ctx, database):
    """Create the home: config, migrated database, server key, mail folders."""
    from pbem.server import Server

    home = Home.locate(ctx.obj["home"])
    Server.init(home, database)
    click.echo(f"pbem home ready at {home.path}")
    click.echo(f"  config:     {home.config_path}  (every key is there; `pbem config check` shows them)")
    click.echo(f"  server key: {home.key_path}.pub")
    click.echo(f"  inbox:      {home.inbox} (Maildir)   outbox: {home.outbox} (Maildir)")
    if not home.section("server").get("gm"):
        click.echo("  GM notices: nobody yet; set [server] gm (and gm_key) in the config")


@main.group("config")
def config_group():
    """Check the configuration."""


@config_group.command("check")
@click.pass_context
def config_check(ctx):
    """Check config.toml; print the settings in force (secrets masked) and which transports are live.

    Exits non-zero, naming each wrong key, when the config is not valid.
    """
    from pbem import config

    home = Home.locate(ctx.obj["home"]).load()  # an invalid config raises HomeError: exit 1 with the reasons
    click.echo(f"# {home.config_path}: valid")
    click.echo(f"# database in use: {config.mask_url(home.db_url)}")
    for what, how in config.transports(home).items():
        click.echo(f"# {what + ':':12} {how}")
    click.echo("")
    click.echo("\n".join(config.effective(home)).rstrip())


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
@click.option("--data", "data_dir", default=None, type=click.Path(exists=True, file_okay=False),
              help="A folder of corrections to the ruleset's data files (same names as its data/*.toml), "
                   "checked now and kept with the game.")
@click.option("--clock", default="", help="A time bank per side instead of one window per phase: "
              "'bank:3d+1d/5d' (start, added each phase, most it holds; d, h or m).")
@click.option("--abandon-after", type=int, default=None,
              help="Missed phases in a row before a side is in civil disorder (the rules' scripted player "
                   "plays it); 0 never (the default).")
@click.option("--bot", "bots", multiple=True, help="A side the rules' scripted player plays from the start; "
              "repeatable (practice against the engine by mail).")
@click.option("--vacation-earn", type=float, default=None,
              help="Hours of vacation a player earns a day of play, up to vacation_hours (0: all at once, "
                   "the default; --set vacation_hours=0 forbids vacation).")
@click.option("--title", default="")
@click.pass_context
def game_new(ctx, game_id, ruleset, scenario, options, seed_hex, hours, interrupt_hours, wait, schedule,
             settings, templates_dir, data_dir, clock, abandon_after, bots, vacation_earn, title):
    """Create GAME_ID from a ruleset and scenario."""
    from pbem import gamedata
    from pbem.journal import SEED_BYTES

    try:
        seed = bytes.fromhex(seed_hex) if seed_hex else None
    except ValueError:
        raise click.BadParameter("--seed-hex must be hexadecimal") from None
    if seed is not None and not SEED_BYTES[0] <= len(seed) <= SEED_BYTES[1]:
        raise click.BadParameter(f"--seed-hex must be {SEED_BYTES[0]} to {SEED_BYTES[1]} bytes "
                                 f"({2 * SEED_BYTES[0]} to {2 * SEED_BYTES[1]} hex digits), so that nobody can "
                                 f"guess it; this one is {len(seed)} bytes. Leave it out for a random seed")
    try:  # read and checked before the game exists: a bad folder makes no game
        overrides = gamedata.read_folder(data_dir, ruleset) if data_dir else None
    except gamedata.GameDataError as exc:
        raise click.BadParameter(str(exc), param_hint="--data") from None
    if clock:
        from pbem.clocks.bank import ClockError, ClockSpec

        try:
            ClockSpec.parse(clock)
        except ClockError as exc:
            raise click.BadParameter(str(exc), param_hint="--clock") from None
    server = _server(ctx)
    g = server.lifecycle.new_game(game_id, ruleset, scenario, _parse_options(options), seed=seed, hours=hours,
                                  interrupt_hours=interrupt_hours, title=title, wait_for_deadline=wait,
                                  schedule=schedule, settings=_parse_options(settings),
                                  templates_dir=templates_dir or "", data=overrides)
    if overrides:
        click.echo(f"data corrected for this game: {', '.join(sorted(overrides.documents))}")
    if clock or abandon_after is not None or bots or vacation_earn is not None:
        click.echo(_gm().clock_settings(server.services, g.id, clock=clock or None, abandon_after=abandon_after,
                                        bots=tuple(bots), vacation_earn=vacation_earn))
    seats = [x["name"] for x in server.queries.status(g.id)["seats"]]
    click.echo(f"created {g.id}: {g.title}; sides: {', '.join(seats)}")
    click.echo(f"seed commitment {g.seed_commitment}; add a player for every side to start it")


def _gm_zone(server, tz: str | None) -> str:
    """The zone the GM reads times in: --tz, else the config's [server] tz, else UTC."""
    from pbem.contact import ContactError, check_tz

    name = tz or server.home.section("server").get("tz") or "UTC"
    try:
        return check_tz(name)
    except ContactError as exc:
        raise click.BadParameter(str(exc), param_hint="--tz") from None


_LANG_OPTION = click.option("--lang", default=None,
                            help="The language the player reads: en, ru or pl (default: the config's [server] lang).")
_TZ_OPTION = click.option("--tz", default=None,
                          help="Show times in this zone (default: the config's [server] tz, else UTC).")


@main.command()
@_TZ_OPTION
@click.option("--json", "as_json", is_flag=True, help="A list of objects with ISO times, for tools.")
@click.option("--owing", is_flag=True, help="Only games waiting for someone (orders or players).")
@click.option("--held", is_flag=True, help="Only held games.")
@click.option("--all", "show_all", is_flag=True, help="Include archived games.")
@click.pass_context
def games(ctx, tz, as_json, owing, held, show_all):
    """List games: status, turn, phase, who owes, deadline and time left, last activity.

    A held game's reason follows on its own line.  Archived games are left out unless --all.
    """
    from pbem.overview import games_json, games_table

    server = _server(ctx)
    zone = _gm_zone(server, tz)
    now = server.clock()
    rows = [r for r in server.queries.overview(archived=show_all)
            if (not owing or r["owing"]) and (not held or r["status"] == "held")]
    if as_json:
        click.echo(json.dumps(games_json(rows, now), indent=2, ensure_ascii=False))
        return
    for line in games_table(rows, zone, now):
        click.echo(line)


@main.command()
@click.option("--json", "as_json", is_flag=True, help="A list of objects, for tools.")
@click.pass_context
def players(ctx, as_json):
    """List every player (a player is their key) with address, zone, the sides they hold, ratings and reliability."""
    from pbem.club.listing import club_lines, players as club_players
    from pbem.overview import players_table

    server = _server(ctx)
    found = club_players(server.services, server.queries.players())
    if as_json:
        click.echo(json.dumps(found, indent=2, ensure_ascii=False))
        return
    for p in found:
        lines = players_table([p])
        for line in lines[:1] + club_lines(p) + lines[1:]:
            click.echo(line)
    if not found:
        click.echo("no players registered")


@main.group("club")
def club_group():
    """Club play: players' names, zones and preferences, key changes, voided games (see also `pbem ratings`)."""


@club_group.command("set")
@click.argument("who")
@click.option("--name", help="The name shown in lists and ladders.")
@click.option("--tz", help="The player's own time zone, e.g. Europe/Warsaw.")
@click.option("--email", help="The player's club address (each seat keeps its own).")
@click.option("--kind", type=click.Choice(["human", "bot"]), help="Only games of human players are rated.")
@click.option("--pref", "prefs", multiple=True, help="NAME=VALUE, repeatable; NAME= removes it.")
@click.pass_context
def club_set(ctx, who, name, tz, email, kind, prefs):
    """Change what the club knows of WHO (a key fingerprint, its beginning, or an address)."""
    from pbem.club.players import find, set_profile

    parsed = {}
    for item in prefs:
        key, eq, value = item.partition("=")
        if not eq:
            raise click.BadParameter(f"{item!r}: give NAME=VALUE", param_hint="--pref")
        parsed[key.strip()] = value.strip()
    server = _server(ctx)
    with server.deps.session() as s:
        from pbem.club.players import sync

        sync(s, server.deps.clock())
        player = find(s, who)
        changed = set_profile(s, player, server.deps.clock(), name=name, tz=tz, email=email, kind=kind,
                              prefs=parsed)
        s.commit()
    click.echo(f"{player.fingerprint}: changed {', '.join(changed) or 'nothing'}")


@club_group.command("newkey")
@click.argument("who")
@click.argument("keyfile", type=click.Path(exists=True, dir_okay=False))
@click.pass_context
def club_newkey(ctx, who, keyfile):
    """Give WHO a new key (KEYFILE, an OpenSSH public key) in every game of theirs still running.

    Players do it themselves with a PBEM-COMMAND file signed with the old key: NEWKEY <public key>.
    """
    from pbem.club.players import find, new_key

    server = _server(ctx)
    with server.deps.session() as s:
        from pbem.club.players import sync

        sync(s, server.deps.clock())
        fingerprint = find(s, who).fingerprint
        s.commit()
    click.echo(new_key(server.services, fingerprint, Path(keyfile).read_text(), "the GM"))


@club_group.command("add")
@click.argument("email")
@click.argument("keyfile", type=click.Path(exists=True, dir_okay=False))
@click.option("--name", default="", help="The name shown in lists and ladders (default: the address's name).")
@click.option("--tz", default="UTC", show_default=True, help="The player's own time zone.")
@click.pass_context
def club_add(ctx, email, keyfile, name, tz):
    """Make a club member of the key KEYFILE (an OpenSSH public key) at EMAIL, before any game of theirs."""
    from pbem.club.ladder import add_member

    click.echo(add_member(_server(ctx).services, email, Path(keyfile).read_text(), name=name, tz=tz))


@main.group("ladder")
def ladder_group():
    """Club ladders: players challenge those a few places above them by signed mail (Ladder: NAME files)."""


@ladder_group.command("new")
@click.argument("name")
@click.option("--rules", "ruleset", required=True, help="The ruleset every game of the ladder is played with.")
@click.option("--scenario", default="", help="The scenario (default: the ruleset's first).")
@click.option("--above", type=int, default=3, show_default=True, help="Places up a player may challenge.")
@click.option("--open", "open_max", type=int, default=2, show_default=True,
              help="Challenges a player may have under way at once.")
@click.option("--cooldown-days", type=float, default=7.0, show_default=True,
              help="Days before challenging the same player again.")
@click.option("--expire-days", type=float, default=7.0, show_default=True,
              help="Days an unanswered challenge stays open.")
@click.option("--min-reliability", type=float, default=0.0, show_default=True,
              help="The reliability score (0-100) a challenger needs.")
@click.option("--sides", type=click.Choice(["alternate"]), default="alternate", show_default=True,
              help="How sides are given: alternating between the pair's games.")
@click.pass_context
def ladder_new(ctx, name, ruleset, scenario, above, open_max, cooldown_days, expire_days, min_reliability, sides):
    """Make the ladder NAME."""
    from pbem.club.ladder import new_ladder

    row = new_ladder(_server(ctx).services, name, ruleset, scenario, above=above, open_max=open_max,
                     cooldown_days=cooldown_days, expire_days=expire_days, min_reliability=min_reliability,
                     sides=sides)
    click.echo(f"ladder {row.name}: {row.ruleset}/{row.scenario}; players send 'PBEM-COMMAND 1' files with "
               f"'Ladder: {row.name}' and JOIN, CHALLENGE <player>, ACCEPT <n>, DECLINE <n>, LEAVE")


@ladder_group.command("show")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="The standings as JSON.")
@click.pass_context
def ladder_show(ctx, name, as_json):
    """The ladder NAME: its limits, standings and challenges under way."""
    from pbem.club.ladder import show, standings

    server = _server(ctx)
    if as_json:
        click.echo(json.dumps(standings(server.services, name), indent=2))
    else:
        click.echo(show(server.services, name), nl=False)


@main.group("tournament")
def tournament_group():
    """Round-robin and Swiss tournaments: two games per pair (sides swapped), standings mailed after each round."""


@tournament_group.command("new")
@click.argument("name")
@click.option("--rules", "ruleset", required=True, help="The ruleset every game is played with.")
@click.option("--scenario", default="", help="The scenario (default: the ruleset's first).")
@click.option("--players", required=True, help="Club members, comma-separated: key fingerprints or addresses.")
@click.option("--min-reliability", type=float, default=0.0, show_default=True,
              help="The reliability score (0-100) every player needs; those under it are refused, named.")
@click.option("--system", type=click.Choice(["round-robin", "swiss"]), default="round-robin", show_default=True,
              help="Round-robin (everyone meets everyone) or Swiss (paired by score each round, no repeats).")
@click.option("--rounds", "swiss_rounds", type=int, default=0,
              help="A Swiss tournament's number of rounds (at most half the players, rounded up).")
@click.pass_context
def tournament_new(ctx, name, ruleset, scenario, players, min_reliability, system, swiss_rounds):
    """Make the tournament NAME and start its first round.

    Refused when a player's reliability is under --min-reliability, or a player abandoned more games than
    they completed since (each is named, with what they lack)."""
    from pbem.club.tournament import new_tournament

    who = [p.strip() for p in players.split(",") if p.strip()]
    if swiss_rounds and system != "swiss":
        raise click.UsageError("--rounds is for --system swiss (a round-robin has as many as it needs)")
    click.echo(new_tournament(_server(ctx).services, name, ruleset, scenario, who, min_reliability=min_reliability,
                              system=system, swiss_rounds=swiss_rounds))


@tournament_group.command("standings")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="As JSON.")
@click.pass_context
def tournament_standings(ctx, name, as_json):
    """NAME's standings: points (win 1, draw 1/2), then the Sonneborn-Berger tie-break."""
    from pbem.club.tournament import standings, table

    server = _server(ctx)
    if as_json:
        click.echo(json.dumps(standings(server.services, name), indent=2))
    else:
        click.echo(table(server.services, name), nl=False)


@club_group.command("void")
@click.argument("game_id")
@click.option("--reason", required=True, help="Why: it goes into the game's journal.")
@click.pass_context
def club_void(ctx, game_id, reason):
    """Leave the finished game GAME_ID out of the ratings (a journal entry; then `pbem ratings --update`)."""
    from pbem.club.listing import void

    click.echo(void(_server(ctx).services, game_id, reason))


@main.command()
@click.option("--update", is_flag=True, help="Recompute every rating from the journals and store them.")
@click.option("--export", "export_file", type=click.Path(dir_okay=False),
              help="Write the inputs (results from the journals, parameters, library) and the ratings as JSON.")
@click.option("--verify", is_flag=True,
              help="Recompute from the journals and fail (exit 1) naming any difference with what is stored.")
@click.option("--inputs", "inputs_file", type=click.Path(exists=True, dir_okay=False),
              help="With --verify: recompute an export's ratings from its own inputs; needs no pbem home.")
@click.option("--scope", default="overall", show_default=True, help="overall, or a ruleset's name.")
@click.option("--sides", is_flag=True, help="Show each scenario side's estimated advantage instead.")
@click.option("--json", "as_json", is_flag=True, help="The stored ratings as JSON.")
@click.pass_context
def ratings(ctx, update, export_file, verify, inputs_file, scope, sides, as_json):
    """Ratings (OpenSkill, Plackett-Luce), per ruleset and overall, that anyone can recompute from the journals."""
    from pbem.club import ratings as R

    if inputs_file:
        if not verify:
            raise click.BadParameter("--inputs goes with --verify", param_hint="--inputs")
        problems = R.verify_export(json.loads(Path(inputs_file).read_text()))
        _verdict(problems, f"every rating of {inputs_file} recomputed from its inputs")
        return
    server = _server(ctx)
    if update:
        click.echo(f"{R.update(server.deps)} ratings recomputed from the journals and stored")
    if export_file:
        data = R.export(server.deps)
        Path(export_file).write_text(json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
        click.echo(f"wrote {export_file}: {len(data['results'])} rated result(s), {len(data['ratings'])} rating(s)")
    if verify:
        _verdict(R.verify(server.deps), "every stored rating recomputed from the journals")
        return
    if update or export_file:
        return
    if as_json:
        click.echo(json.dumps(R.stored(server.deps), indent=2, ensure_ascii=False))
    elif sides:
        for row in R.side_advantages(R.stored(server.deps), scope) or [{"side": "no side rated yet"}]:
            click.echo(f"{row['side']:<48} " + (f"{row['advantage']:+7.2f}  sigma {row['sigma']:.2f}  "
                                                f"{row['games']} game(s)" if "advantage" in row else ""))
    else:
        from pbem.club.listing import ratings_table

        for line in ratings_table(server.services, scope):
            click.echo(line)
        stale = R.verify(server.deps)
        if stale:  # a game ended (or was voided) since the last update
            click.echo(f"(the stored ratings are not those of the journals now: {len(stale)} difference(s); "
                       "`pbem ratings --update` recomputes them, `--verify` names them)")


def _verdict(problems: list[str], ok: str) -> None:
    failures = [p for p in problems if not p.startswith("note: ")]
    for p in problems:
        click.echo(p, err=bool(failures))
    if failures:
        click.echo(f"ratings verify: {len(failures)} difference(s)", err=True)
        sys.exit(1)
    click.echo(f"ratings verify: OK, {ok}")


@main.group()
def player():
    """Register players."""


@player.command("add")
@click.argument("game_id")
@click.argument("side")
@click.option("--email", required=True)
@click.option("--key", "keyfile", required=True, type=click.Path(exists=True, dir_okay=False),
              help="OpenSSH public key file (ssh-ed25519), e.g. from `pbem keygen`.")
@click.option("--tz", default="UTC", show_default=True, help="The player's time zone, e.g. Europe/Warsaw.")
@_LANG_OPTION
@click.pass_context
def player_add(ctx, game_id, side, email, keyfile, tz, lang):
    """Register the player of SIDE in GAME_ID."""
    server = _server(ctx)
    if lang:  # before the seat is taken: the last player's seat starts the game and its first sitreps
        from pbem.i18n import set_seat_lang

        set_seat_lang(server.deps, game_id, side, lang)
    seat = server.lifecycle.add_player(game_id, side, email, Path(keyfile).read_text(), tz)
    click.echo(f"{game_id}/{seat.name}: {email} key {seat.fingerprint}")
    st = server.queries.status(game_id)
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
@click.option("--key", "keyfile", required=True, type=click.Path(exists=True, dir_okay=False),
              help="Your private key (not the .pub file).")
@click.option("--passphrase-file", type=click.File("r"),
              help="Read the key's passphrase from this file (first line) instead of asking.")
def sign(file, keyfile, passphrase_file):
    """Print FILE in canonical form followed by its signature, ready to mail.

    A key protected by a passphrase asks for it (or reads it from --passphrase-file).
    """
    from pbem.core.orders import canonical
    from pbem.crypto import sshsig

    text = canonical(file.read())
    key = _private_key(Path(keyfile), passphrase_file)
    click.echo(text + sshsig.sign(key, text.encode()), nl=False)


def _private_key(path: Path, passphrase_file):
    """Load a signing key; ask for its passphrase on the terminal only when it has one."""
    from pbem.crypto import sshsig

    data = path.read_bytes()
    passphrase = passphrase_file.readline().rstrip("\r\n").encode() if passphrase_file else None
    try:
        try:
            return sshsig.load_private_key(data, passphrase, name=str(path))
        except sshsig.PassphraseNeeded:
            if passphrase is not None:
                raise
        # on stderr, so that `pbem sign orders.txt --key KEY > signed.txt` keeps only the signed text
        asked = click.prompt(f"Passphrase for {path}", hide_input=True, err=True)
        return sshsig.load_private_key(data, asked.encode(), name=str(path))
    except sshsig.KeyFileError as exc:
        raise click.ClickException(str(exc)) from None


@main.command()
@click.argument("message", type=click.Path(exists=True, dir_okay=False))
@click.option("--key", "keyfile", type=click.Path(exists=True, dir_okay=False),
              help="The server's public key (server_key.pub); default: the home's key, if there is a home.")
@click.pass_context
def verify(ctx, message, keyfile):
    """Check the server's signature on a reply or sitrep MESSAGE, saved as it was mailed (.eml).

    Prints the signing key's fingerprint and OK; exits 1 with the reason otherwise.
    """
    from pbem.crypto import sshsig
    from pbem.mail.signed import UnsignedMessage, verify_message

    expected = None
    if keyfile:
        try:
            expected = sshsig.PublicKey.parse(Path(keyfile).read_text())
        except ValueError as exc:
            raise click.ClickException(f"{keyfile}: {exc}") from None
    else:
        home = Home.locate(ctx.obj["home"])
        pub = Path(f"{home.key_path}.pub") if home.config_path.exists() else None
        if pub is not None and pub.exists():
            keyfile, expected = str(pub), sshsig.PublicKey.parse(pub.read_text())
    try:
        key = verify_message(Path(message).read_bytes())
    except (UnsignedMessage, sshsig.SignatureError) as exc:
        click.echo(f"{message}: NOT VERIFIED: {exc}", err=True)
        sys.exit(1)
    if expected is not None and key.fingerprint != expected.fingerprint:
        click.echo(f"{message}: NOT VERIFIED: signed by {key.fingerprint}, not by the server key {keyfile} "
                   f"({expected.fingerprint})", err=True)
        sys.exit(1)
    if expected is None:
        click.echo(f"{message}: signature OK, by {key.fingerprint}; no server key given (--key server_key.pub): "
                   "compare this fingerprint with the one your GM published")
    else:
        click.echo(f"{message}: OK, signed by the server key {key.fingerprint}")


@main.command()
@click.argument("game_id")
@click.argument("side")
@click.pass_context
def orders(ctx, game_id, side):
    """Print the order form for SIDE's next phase, header filled in."""
    click.echo(_server(ctx).queries.order_form(game_id, side), nl=False)


def _read_message(src: str, limit: int) -> bytes:
    """At most ``limit + 1`` bytes of a message in memory, however large it is (see read_capped)."""
    return _read_source(src, limit)[0]


def _read_source(src: str, limit: int) -> tuple[bytes, bool]:
    """The message from a file or ``-`` (stdin), and whether it is within ``limit`` (see pbem.pipe)."""
    from pbem import pipe

    if src == "-":
        if pipe.READ_ALREADY is not None:  # read by pbem.launch, which tried the daemon with it
            taken, pipe.READ_ALREADY = pipe.READ_ALREADY, None
            return taken
        return pipe.read_message(sys.stdin.buffer, limit)
    with open(src, "rb") as fh:
        return pipe.read_message(fh, limit)


@main.command()
@click.argument("files", nargs=-1)
@click.pass_context
def ingest(ctx, files):
    """Take RFC 5322 messages or bare signed order files (FILE... or - for stdin).

    Prints one verdict line per message.  Exits 0 once the messages are stored, rejected ones
    included (the sender is told), whatever happens after (resolving, sending: the next pass
    does it); 75 (EX_TEMPFAIL) when one could not be stored, say the database is locked or
    down or its schema is older than this pbem, so that an MTA keeps the message and tries again.

    When the config names a daemon's LMTP listener ([lmtp] listen) and the daemon answers, each
    message is handed to it and the process exits at once; otherwise it is taken in here.
    """
    from pbem import pipe

    settings = pipe.read_config(Home.locate(ctx.obj["home"]).config_path)
    direct = _DirectIntake(ctx)
    for src in files or ("-",):
        try:
            raw, within = _read_source(src, settings.max_bytes)
        except OSError as exc:  # unreadable: let the MTA retry
            click.echo(f"failed {src}: {exc.__class__.__name__}: {exc}", err=True)
            direct.failed = True
            continue
        if settings.listen and within and not (src == "-" and pipe.TRIED):
            try:
                said = pipe.hand_off(settings.listen, raw, sender=pipe.envelope_sender(), recipient=settings.address)
            except pipe.HandOffFailed as exc:
                click.echo(f"{src}: {exc}; taking it in directly", err=True)
            else:
                click.echo(f"{pipe.status_of(said)} handed to the daemon on {settings.listen}: {said}")
                continue
        direct.ingest(src, raw)
    direct.finish()


class _DirectIntake:
    """The messages no daemon took, taken in by this process: the engine is opened for the first one."""

    def __init__(self, ctx: click.Context) -> None:
        self.ctx, self.failed = ctx, False
        self.server: Any = None  # a pbem.server.Server, opened for the first message
        self.stored: list[Any] = []

    def open(self):
        if self.server is None:
            try:
                self.server = _server(self.ctx)
            except click.ClickException as exc:  # a home to fix: the MTA keeps the mail meanwhile, never bounces it
                click.echo(f"failed: {exc.message}", err=True)
                sys.exit(75)
            from pbem.store.db import schema_problem

            try:
                problem = schema_problem(self.server.engine)
            except Exception as exc:  # the database is down or locked
                click.echo(f"failed: the database: {exc.__class__.__name__}: {exc}", err=True)
                sys.exit(75)
            if problem:  # never write to a schema this code does not know; the MTA keeps the mail
                click.echo(f"failed: {problem}", err=True)
                sys.exit(75)
        return self.server

    def ingest(self, src: str, raw: bytes) -> None:
        server = self.open()
        try:
            verdict = server.intake.ingest_many([raw], advance=False)[0]  # stored and answered in one transaction
        except Exception as exc:  # storage down, locked, unreadable: let the MTA retry
            click.echo(f"failed {src}: {exc.__class__.__name__}: {exc}", err=True)
            self.failed = True
            return
        click.echo(verdict.line())
        self.stored.append(verdict)

    def finish(self) -> None:
        if self.stored:
            _after_ingest(self.server, self.stored)
        if self.failed:
            sys.exit(75)  # EX_TEMPFAIL: the MTA will try again


def _after_ingest(server, verdicts) -> None:
    """Resolve what the messages completed and send the answers; a failure here is logged, never an exit
    status: the messages are stored, and the next pass (`pbem tick`, the daemon) finishes the work."""
    from pbem.delivery import deliver

    log = logging.getLogger("pbem.runner")
    try:
        for game_id in sorted({v.game for v in verdicts if v.status == "accepted" and v.game}):
            server.resolution.advance(game_id)
        deliver(server)
    except Exception as exc:
        log.warning("stored; resolving or sending failed and is left to the next pass: %s: %s",
                    exc.__class__.__name__, exc)


@main.command()
@click.pass_context
def tick(ctx):
    """One pass of the daemon: take in mail, resolve what is due, send what is queued."""
    from pbem.daemon import tick as do_tick, warn_if_no_gm

    server = _server(ctx)
    warn_if_no_gm(server.home)
    report = do_tick(server)
    click.echo(report.line())


@main.command()
@click.option("--interval", default=60.0, show_default=True, help="Seconds between passes.")
@click.pass_context
def daemon(ctx, interval):
    """Run the daemon until stopped (SIGINT/SIGTERM)."""
    from pbem import logsetup
    from pbem.daemon import run

    logsetup.operator()  # the banner, a line per pass and each verdict, even without -v
    run(_server(ctx), interval)


@main.group(invoke_without_command=True)
@click.option("--listen", default=None, help="host:port to serve on (default: [web] listen, 127.0.0.1:8080).")
@click.pass_context
def web(ctx, listen):
    """Serve the read-only web pages (seat links, the archive, the GM's dashboard) with uvicorn.

    Put it behind a reverse proxy for TLS (deploy/nginx/pbem-web.conf); set [web] url so that
    sitreps carry each side's link.
    """
    if ctx.invoked_subcommand is not None:
        return
    import uvicorn

    from pbem import logsetup
    from pbem.web.app import create_app

    server = _server(ctx)
    host, _, port = (listen or server.home.section("web")["listen"]).rpartition(":")
    logsetup.operator()
    # no access log: a seat link's token is in the path of its first request
    uvicorn.run(create_app(server.deps), host=host, port=int(port), log_config=None, access_log=False,
                proxy_headers=True, forwarded_allow_ips="127.0.0.1")


@web.command("rotate")
@click.pass_context
def web_rotate(ctx):
    """Make a new web secret: every link in every sitrep sent so far, and every open session, stops working."""
    from pbem.web.links import rotate_secret

    home = Home.locate(ctx.obj["home"])
    if not home.exists():
        raise click.ClickException(f"no pbem home at {home.path}")
    rotate_secret(home.path)
    click.echo("web secret rotated: every link and web session made before now is revoked; "
               "the next sitreps carry new links")


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
    click.echo(_gm().pause(_server(ctx).services, game_id))


@gm.command("resume")
@click.argument("game_id")
@click.pass_context
def gm_resume(ctx, game_id):
    """Restart a paused or held game."""
    click.echo(_gm().resume(_server(ctx).services, game_id))


@gm.command("extend")
@click.argument("game_id")
@click.argument("hours", type=float)
@click.pass_context
def gm_extend(ctx, game_id, hours):
    """Move the deadline HOURS later."""
    click.echo(_gm().extend(_server(ctx).services, game_id, hours))


@gm.command("resolve")
@click.argument("game_id")
@click.pass_context
def gm_resolve(ctx, game_id):
    """Resolve the current phase now; missing orders get the rules' default."""
    click.echo(_gm().resolve_now(_server(ctx).services, game_id))


@gm.command("rollback")
@click.argument("game_id")
@click.argument("seq", type=int)
@click.pass_context
def gm_rollback(ctx, game_id, seq):
    """Return to the state after journal entry SEQ (see `pbem gm journal`)."""
    click.echo(_gm().rollback(_server(ctx).services, game_id, seq))


@gm.command("replace")
@click.argument("game_id")
@click.argument("side")
@click.option("--email", default=None, help="The player's new mail address.")
@click.option("--key", "keyfile", default=None, type=click.Path(exists=True, dir_okay=False),
              help="A new public key: a new player (their vacation allowance starts again).")
@click.option("--tz", default=None, help="The player's new time zone, e.g. Europe/Warsaw.")
@_LANG_OPTION
@click.pass_context
def gm_replace(ctx, game_id, side, email, keyfile, tz, lang):
    """Change SIDE's player: a new address, key, zone or language, each optional; what is not given is kept."""
    if email is None and keyfile is None and tz is None and lang is None:
        raise click.UsageError("give at least one of --email, --key, --tz and --lang")
    server = _server(ctx)
    if lang is not None:
        from pbem.i18n import set_seat_lang

        click.echo(f"{game_id}/{side}: reads {set_seat_lang(server.deps, game_id, side, lang)}")
        if email is None and keyfile is None and tz is None:
            return
    pubkey = Path(keyfile).read_text() if keyfile else None
    click.echo(_gm().replace_player(server.services, game_id, side, email, pubkey, tz=tz))


@gm.command("resend")
@click.argument("game_id")
@click.argument("side")
@click.pass_context
def gm_resend(ctx, game_id, side):
    """Mail SIDE's latest sitrep again."""
    click.echo(_gm().resend(_server(ctx).services, game_id, side))


@gm.command("end")
@click.argument("game_id")
@click.argument("text", required=False, default="")
@click.pass_context
def gm_end(ctx, game_id, text):
    """End the game now and reveal the seed."""
    click.echo(_gm().end_game(_server(ctx).services, game_id, text))


@gm.command("archive")
@click.argument("game_id")
@click.option("--force", is_flag=True, help="End a game that is not over first (its players are told).")
@click.pass_context
def gm_archive(ctx, game_id, force):
    """Put a finished or mistaken game away: no deadline, reminder or mail again; `games` hides it."""
    click.echo(_gm().archive(_server(ctx).services, game_id, force=force))


@gm.command("journal")
@click.argument("game_id")
@_TZ_OPTION
@click.pass_context
def gm_journal(ctx, game_id, tz):
    """List the journal entries (what roll back takes): when, by whom, what."""
    from datetime import datetime

    from pbem.overview import long_time

    server = _server(ctx)
    zone = _gm_zone(server, tz)
    click.echo(f"  SEQ {'WHEN (' + zone + ')':22} {'BY':12} {'KIND':8} TURN PHASE")
    for e in server.queries.journal(game_id):
        when = long_time(datetime.fromisoformat(e["at"]), zone).rsplit(" ", 1)[0] if e["at"] else "?"
        click.echo(f"{e['seq']:5} {when:22} {e['by']:12} {e['kind']:8} {e['turn']:<4} {e['phase']}  "
                   f"{e['hash']} {e['what']}".rstrip())


@main.command("export")
@click.argument("game_id")
@click.option("--out", "out", default=None, type=click.Path(),
              help="Where to write (default: GAME_ID.zip, or the folder GAME_ID with --folder).")
@click.option("--folder", is_flag=True, help="Write a folder instead of a zip.")
@click.pass_context
def export_cmd(ctx, game_id, out, folder):
    """Write GAME_ID's record for checking: journal with hashes, every sitrep, server key, seed commitment.

    The seed is included only when the game is over.  This is the GM's export: it holds every
    side's sitreps and the full state, so give it to players only once the game is over.
    """
    from pbem.export import export_files, write_folder, write_zip

    files = export_files(_server(ctx), game_id)
    target = Path(out or (game_id if folder else f"{game_id}.zip"))
    if target.exists() and not (target.is_dir() and folder and not any(target.iterdir())):
        raise click.ClickException(f"{target} exists; not overwriting")
    try:
        if folder:
            write_folder(files, target)
        else:
            write_zip(files, target, game_id)
    except OSError as exc:
        raise click.ClickException(f"cannot write {target}: {exc.strerror or exc}") from None
    click.echo(f"wrote {target}: {len(files)} files")


@main.command()
@click.argument("game_id")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def status(ctx, game_id, as_json):
    """Turn, phase, which sides owe orders, deadline, result when over."""
    st = _server(ctx).queries.status(game_id)
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
    row = _server(ctx).queries.sitrep(game_id, side, turn)
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


@main.group()
def campaign():
    """Campaigns: linked games whose losses, veterans and victory points carry over (pbem.campaign)."""


def _campaigns(ctx):
    from pbem.campaign.service import Campaigns

    return Campaigns(_server(ctx))


def _campaign_call(fn, *args, **kw):
    from pbem.campaign.service import CampaignError

    try:
        return fn(*args, **kw)
    except CampaignError as exc:
        raise click.ClickException(str(exc)) from None


@campaign.command("new")
@click.argument("definition")
@click.argument("campaign_id")
@click.option("--seat", "seats", multiple=True, required=True,
              help="SEAT=EMAIL:KEYFILE[:TZ], one per seat of the ruleset's games (the player keeps the seat in "
                   "every game); repeatable.")
@click.option("--set", "settings", multiple=True, help="Game settings for every game (as `game new --set`).")
@click.option("--title", default="")
@click.pass_context
def campaign_new(ctx, definition, campaign_id, seats, settings, title):
    """Start CAMPAIGN_ID from DEFINITION (<ruleset>/<name>, e.g. lew_morski/raid, or a .toml file)."""
    players = {}
    for item in seats:
        seat, _, rest = item.partition("=")
        parts = rest.split(":")
        if not seat or len(parts) < 2:
            raise click.BadParameter(f"{item!r}: give SEAT=EMAIL:KEYFILE[:TZ]", param_hint="--seat")
        players[seat] = {"email": parts[0], "pubkey": Path(parts[1]).read_text(), "tz": parts[2] if len(parts) > 2
                         else "UTC", "side": seat}
    click.echo(_campaign_call(_campaigns(ctx).new, campaign_id, definition, players, title=title,
                              settings=_parse_options(settings)))


@campaign.command("list")
@click.pass_context
def campaign_list(ctx):
    """Every campaign: its id, title, ruleset, status and the game being played."""
    rows = _campaigns(ctx).overview()
    if not rows:
        click.echo("no campaigns")
    for c in rows:
        click.echo(f"{c['id']}: {c['title']} ({c['ruleset']}) — {c['status']}, {c['games']} game(s) played"
                   + (f", now {c['game']}" if c["status"] == "playing" and c["game"] else ""))


@campaign.command("status")
@click.argument("campaign_id")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def campaign_status(ctx, campaign_id, as_json):
    """The campaign's standing: every side's roster, points and VP (the GM's view), the games so far."""
    st = _campaign_call(_campaigns(ctx).status, campaign_id)
    if as_json:
        click.echo(json.dumps(st, indent=2, ensure_ascii=False))
        return
    click.echo(f"{st['id']}: {st['title']} ({st['ruleset']}) — {st['status']}; next or current: {st['slot_title']}")
    for g in st["games"]:
        click.echo(f"  {g['game']} {g['title']}: {g['outcome']}")
    for side, own in st["sides"].items():
        click.echo(f"  {side}: VP {own['vp']}, replacement points {own['replacements']}, "
                   f"recoveries {own['recovery']}, {len(own['units'])} units")
        for u in own["units"]:
            click.echo(f"    {u['name']} ({u['kind']}): {u['status']}, xp {u['xp']}{', ' + u['rank'] if u['rank'] else ''}")
    if st["result"]:
        click.echo(f"  result: {st['result']['winner'] or 'a draw'} (VP {st['result']['vp']})")


@campaign.command("form")
@click.argument("campaign_id")
@click.argument("seat")
@click.pass_context
def campaign_form(ctx, campaign_id, seat):
    """The administrative order form for SEAT between games (fill in, `pbem sign`, send to the GM)."""
    click.echo(_campaign_call(_campaigns(ctx).form, campaign_id, seat), nl=False)


@campaign.command("orders")
@click.argument("campaign_id")
@click.argument("file", type=click.File("r"))
@click.pass_context
def campaign_orders(ctx, campaign_id, file):
    """Carry out a side's signed administrative orders (FILE as `pbem sign` prints it)."""
    ok, answer = _campaign_call(_campaigns(ctx).submit, campaign_id, file.read())
    click.echo(answer)
    if not ok:
        ctx.exit(1)


@campaign.command("edit")
@click.argument("campaign_id")
@click.argument("side")
@click.argument("words", nargs=-1, required=True)
@click.pass_context
def campaign_edit(ctx, campaign_id, side, words):
    """A GM edit of SIDE's standing between games: STATUS unit s | XP unit n | VP n | POINTS n | FLAG f | UNFLAG f."""
    click.echo(_campaign_call(_campaigns(ctx).edit, campaign_id, side, list(words)))


@campaign.command("advance")
@click.argument("campaign_id")
@click.pass_context
def campaign_advance(ctx, campaign_id):
    """After a game: carry its result over and open the administrative step; in it: confirm, start the next game."""
    click.echo(_campaign_call(_campaigns(ctx).advance, campaign_id))


@campaign.command("end")
@click.argument("campaign_id")
@click.pass_context
def campaign_end(ctx, campaign_id):
    """End the campaign between games; the side with the most campaign VP wins."""
    click.echo(_campaign_call(_campaigns(ctx).end, campaign_id))


@campaign.command("replay")
@click.argument("campaign_id")
@click.pass_context
def campaign_replay(ctx, campaign_id):
    """Check every game of the campaign and every carry-over between them; exit 0 only if all hold."""
    report = _campaign_call(_campaigns(ctx).replay, campaign_id)
    if report.ok:
        click.echo(f"campaign {campaign_id}: OK — {report.entries} campaign entries, games "
                   f"{', '.join(report.games)} replayed and every link verified")
        return
    for p in report.problems:
        click.echo(f"  {p}", err=True)
    raise click.ClickException(f"campaign {campaign_id}: {len(report.problems)} problem(s)")


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
