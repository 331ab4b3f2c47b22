"""Take the README's screenshots of the web pages from a demo home (Debian's chromium + chromedriver).

    pbem --home /tmp/webdemo init          # then in config.toml: [web] url = listen's address,
                                           # [server] gm_key = "gm.pub" (ssh-keygen -t ed25519 -f gm)
    pbem --home /tmp/webdemo demo --rules sky_ww2 --turns 2 --game sky-demo
    pbem --home /tmp/webdemo demo --rules bismarck --turns 0 --game bismarck-final
    pbem --home /tmp/webdemo web &
    python docs/web/screenshots.py /tmp/webdemo GM_PRIVATE_KEY docs/web
"""
from __future__ import annotations

import email
import email.policy
import re
import subprocess
import sys
import tomllib
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def latest_link(home: Path, to: str, base: str) -> str:
    found = ""
    for path in sorted((home / "outbox" / "new").iterdir(), key=lambda p: p.stat().st_mtime):
        msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        if to in str(msg["To"]):
            body = msg.get_body(("plain",))
            m = body and re.search(re.escape(base) + r"/l/\S+", body.get_content())
            found = m.group(0) if m else found
    return found


def main(home: Path, gm_key: Path, out: Path) -> None:
    base = tomllib.loads((home / "config.toml").read_text())["web"]["url"]
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1100,900"):
        opts.add_argument(arg)
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)

    def shot(name: str, width: int = 1100, height: int | None = None) -> None:
        d.set_window_size(width, 900)
        full = d.execute_script("return document.documentElement.scrollHeight")
        d.set_window_size(width, min(height or full + 120, 2400))
        d.save_screenshot(str(out / f"{name}.png"))

    try:
        seat = "axis-1@"
        d.get(latest_link(home, seat, base))
        shot("seat-history")
        d.find_element(By.PARTIAL_LINK_TEXT, "Latest sitrep").click()
        shot("seat-sitrep", height=1500)
        shot("seat-phone", width=400, height=860)
        d.get(f"{base}/archive/bismarck-final/")
        shot("archive-game")
        d.get(f"{base}/archive/bismarck-final/t/3")
        shot("archive-turn", width=1300, height=1500)
        d.get(f"{base}/gm/login")
        challenge = d.find_element(By.ID, "challenge").text
        shot("gm-login")
        sig = subprocess.run(["ssh-keygen", "-Y", "sign", "-n", "pbem-web", "-f", str(gm_key)],
                             input=challenge.encode(), capture_output=True, check=True).stdout.decode()
        d.find_element(By.ID, "signature").send_keys(sig)
        d.find_element(By.CSS_SELECTOR, "form[action='/gm/login'] button").click()
        WebDriverWait(d, 15).until(lambda x: x.current_url == f"{base}/gm/")
        shot("gm-dashboard")
    finally:
        d.quit()


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]))
