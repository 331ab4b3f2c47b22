"""How a language is chosen: `--lang` on `player add` and `gm replace`, a player's signed `PROFILE lang`, and the
server's default `[server] lang`."""
from __future__ import annotations

import pydantic
import pytest
from click.testing import CliRunner
from sqlmodel import select

from pbem.cli import main
from pbem.config import ServerSection
from pbem.store.models import Outbox, Seat
from tests.fixtures.duel import RULESET as DUEL
from tests.test_gm import command_mail


def seat_langs(session) -> dict[str, str]:
    return {r.name: r.lang for r in session.exec(select(Seat)).all()}


def test_lang_on_player_add_and_gm_replace(tmp_path, monkeypatch):
    from pbem import rules
    from pbem.server import Server
    from pbem.home import Home

    monkeypatch.setattr(rules, "RULESETS", (*rules.RULESETS, DUEL))
    home = str(tmp_path / "home")

    def cli(*args, ok=True):
        result = CliRunner().invoke(main, ["--home", home, *args])
        assert (result.exit_code == 0) == ok, result.output
        return result.output

    cli("init", "--database", f"sqlite:///{tmp_path}/pbem.db")
    cli("game", "new", "g1", "--rules", "duel", "--scenario", "standard", "--seed-hex", "00ff" * 8)
    for seat, lang in (("east", "ru"), ("west", "pl")):
        cli("keygen", str(tmp_path / seat))
        cli("player", "add", "g1", seat, "--email", f"{seat}@x.test", "--key", str(tmp_path / f"{seat}.pub"),
            "--lang", lang)
    assert "pbem speaks en, pl, ru" in cli("gm", "replace", "g1", "west", "--lang", "de", ok=False)
    assert "g1/west: reads en" in cli("gm", "replace", "g1", "west", "--lang", "en")
    server = Server(Home(tmp_path / "home").load())
    with server.session() as s:
        assert seat_langs(s) == {"east": "ru", "west": "en"}
        first = {r.to_addr: r.subject for r in s.exec(select(Outbox).where(Outbox.kind == "sitrep")).all()}
    # the game started with the last player added: its first sitreps were already in the chosen languages
    assert first == {"east@x.test": "[g1] east: ход 1 fire and move", "west@x.test": "[g1] west: tura 1 fire and move"}
    server.engine.dispose()


def test_a_player_chooses_his_language_by_signed_profile(server, duel_game, keys):
    verdict = server.ingest(command_mail(duel_game, "PROFILE lang ru\n", keys["east"], side="east"))
    assert verdict.status == "accepted" and verdict.reasons == ["your language is now 'ru' (in 1 game)"], \
        verdict.reasons
    with server.session() as s:
        assert seat_langs(s) == {"east": "ru", "west": ""}
    verdict = server.ingest(command_mail(duel_game, "PROFILE lang xx\n", keys["east"], side="east"))
    assert verdict.status == "rejected" and "pbem speaks en, pl, ru" in " ".join(verdict.reasons)
    with server.session() as s:
        assert seat_langs(s) == {"east": "ru", "west": ""}


def test_the_server_default_is_checked():
    assert ServerSection().lang == "en" and ServerSection(lang="pl").lang == "pl"
    with pytest.raises(pydantic.ValidationError, match="pbem speaks"):
        ServerSection(lang="klingon")
