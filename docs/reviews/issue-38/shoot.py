"""Before/after screenshots for issue 38's findings 1, 2, 4, 5: run with the tree as cwd and PYTHONPATH.

usage: cd TREE && PYTHONPATH=. uv run python /work/prompts/beforeafter.py OUTDIR PORT
"""

import os, subprocess, sys, tempfile, time, urllib.request
from pathlib import Path
from playwright.sync_api import sync_playwright
from tests.browser import ui, speedquilt_ui, solo_ui

out = Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
port = int(sys.argv[2])
data = tempfile.mkdtemp()
env = dict(os.environ, SPIELCENTER_GUEST_LIMIT="100000/hour", SPIELCENTER_CLAIM_LIMIT="1000/minute")
server = subprocess.Popen(
    [sys.executable, "-m", "spielcenter", "serve", "--port", str(port), "--data-dir", data],
    env=env,
    stdout=subprocess.DEVNULL,
    stderr=subprocess.DEVNULL,
)
url = f"http://127.0.0.1:{port}"
for _ in range(100):
    try:
        urllib.request.urlopen(url + "/health")
        break
    except OSError:
        time.sleep(0.3)
ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
try:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)

        def ctx(vp, locale="de-DE"):
            phone = vp["width"] < 700
            c = browser.new_context(
                viewport=vp, locale=locale, base_url=url, has_touch=phone, is_mobile=phone
            )
            c.set_default_timeout(20000)
            return c

        # 2: the patience hint (desktop and phone)
        for name, vp in (("desktop", ui.DESKTOP), ("phone", ui.PHONE)):
            page = ctx(vp).new_page()
            page.goto("/")
            ui.start_deal(page, "cruel", 1)
            page.locator(".controls .hint-button").click()
            page.wait_for_timeout(800)
            page.screenshot(path=out / f"2-hint-{name}.png")
            # 5: the start page on a phone after a game
            if name == "phone":
                ui.play_first_by_click(page)
                page.wait_for_timeout(500)
                page.goto("/")
                page.reload()
                page.wait_for_timeout(1500)
                page.screenshot(path=out / "5-start-after-a-game-phone.png", full_page=True)
            else:
                ui.play_first_by_click(page)
                page.goto("/")
                page.reload()
                page.wait_for_timeout(1500)
                page.screenshot(path=out / "5-start-after-a-game-desktop.png", full_page=True)
        # 4: a giving window against three computers
        page = ctx(ui.DESKTOP).new_page()
        page.goto("/")
        speedquilt_ui.open_table(page, computers=3, level="normal")
        speedquilt_ui.choose_start_row(page) if page.locator(".choice-block").count() else None
        speedquilt_ui.wait_for_giving(page)
        page.wait_for_timeout(400)
        page.screenshot(path=out / "4-giving-desktop.png")
        # 1: a finished daily quilt's replay on a fresh page
        c = ctx(ui.DESKTOP)
        page = c.new_page()
        page.goto("/")
        solo_ui.start_solo(page, ".solo-play-daily")
        solo_ui.play_solo_to_the_end(page)
        fresh = c.new_page()
        fresh.goto("/#/progress/games")
        fresh.locator('.game-row[data-game="speedquilt"] .replay-link').first.click()
        fresh.wait_for_selector(".replay-board")
        for _ in range(6):
            fresh.locator(".replay-controls .forward").click()
            fresh.wait_for_timeout(150)
        fresh.wait_for_timeout(800)
        fresh.screenshot(path=out / "1-replay-fresh-page-desktop.png", full_page=True)
        browser.close()
finally:
    server.terminate()
print("written", sorted(p.name for p in out.iterdir()))
