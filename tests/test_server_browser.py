"""A whole game played by clicks in the page of ``gnoming serve``, in headless Chromium.

The browser is Debian's (see tests/test_browser.py, whose setup this shares: without it
the test skips, except under ``.ci/run``). The server runs on 127.0.0.1 in this process;
a person sits down against two bots, and every move is a click on one of the buttons the
page shows for the moves open to the seat. The finished game's record is valid.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest
from server_kit import live_server, storage_url
from test_browser import BROWSER, DRIVER, INSTALL, browser, screenshot  # noqa: F401 (a fixture)

from gnoming_rules.formats.record import Record, parse_record
from gnoming_rules.referee.validate import validate_record

if BROWSER is None or DRIVER is None:  # test_browser raises instead under GNOMING_REQUIRE_BROWSER
    pytestmark = pytest.mark.skip(reason=INSTALL)


def test_a_whole_game_played_by_clicks(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.select import Select

    rng = random.Random(3)
    with live_server(storage_url("sqlite", tmp_path)) as live:
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
