"""pbem as a club server gets it: a built wheel, installed into a fresh venv, run outside the checkout.

An editable install (``make demo``, ``make test``) reads templates and rules data straight from the
checkout, so it cannot show a wheel that lacks them; these tests build the wheel from the tracked files
(what a fresh clone holds), install it with constraints.txt and drive the installed ``pbem`` command.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
#: Top-level folders of the repository and the package each installs as (see setup.py).
MAPPED = {"rules": "pbem/rules", "templates": "pbem/templates", "db": "pbem/db"}


def _git_files(*paths: str) -> list[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs a git checkout (the wheel is built from the tracked files)")
    out = subprocess.run(["git", "ls-files", "-z", "--", *paths], cwd=ROOT, check=True,
                         capture_output=True).stdout.decode()
    return [f for f in out.split("\0") if f and (ROOT / f).is_file()]


def _constraints() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            req = Requirement(line)
            pins[canonicalize_name(req.name)] = str(req.specifier)
    return pins


def _runtime_closure() -> set[str]:
    """Every distribution a server needs: pyproject's dependencies and the postgres extra, transitively.

    Transitive requirements are read from the installed distributions' metadata.
    """
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    todo = [(Requirement(r), frozenset()) for r in project["dependencies"]]
    todo += [(Requirement(r), frozenset()) for r in project["optional-dependencies"]["postgres"]]
    seen: set[tuple[str, frozenset]] = set()
    while todo:
        req, parent_extras = todo.pop()
        # a requirement's marker is judged with the extras its parent was asked for
        if req.marker and not any(req.marker.evaluate({"extra": e}) for e in (parent_extras or {""})):
            continue
        key = (canonicalize_name(req.name), frozenset(req.extras))
        if key in seen:
            continue
        seen.add(key)
        todo += [(Requirement(r), key[1]) for r in metadata.distribution(key[0]).requires or []]
    return {name for name, _ in seen}


def test_constraints_pin_every_runtime_dependency_within_pyproject_ranges():
    pins = _constraints()
    closure = _runtime_closure()
    assert sorted(closure - set(pins)) == [], "add these to constraints.txt"
    assert all(spec.startswith("==") for spec in pins.values()), "constraints.txt pins exact versions"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for line in project["dependencies"] + project["optional-dependencies"]["postgres"]:
        req = Requirement(line)
        pinned = pins[canonicalize_name(req.name)].removeprefix("==")
        assert req.specifier.contains(pinned, prereleases=True), f"{req}: constraints.txt pins {pinned}"


# --- the built wheel ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel `pip wheel` builds from a copy of the tracked files (no build/ left in the checkout)."""
    src = tmp_path_factory.mktemp("src")
    for name in _git_files():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, src / name)
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", str(src), "-w", str(out)],
                   check=True, cwd=out)
    [built] = out.glob("pbem-*.whl")
    return built


def _share_test_environment(venv: Path) -> None:
    """Let the new venv see this environment's installed dependencies, but not its pbem.

    The dependencies' folders are linked into one extra sys.path entry of the venv, so installing
    the wheel with constraints.txt needs no download when this environment already holds the pinned
    versions (a differing one is fetched into the venv, which shadows the shared one). pbem itself,
    its metadata and the .pth files (the editable install's hook) are left out.
    """
    shared = venv / "shared-site"
    shared.mkdir()
    for site in dict.fromkeys([sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]]):
        for entry in Path(site).iterdir():
            if entry.name.startswith(("pbem", "__editable__")) or entry.suffix == ".pth":
                continue
            if not (shared / entry.name).exists():
                (shared / entry.name).symlink_to(entry)
    purelib = subprocess.run([str(venv / "bin" / "python"), "-c",
                              "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True).stdout.strip()
    (Path(purelib) / "pbem-test-shared.pth").write_text(f"{shared}\n")


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """A fresh venv holding the wheel, installed the way the README tells a GM to; returns its bin/."""
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    _share_test_environment(venv)
    subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
                    "--quiet", "-c", str(ROOT / "constraints.txt"), f"{wheel}[postgres]"], check=True)
    return venv / "bin"


@pytest.mark.slow
def test_the_wheel_holds_every_file_of_rules_templates_and_db(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    tracked = _git_files(*MAPPED)
    assert len(tracked) > 50
    expected = {MAPPED[f.split("/", 1)[0]] + "/" + f.split("/", 1)[1] for f in tracked}
    assert sorted(expected - names) == []
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]


@pytest.mark.slow
def test_the_installed_server_sets_up_and_plays_a_turn_outside_the_checkout(installed, tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PBEM_HOME", "VIRTUAL_ENV")}
    env["PBEM_HOME"] = str(tmp_path / "home")

    def pbem(*args: str) -> str:
        done = subprocess.run([str(installed / "pbem"), *args], cwd=tmp_path, env=env,
                              capture_output=True, text=True)
        assert done.returncode == 0, f"pbem {' '.join(args)}:\n{done.stdout}\n{done.stderr}"
        return done.stdout

    where = subprocess.run([str(installed / "python"), "-c", "import pbem, pbem.templates; print(pbem.__file__)"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, check=True).stdout
    assert Path(where.strip()).is_relative_to(installed.parent), where  # the wheel, not the checkout
    if "--version" in pbem("--help"):  # the option may not be merged yet
        assert pbem("--version").strip()
    pbem("init")
    rules = pbem("rules")
    games = {"b": ("bismarck", "last-dash"), "lm": ("lew_morski", "w1"), "sky": ("sky_ww2", "quick"),
             "wl": ("wing_leader", "raid")}
    for game_id, (ruleset, scenario) in games.items():
        assert f"{ruleset}:" in rules
        pbem("game", "new", game_id, "--rules", ruleset, "--scenario", scenario)
        for seat in json.loads(pbem("status", game_id, "--json"))["seats"]:
            key = tmp_path / f"{game_id}-{seat['name']}"
            pbem("keygen", str(key))
            pbem("player", "add", game_id, seat["name"], "--email", f"{seat['name']}@players.invalid",
                 "--key", f"{key}.pub")
        assert json.loads(pbem("status", game_id, "--json"))["status"] == "active"

    # One Bismarck turn by signed order files: every owing side signs its (empty) form; ingest, tick.
    for _ in range(20):
        status = json.loads(pbem("status", "b", "--json"))
        if status["turn"] > 1:
            break
        for seat in status["owing"]:
            form = tmp_path / f"{seat}.txt"
            form.write_text(pbem("orders", "b", seat))
            signed = tmp_path / f"{seat}.signed"
            signed.write_text(pbem("sign", str(form), "--key", str(tmp_path / f"b-{seat}")))
            assert pbem("ingest", str(signed)).startswith("accepted")
        pbem("tick")
    assert json.loads(pbem("status", "b", "--json"))["turn"] == 2
    assert any((tmp_path / "home" / "outbox" / "new").iterdir())  # the sitreps, mailed
    for game_id in games:
        assert "OK" in pbem("replay", game_id)
    assert not (tmp_path / "pbem-home").exists()  # --home came from PBEM_HOME
