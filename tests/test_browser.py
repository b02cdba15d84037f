"""The HTML replay in a real browser: headless Chromium driven by Selenium.

Debian's ``chromium`` and ``chromium-driver`` packages give the browser and its driver;
nothing here downloads a browser. Without them the tests skip and say how to install them,
except under ``.ci/run``: it installs them and sets ``GNOMING_REQUIRE_BROWSER=1``, so that
a browser that failed to install fails the run instead of skipping the tests. The browser
runs with a fresh profile and every network feature off, with the flags root needs
(``--no-sandbox``). Each test saves a screenshot of the page it checked.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kit import EXAMPLES, ILLEGAL

from gnoming_rules.pictures.cards import face_label
from gnoming_rules.pictures.frames import record_frames
from gnoming_rules.pictures.replay import write_replay
from gnoming_rules.pictures.table import table_view

BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
INSTALL = (
    "no headless browser: install Debian's chromium and chromium-driver "
    "(apt-get install -y chromium chromium-driver) and selenium (pip install -e '.[dev]')"
)
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1300,1000",
)

REQUIRED = os.environ.get("GNOMING_REQUIRE_BROWSER") == "1"
"""Set by ``.ci/run``, which installs the browser: there a missing browser is a failure."""

if BROWSER is None or DRIVER is None:
    if REQUIRED:
        raise RuntimeError(f"GNOMING_REQUIRE_BROWSER=1 but {INSTALL}")
    pytestmark = pytest.mark.skip(reason=INSTALL)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    if REQUIRED:
        from selenium import webdriver
    else:
        webdriver = pytest.importorskip("selenium.webdriver", reason=INSTALL)
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    assert BROWSER is not None and DRIVER is not None
    options.binary_location = BROWSER
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # the console, for CSP
    driver = webdriver.Chrome(options=options, service=Service(executable_path=DRIVER))
    try:
        yield driver
    finally:
        driver.quit()


def press(driver: Any, key: str, times: int = 1) -> None:
    from selenium.webdriver.common.by import By

    body = driver.find_element(By.TAG_NAME, "body")
    for _ in range(times):
        body.send_keys(key)


def text_of(driver: Any, selector: str) -> str:
    from selenium.webdriver.common.by import By

    text: str = driver.find_element(By.CSS_SELECTOR, selector).text
    return text


def screenshot(driver: Any, path: Path) -> None:
    driver.save_screenshot(str(path))
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG") and len(data) > 10_000
    print(f"screenshot: {path}")


def test_stepping_through_a_game_with_the_arrow_keys(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    page = tmp_path / "demo.html"
    replay = write_replay(EXAMPLES / "demo-game.json", page).replay
    assert replay.record is not None and replay.ruleset is not None
    frames = record_frames(replay.record, replay, base_dir=EXAMPLES)
    browser.get(page.as_uri())
    where = browser.find_element(By.CSS_SELECTOR, "#status .where")
    assert (where.get_attribute("data-round"), where.get_attribute("data-move")) == ("0", "0")

    steps = 25
    press(browser, Keys.ARROW_RIGHT, steps)
    frame = frames[steps]
    where = browser.find_element(By.CSS_SELECTOR, "#status .where")
    assert where.get_attribute("data-move") == str(frame.move) == str(steps)
    assert text_of(browser, "#status .played") == frame.played
    assert text_of(browser, "#moves li.current").split(maxsplit=1) == [str(steps - 1), frame.played]
    view = table_view(replay.ruleset, frame.state, names=replay.record.players)
    assert text_of(browser, "#table text.head") == view.heading
    assert browser.find_element(By.ID, "slider").get_attribute("value") == str(steps)
    screenshot(browser, tmp_path / "demo-move-25.png")

    press(browser, Keys.ARROW_LEFT)
    assert text_of(browser, "#moves li.current").startswith(str(steps - 2))

    press(browser, Keys.END)
    rows = browser.find_elements(By.CSS_SELECTOR, "#scores tbody tr")
    totals = [row.find_element(By.CSS_SELECTOR, "td.total").text for row in rows]
    assert totals == [face_label(total) for total in replay.verdict.totals]
    winners = [seat for seat, row in enumerate(rows) if "winner" in row.text]
    assert tuple(winners) == replay.verdict.winners
    assert "Valid record, game complete." in text_of(browser, "#verdict")
    assert browser.find_element(By.ID, "next").get_attribute("disabled") is not None
    screenshot(browser, tmp_path / "demo-end.png")


def test_a_refused_record_opens_at_the_refused_move(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    page = tmp_path / "refused.html"
    replay = write_replay(ILLEGAL / "mulligan-limit.json", page).replay
    error = replay.verdict.error
    assert error is not None and error.move is not None
    browser.get(page.as_uri())
    where = browser.find_element(By.CSS_SELECTOR, "#status .where")
    assert where.get_attribute("data-move") == str(error.move)
    verdict = text_of(browser, "#verdict")
    assert error.code in verdict and f"rule {error.rule}" in verdict
    assert error.message in verdict
    refused = text_of(browser, "#moves li.refused")
    assert refused.startswith(str(error.move)) and f"refused: {error.code}" in refused
    assert browser.find_elements(By.CSS_SELECTOR, "#table rect.marked")
    screenshot(browser, tmp_path / "refused.png")


def test_clicking_a_move_and_hiding_the_face_down_cards(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    page = tmp_path / "opening.html"
    write_replay(EXAMPLES / "opening.yaml", page)
    browser.get(page.as_uri())
    item = browser.find_elements(By.CSS_SELECTOR, "#moves li[data-frame]")[8]
    item.click()
    assert "current" in (item.get_attribute("class") or "")
    assert browser.find_element(By.TAG_NAME, "body").get_attribute("data-frame") == "8"
    peek = browser.find_element(By.ID, "peek")
    table = browser.find_element(By.ID, "table")
    assert "hide-peeks" not in (table.get_attribute("class") or "")
    peek.click()
    assert "hide-peeks" in (table.get_attribute("class") or "")
    assert (
        browser.execute_script(
            "return getComputedStyle(document.getElementById('table')).getPropertyValue('--peek')"
        ).strip()
        == "0"
    )
    screenshot(browser, tmp_path / "opening-hidden.png")
