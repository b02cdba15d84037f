"""A whole game played by clicks in the page of ``gnoming serve``, in headless Chromium.

The browser is Debian's (see tests/test_browser.py, whose setup this shares: without it
the test skips, except under ``.ci/run``). The server runs on 127.0.0.1 in this process;
a person sits down against two bots, and every move is a click on one of the buttons the
page shows for the moves open to the seat. The finished game's record is valid.

The page is played under its own security headers (docs/server.md, the security model):
the browser reports no breach of its Content-Security-Policy while the whole game is
played (the inline script and style run by their hashes, the socket and the HTTP calls go
to the page's own origin), and it refuses to show the page in a frame.
"""

from __future__ import annotations

import functools
import http.server
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from server_kit import live_server, storage_url
from test_browser import BROWSER, DRIVER, INSTALL, browser, screenshot  # noqa: F401 (a fixture)

from gnoming_rules.formats.record import Record, parse_record
from gnoming_rules.referee.validate import validate_record
from gnoming_rules.server.page import SECURITY_HEADERS

WATCH = """
window.gnomingViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.gnomingViolations.push(event.violatedDirective + " " + event.blockedURI);
});
"""
"""Injected before the page's own script (by the browser's DevTools, which the policy does
not govern): every breach of the policy the browser reports while the page runs."""

if BROWSER is None or DRIVER is None:  # test_browser raises instead under GNOMING_REQUIRE_BROWSER
    pytestmark = pytest.mark.skip(reason=INSTALL)


def test_a_whole_game_played_by_clicks(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.select import Select

    rng = random.Random(3)
    with live_server(storage_url("sqlite", tmp_path)) as live:
        served = live.http.get("/")
        for header, value in SECURITY_HEADERS.items():
            assert served.headers[header] == value
        browser.get_log("browser")  # what earlier tests left in the console
        browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WATCH})
        browser.get(live.base + "/")
        deadline = time.monotonic() + 10
        while not browser.find_elements(By.CSS_SELECTOR, "#ruleset option"):
            assert time.monotonic() < deadline, "the rulesets did not load"
            time.sleep(0.05)
        Select(browser.find_element(By.ID, "ruleset")).select_by_visible_text("quick")
        browser.find_element(By.ID, "start").click()
        clicks, pictured = 0, False
        deadline = time.monotonic() + 120
        status = browser.find_element(By.ID, "status")
        while status.get_attribute("data-over") != "true":
            assert time.monotonic() < deadline, f"the game did not end ({clicks} clicks)"
            buttons = browser.find_elements(By.CSS_SELECTOR, "#moves button:enabled")
            if not buttons:
                time.sleep(0.02)
                continue
            try:
                rng.choice(buttons).click()
                clicks += 1
            except StaleElementReferenceException:
                continue
            if clicks >= 10 and not pictured:
                try:  # the picture is replaced at every push: find it again when it was
                    source = browser.find_element(By.CSS_SELECTOR, "#table img").get_attribute(
                        "src"
                    )
                except StaleElementReferenceException:
                    continue
                assert source.startswith("data:image/svg+xml")
                pictured = True
                screenshot(browser, tmp_path / "server-table.png")
        assert clicks >= 5
        assert pictured or clicks < 10
        assert status.text.startswith("Game over.")
        assert browser.find_element(By.ID, "error").text == ""
        table = browser.find_element(By.ID, "game").get_attribute("data-table")
        record = parse_record(live.http.get(f"/tables/{table}/record").content)
        assert isinstance(record, Record) and record.players[0] == "You"
        verdict = validate_record(record)
        assert verdict.valid and verdict.complete, verdict
        screenshot(browser, tmp_path / "server-over.png")
        assert browser.execute_script("return window.gnomingViolations") == []
        console = [entry["message"] for entry in browser.get_log("browser")]
        assert not [line for line in console if "Content Security Policy" in line], console


def test_the_page_refuses_to_be_framed(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    """A page of another origin (a plain HTTP server on loopback) frames one of its own
    pages, which shows, and the server's page, which the browser refuses to show."""
    (tmp_path / "inner.html").write_text("<p id='start'>a page that may be framed</p>")
    (tmp_path / "outer.html").write_text("<p>a page that frames others</p>")
    handler = functools.partial(_Quiet, directory=str(tmp_path))
    with (
        live_server(storage_url("sqlite", tmp_path)) as live,
        http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as other,
    ):
        threading.Thread(target=other.serve_forever, daemon=True).start()
        origin = f"http://127.0.0.1:{other.server_address[1]}"
        browser.get(f"{origin}/outer.html")
        browser.execute_script(FRAME, f"{origin}/inner.html")
        assert _frame_shows(browser, lambda: False), "the frame of the same origin did not show"
        browser.get(f"{origin}/outer.html")
        browser.get_log("browser")
        browser.execute_script(FRAME, live.base + "/")
        console: list[str] = []

        def refused() -> bool:
            console.extend(entry["message"] for entry in browser.get_log("browser"))
            return any("frame-ancestors 'none'" in line for line in console)

        assert not _frame_shows(browser, refused), console
        other.shutdown()
    assert refused(), console


def _frame_shows(driver: Any, done: Callable[[], bool], seconds: float = 10) -> bool:
    """Whether the frame ``framed`` shows the page's ``#start``, waiting for it, or for
    ``done()``, at most ``seconds``."""
    from selenium.webdriver.common.by import By

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        driver.switch_to.frame(driver.find_element(By.ID, "framed"))
        try:
            if driver.find_elements(By.ID, "start"):
                return True
        finally:
            driver.switch_to.default_content()
        if done():
            return False
        time.sleep(0.1)
    return False


FRAME = (
    "const frame = document.createElement('iframe');"
    "frame.id = 'framed'; frame.src = arguments[0]; document.body.append(frame);"
)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *_args: Any) -> None:
        """Nothing in the test's output."""
