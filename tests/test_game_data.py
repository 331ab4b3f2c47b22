"""A game created with a folder of data corrections plays with them (pbem.gamedata, issue 15)."""
import json

import pytest
from click.testing import CliRunner
from sqlmodel import Session

from pbem.cli import main
from pbem.core.play import play
from pbem.gamedata import GameDataError, bind, overrides_of, read_folder
from pbem.rules.bismarck import RULESET as BISMARCK
from pbem.store import db
from pbem.store.models import Game

SEED = b"game-data-corrections"
HULL = """provenance = "rulebook"
ref = "counter sheet, as printed"

[ships.bismarck]
hull = 15
"""
FOG = """[weather]
provenance = "example"
fog_from = 1
"""


@pytest.fixture
def folder(tmp_path):
    d = tmp_path / "corrections"
    d.mkdir()
    (d / "units.toml").write_text(HULL)
    (d / "tables.toml").write_text(FOG)
    (d / "NOTES.txt").write_text("where each correction comes from")  # not a data file: not read
    return d


def bismarck(state):
    return next(s for s in BISMARCK.dump(state)["ships"] if s["id"] == "bismarck")


def test_a_corrected_table_changes_the_played_game(folder):
    overrides = read_folder(folder, "bismarck")
    assert sorted(overrides.documents) == ["tables.toml", "units.toml"]
    corrected = play(bind(BISMARCK, overrides), "last-dash", SEED, max_phases=6)
    packaged = play(BISMARCK, "last-dash", SEED, max_phases=6)
    assert bismarck(corrected[0].state)["hull"] == 15 and bismarck(packaged[0].state)["hull"] == 12
    # fog from weather box 1 instead of 5: after the weather phase the sea is foggy in the corrected game only
    assert [BISMARCK.view(s.state, "german")["fog"] for s in corrected[:3]] == [True] * 3
    assert [BISMARCK.view(s.state, "german")["fog"] for s in packaged[:3]] == [False] * 3


def test_a_game_without_corrections_plays_as_before(folder):
    assert bind(BISMARCK, None) is BISMARCK
    before = [BISMARCK.dump(s.state) for s in play(BISMARCK, "last-dash", SEED, max_phases=6)]
    play(bind(BISMARCK, read_folder(folder, "bismarck")), "last-dash", SEED, max_phases=6)  # another game's corrections
    assert [BISMARCK.dump(s.state) for s in play(BISMARCK, "last-dash", SEED, max_phases=6)] == before


def test_bad_corrections_are_all_named_at_once(tmp_path):
    (tmp_path / "unit.toml").write_text('provenance = "rulebook"\n')
    (tmp_path / "tables.toml").write_text('[weather]\nprovenance = "rulebook"\nfog_from = "five"\nfogg = 1\n')
    (tmp_path / "units.toml").write_text('[ships.bismarck]\nhull = 15\n')
    (tmp_path / "map.toml").write_text('provenance = "rulebook"\n[terrain\n')
    with pytest.raises(GameDataError) as err:
        read_folder(tmp_path, "bismarck")
    lines = str(err.value).splitlines()
    assert lines[0] == f"the data corrections in {tmp_path} do not fit bismarck:"
    assert lines[1].startswith("  map.toml: cannot be read: ")
    assert lines[2:] == [
        "  tables.toml: weather.fog_from: expected an integer, got text ('five')",
        "  tables.toml: weather.fogg: no such key in the packaged file (known here: min, max, fog_from, "
        "fuel_roll_at, fuel_roll_max, x_from, box_drm, box_drm_example, change)",
        "  unit.toml: no such data file in bismarck (its files: map.toml, scenarios.toml, schedule.toml, "
        "tables.toml, units.toml)",
        "  units.toml: ships.bismarck.hull has no provenance: set provenance = one of rulebook, example, "
        "placeholder in its table or a table above it",
    ]


def test_only_a_ruleset_with_data_files_takes_corrections(tmp_path):
    with pytest.raises(GameDataError, match="ruleset 'duel' has no data files"):
        read_folder(tmp_path, "duel")
    with pytest.raises(GameDataError, match="holds no data file of bismarck"):
        read_folder(tmp_path, "bismarck")


