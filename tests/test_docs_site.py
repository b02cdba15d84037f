"""``make docs`` builds a site that works opened from the disk (``site/index.html``):
search runs without a server (Material's offline plugin, its index inlined in a script
and its shim kept in the repository), and no page loads anything from the network."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_browser import BROWSER, DRIVER, INSTALL, browser
from test_docs import ROOT

__all__ = ["browser"]  # the fixture, shared with the replay's browser tests

needs_browser = pytest.mark.skipif(BROWSER is None or DRIVER is None, reason=INSTALL)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built once for the tests of this file."""
    site = tmp_path_factory.mktemp("docs") / "site"
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(site)],
        cwd=ROOT,
        check=True,
        capture_output=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=600,
    )
    return site


def test_the_built_site_searches_offline_and_loads_nothing_from_the_network(site: Path) -> None:
    script = (site / "search" / "search_index.js").read_text(encoding="utf-8")
    assert script.startswith("var __index = ")
    index = json.loads(script.removeprefix("var __index = "))
    locations = {doc["location"].split("#")[0] for doc in index["docs"]}
    assert {"index.html", "cli.html", "rules.html", "api/engine.html"} <= locations
    for page in (site / "index.html", site / "api" / "engine.html"):
        html = page.read_text(encoding="utf-8")
        loaded = re.findall(r'<(?:script|link)[^>]*(?:src|href)="([^"]+)"', html)
        assert loaded and not [url for url in loaded if re.match(r"https?:", url)], page
        assert "iframe-worker-shim.js" in html
    assert (site / "assets" / "javascripts" / "iframe-worker-shim.js").is_file()


@needs_browser
def test_the_rules_text_diagrams_fit_a_1280_pixel_window(site: Path, browser: Any) -> None:
    """docs/assets/stylesheets/diagrams.css: every text diagram of the rules page shows
    whole in the content column, with both sidebars, in a 1280-pixel window."""
    browser.set_window_size(1280, 900)
    browser.get((site / "rules.html").as_uri())
    assert browser.execute_script("return window.innerWidth") <= 1280
    widths = browser.execute_script(
        "return [...document.querySelectorAll('.language-text pre > code')]"
        ".map(code => [code.scrollWidth, code.clientWidth])"
    )
    assert len(widths) >= 5
    assert all(scroll <= client for scroll, client in widths), widths
    browser.save_screenshot(str(site.parent / "rules-1280.png"))


@needs_browser
def test_searching_mulligan_limit_finds_the_rules_page_first(site: Path, browser: Any) -> None:
    """The rules page's search boost (its front matter) puts it above the pages that cite
    the rule (Security and limits, the command line)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get((site / "index.html").as_uri())
    browser.execute_script("document.querySelector('.md-search__input').focus()")
    browser.find_element(By.CSS_SELECTOR, ".md-search__input").send_keys("mulligan limit")
    script = (
        "return [...document.querySelectorAll('.md-search-result__item > a')]"
        ".map(link => link.getAttribute('href'))"
    )
    found = WebDriverWait(browser, 30).until(lambda driver: driver.execute_script(script))
    assert found[0].split("#")[0].endswith("/rules.html"), found
