"""The page of ``gnoming serve`` in a browser (filled in later)."""

PAGE = "<!doctype html><title>gnoming</title><p>gnoming serve</p>"