@pytest.fixture
def cli(tmp_path, db_url):
    runner = CliRunner()
    home = str(tmp_path / "home")

    def run(*args):
        return runner.invoke(main, ["--home", home, *args], catch_exceptions=False)

    assert run("init", "--database", db_url).exit_code == 0
    return run


def stored_game(db_url, game_id):
    engine = db.make_engine(db_url)
    try:
        with Session(engine) as s:
            return s.get(Game, game_id)
    finally:
        engine.dispose()


def test_game_new_with_data_keeps_the_checked_corrections_with_the_game(cli, db_url, folder):
    result = cli("game", "new", "chase", "--rules", "bismarck", "--scenario", "last-dash", "--data", str(folder),
                 "--seed-hex", "0f" * 16)
    assert result.exit_code == 0, result.output
    assert "data corrected for this game: tables.toml, units.toml" in result.output
    game = stored_game(db_url, "chase")
    assert json.loads(game.data_json)["units.toml"]["ships"]["bismarck"]["hull"] == 15
    assert overrides_of(game) == read_folder(folder, "bismarck")
    setup = json.loads(game.state_json)
    assert next(s for s in setup["ships"] if s["id"] == "bismarck")["hull"] == 15  # the setup read them
    (folder / "units.toml").write_text(HULL.replace("15", "16"))  # the folder later: the game keeps its copy
    assert json.loads(stored_game(db_url, "chase").data_json)["units.toml"]["ships"]["bismarck"]["hull"] == 15


def test_game_new_refuses_bad_corrections_and_makes_no_game(cli, db_url, tmp_path):
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "tables.toml").write_text('[weather]\nfog_from = 6\n')
    result = cli("game", "new", "chase", "--rules", "bismarck", "--scenario", "last-dash",
                 "--data", str(tmp_path / "bad"))
    assert result.exit_code == 2
    assert "tables.toml: weather.fog_from has no provenance" in result.output
    assert stored_game(db_url, "chase") is None


def test_a_game_made_without_data_has_no_corrections(cli, db_url):
    assert cli("game", "new", "plain", "--rules", "bismarck", "--scenario", "last-dash").exit_code == 0
    game = stored_game(db_url, "plain")
    assert game.data_json == "{}" and overrides_of(game) is None


def test_the_engine_plays_a_stored_game_under_its_own_corrections(cli, db_url, folder, tmp_path):
    """Every call the engine makes for a game goes through ``Deps.ruleset_for`` (state cache, replay,
    rollback): the weather phase of the corrected game is foggy, that of a game without corrections is not."""
    from pbem.core.play import phase_dice
    from pbem.home import Home
    from pbem.server import Server

    for game_id, extra in (("fixed", ["--data", str(folder)]), ("plain", [])):
        assert cli("game", "new", game_id, "--rules", "bismarck", "--scenario", "last-dash",
                   "--seed-hex", "0f" * 16, *extra).exit_code == 0
    server = Server(Home(tmp_path / "home"))
    fog = {}
    for game_id in ("fixed", "plain"):
        game = stored_game(db_url, game_id)
        ruleset, state = server.services.states.load(game)
        phase = ruleset.phase(state)
        assert phase.name == "weather" and not phase.awaiting
        after = ruleset.resolve(state, {}, phase_dice(SEED, phase)).state
        fog[game_id] = ruleset.view(after, "german")["fog"]
    assert fog == {"fixed": True, "plain": False}


def test_no_ruleset_caches_its_data_files_past_a_game_s_corrections():
    """A loader that reads a data file must cache with ``data_cache`` (one result per correction), never with
    ``functools.cache``/``lru_cache``, which would hand the first game's tables to every later game."""
    import ast
    from pathlib import Path

    from pbem import rules

    offenders = []
    for path in sorted(Path(rules.__file__).parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef):
                continue
            reads = any(isinstance(c, ast.Call) and getattr(c.func, "id", getattr(c.func, "attr", "")) == "load_data"
                        for c in ast.walk(node))
            plain = [d for d in node.decorator_list
                     if "cache" in ast.unparse(d) and "data_cache" not in ast.unparse(d)]
            if reads and plain:
                offenders.append(f"{path.name}:{node.lineno} {node.name}")
    assert not offenders, f"data loaders cached past a game's corrections: {offenders}"
