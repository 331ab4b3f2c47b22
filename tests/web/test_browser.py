"""The pages in a real browser: Debian's Chromium, driven through Debian's chromedriver by Selenium.

Nothing here downloads a browser.  Where chromium or chromedriver is missing the tests skip, saying
so — except in CI (``CI`` or ``PBEM_REQUIRE_BROWSER`` set, as ``.ci/run`` does), where they must run and fail instead.
Screenshots of every page are kept in the test's tmp_path; with ``PBEM_WEB_SHOTS=DIR`` they are
also copied there (docs/web/ holds the README's).
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from pbem.web.app import RateLimit, create_app
from tests.web.conftest import mailed_link

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


def _need_browser() -> None:
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not os.access(p, os.X_OK)]
    if not missing:
        return
    why = f"needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver): {missing} missing"
    if os.environ.get("CI") or os.environ.get("PBEM_REQUIRE_BROWSER"):
        pytest.fail(f"in CI (CI or PBEM_REQUIRE_BROWSER set) the browser tests must run: {why}")
    pytest.skip(why)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def site(web_server, game):
    """The web pages served by uvicorn on a free loopback port, in a thread; yields the base URL."""
    import uvicorn

    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    web_server.home.config["web"]["url"] = base
    server = uvicorn.Server(uvicorn.Config(create_app(web_server.deps, limit=RateLimit(10_000)), host="127.0.0.1",
                                           port=port, log_config=None, lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.05)
    yield base
    server.should_exit = True
    thread.join(10)


@pytest.fixture
def browser():
    _need_browser()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1100,1400", "--lang=en-GB"):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    driver.set_page_load_timeout(30)
    yield driver
    try:  # no page the test saw broke its Content-Security-Policy, nor ran or needed a script
        problems = [e["message"] for e in driver.get_log("browser")
                    if "Content Security Policy" in e["message"] or "Refused to" in e["message"]]
        assert "<script" not in driver.page_source
    finally:
        driver.quit()
    assert not problems, problems


def shot(driver, tmp_path: Path, name: str, *, height: int | None = None) -> Path:
    """A screenshot of the whole page (the window stretched to it), kept in tmp_path."""
    width = driver.get_window_size()["width"]
    full = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(width, min(height or full + 120, 4000))
    path = tmp_path / f"{name}.png"
    assert driver.save_screenshot(str(path))
    if os.environ.get("PBEM_WEB_SHOTS"):
        target = Path(os.environ["PBEM_WEB_SHOTS"])
        target.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, target / path.name)
    return path


def test_a_player_follows_the_link_in_the_sitrep(web_server, site, browser, tmp_path):
    from selenium.webdriver.common.by import By

    browser.get(site + mailed_link(web_server, "east"))
    assert browser.current_url == f"{site}/g/g1/east/"  # the token is gone from the address bar
    assert browser.find_element(By.TAG_NAME, "h1").text == "Duel at dawn — east"
    assert browser.get_cookies()[0]["httpOnly"] and browser.get_cookies()[0]["sameSite"] == "Strict"
    shot(browser, tmp_path, "seat-history")
    browser.find_element(By.PARTIAL_LINK_TEXT, "Latest sitrep").click()
    img = browser.find_element(By.CSS_SELECTOR, "figure.map img")
    assert browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth", img) > 100
    assert "The map of what east knew" in img.get_attribute("alt")
    text = browser.find_element(By.CSS_SELECTOR, "pre.sitrep").text
    assert text.startswith("SITUATION REPORT") and "/l/" not in browser.page_source
    assert browser.find_element(By.CSS_SELECTOR, "pre.form").text.startswith("PBEM-ORDERS")
    shot(browser, tmp_path, "seat-sitrep")
    # the sitrep as mailed: its own styles apply under the page's CSP, the map in place of cid:
    browser.get(browser.current_url + ".html")
    body = browser.find_element(By.TAG_NAME, "body")
    assert body.value_of_css_property("font-family").lower().startswith("georgia")
    map_img = browser.find_element(By.TAG_NAME, "img")
    assert browser.execute_script("return arguments[0].naturalWidth", map_img) > 100
    # another side's pages stay shut
    browser.get(f"{site}/g/g1/west/")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Open this page by the link in your sitrep"
    # on a phone
    browser.set_window_size(390, 844)
    browser.get(f"{site}/g/g1/east/")
    assert browser.execute_script("return document.documentElement.scrollWidth") <= 400
    shot(browser, tmp_path, "seat-phone", height=844)


def test_a_spectator_reads_the_archive_of_a_finished_game(web_server, site, browser, tmp_path):
    from selenium.webdriver.common.by import By

    browser.get(f"{site}/archive/")
    assert "No game is public yet." in browser.find_element(By.TAG_NAME, "main").text
    web_server.end_game("g1", "east wins on points")
    browser.get(f"{site}/archive/")
    browser.find_element(By.LINK_TEXT, "Duel at dawn").click()
    assert "Seed (revealed)" in browser.find_element(By.TAG_NAME, "main").text
    shot(browser, tmp_path, "archive-game")
    browser.find_element(By.LINK_TEXT, "Turn 1").click()
    headings = [h.text for h in browser.find_elements(By.TAG_NAME, "h2")]
    assert any(h.startswith("east") for h in headings) and any(h.startswith("west") for h in headings)
    for img in browser.find_elements(By.CSS_SELECTOR, "figure.map img"):
        assert browser.execute_script("return arguments[0].naturalWidth", img) > 100
    shot(browser, tmp_path, "archive-turn")


def test_the_gm_logs_in_with_ssh_keygen(web_server, site, browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    if shutil.which("ssh-keygen") is None:
        pytest.skip("needs OpenSSH's ssh-keygen (the GM signs the challenge with it)")
    key = tmp_path / "gm_key"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "gm@club.test", "-f", str(key)], check=True)
    (web_server.home.path / "gm.pub").write_text(key.with_suffix(".pub").read_text())
    browser.get(f"{site}/gm/")
    assert browser.current_url == f"{site}/gm/login"
    challenge = browser.find_element(By.ID, "challenge").text
    shot(browser, tmp_path, "gm-login")
    sig = subprocess.run(["ssh-keygen", "-Y", "sign", "-n", "pbem-web", "-f", str(key)], input=challenge.encode(),
                         capture_output=True, check=True).stdout.decode()
    browser.find_element(By.ID, "signature").send_keys(sig)
    browser.find_element(By.CSS_SELECTOR, "form[action='/gm/login'] button").click()
    WebDriverWait(browser, 15).until(lambda d: d.current_url == f"{site}/gm/")
    main = browser.find_element(By.TAG_NAME, "main").text
    assert "GM dashboard" in main and "Duel at dawn" in main and "Recent verdicts" in main
    assert "east@players.test" in main
    shot(browser, tmp_path, "gm-dashboard")


def test_a_spectator_follows_a_tournament_to_the_archive_of_its_finished_game(web_server, site, browser, tmp_path,
                                                                                clock):
    import json

    from selenium.webdriver.common.by import By

    from pbem.store.models import Player, Tournament, TournamentGame

    web_server.end_game("g1", "east wins on points")
    with web_server.session() as s:
        s.add(Player(fingerprint="SHA256:ann", email="ann@players.test", name="Ann", created_at=clock.now,
                     updated_at=clock.now))
        s.add(Tournament(name="autumn", ruleset="duel", scenario="standard", round=1, created_at=clock.now,
                         schedule_json=json.dumps([[["SHA256:ann", "SHA256:bee"]]])))
        s.add(TournamentGame(tournament="autumn", round=1, game_id="g1", first="SHA256:ann", second="SHA256:bee",
                             done=True, winner="SHA256:ann"))
        s.commit()
    browser.get(f"{site}/")
    browser.find_element(By.LINK_TEXT, "tournaments").click()
    browser.find_element(By.LINK_TEXT, "autumn").click()
    cells = [td.text for td in browser.find_elements(By.CSS_SELECTOR, "tbody tr:first-child td")]
    assert cells[:3] == ["1", "Ann", "1"]
    shot(browser, tmp_path, "tournament")
    browser.find_element(By.LINK_TEXT, "g1").click()
    assert "Seed (revealed)" in browser.find_element(By.TAG_NAME, "main").text
