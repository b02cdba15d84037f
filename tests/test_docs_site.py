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

from test_docs import ROOT


def test_the_built_site_searches_offline_and_loads_nothing_from_the_network(
    tmp_path: Path,
) -> None:
    site = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(site)],
        cwd=ROOT,
        check=True,
        capture_output=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=600,
    )
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
