"""The page that ``gnoming serve`` serves at ``/``: a table to play in a browser.

A person picks the rules and the bots (the built-in ones and those the operator
registered, from ``GET /bots``), sits down (the page creates the table and takes
seat 0), and plays: the table is the SVG picture of :mod:`gnoming_rules.pictures` as the
seat sees it (sent by the server in each view, shown as an image so nothing in it can
run), and the moves open to the seat are buttons. ``/#table=ID&seat=N`` takes seat N of
an existing table instead (a table of people). The seat's token stays in the tab's
session storage, so a reload reconnects to the same seat. The page speaks the socket
protocol of :mod:`gnoming_rules.server.protocol` and nothing else.

Every answer of the server carries :data:`SECURITY_HEADERS`. Its Content-Security-Policy
lets the page run its own script and style and nothing else: the one inline script and
the one inline style are allowed by their SHA-256 hashes (computed here from the text
served, so they cannot drift apart), images only as ``data:`` URLs (the table's picture),
connections only to the page's own origin (its HTTP calls and its socket); no plugin, no
frame, no form, no ``<base>``. The page may not be framed (``frame-ancestors 'none'`` and
``X-Frame-Options: DENY``), a browser may not guess a content type (``nosniff``), and no
address is sent as a referrer.
"""

from __future__ import annotations

import base64
import hashlib
from typing import Final

__all__ = ["CONTENT_SECURITY_POLICY", "PAGE", "SECURITY_HEADERS"]

_STYLE: Final = """
body{font-family:system-ui,sans-serif;margin:0;background:#f4f1ea;color:#1b2a41}
header{background:#1f5135;color:#fff;padding:.6rem 1rem}
header h1{margin:0;font-size:1.3rem}
main{padding:1rem}
label{margin-right:1rem}
#table img{max-width:100%;height:auto;border-radius:8px}
#moves{margin:.8rem 0;display:flex;flex-wrap:wrap;gap:.4rem}
#moves button{font-size:1rem;padding:.4rem .8rem;border-radius:6px;border:1px solid #1f5135;
  background:#fff;cursor:pointer}
#moves button:hover{background:#e2f0e7}
#status{font-weight:600}
#error{color:#a31d1d}
"""

_SCRIPT: Final = r"""
"use strict";
const $ = (id) => document.getElementById(id);
let socket = null, table = null, seat = null, token = null, nextSeq = 1, names = [];

function say(text) { $("error").textContent = text || ""; }

async function call(method, path, body) {
  const response = await fetch(path, {
    method, headers: {"Content-Type": "application/json"},
    body: body === undefined ? undefined : JSON.stringify(body)});
  const data = await response.json();
  if (!response.ok) throw new Error(data.error.code + ": " + data.error.message);
  return data;
}

function words(move) {
  const slot = "slot " + move.slot;
  switch (move.action) {
    case "reveal": return "Reveal " + slot;
    case "draw": return move.source === "deck" ? "Draw from the draw pile"
      : "Take the top of discard pile " + (move.pile === undefined ? 0 : move.pile);
    case "place": return "Place in " + slot;
    case "bounce": return "Bounce into " + slot;
    case "discard": return "Discard" + (move.pile === undefined ? "" : " on pile " + move.pile);
    case "flip": return "Flip " + slot;
  }
  return move.action;
}

function show(view) {
  const seen = view.observation;
  if (view.svg) {
    const picture = document.createElement("img");
    picture.alt = "the table as you see it";
    picture.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(view.svg);
    $("table").replaceChildren(picture);
  }
  const moves = $("moves");
  moves.replaceChildren();
  for (const move of view.legal) {
    const button = document.createElement("button");
    button.textContent = words(move);
    button.dataset.move = JSON.stringify(move);
    button.addEventListener("click", () => play(move));
    moves.append(button);
  }
  const status = $("status");
  status.dataset.step = view.step;
  status.dataset.over = view.over;
  if (view.over) {
    const totals = seen.layouts.map(
      (_, s) => seen.scores.reduce((sum, round) => sum + round[s], 0));
    const best = Math.min(...totals);
    status.textContent = "Game over. Totals: " +
      totals.map((total, s) => names[s] + " " + total).join(", ") + ". Winner: " +
      totals.map((total, s) => total === best ? names[s] : null).filter(Boolean).join(", ") + ".";
  } else if (seen.actor === seat) {
    status.textContent = "Your move, " + names[seat] + " (round " + (seen.round + 1) + ").";
  } else {
    status.textContent = "Waiting for " + (names[seen.actor] || "the dealer") + ".";
  }
}

function play(move) {
  for (const button of $("moves").querySelectorAll("button")) button.disabled = true;
  say("");
  socket.send(JSON.stringify({type: "move", seq: nextSeq, move}));
  nextSeq += 1;
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const path = "/tables/" + encodeURIComponent(table) + "/socket";
  socket = new WebSocket(scheme + location.host + path);
  socket.onopen = () => socket.send(JSON.stringify({type: "hello", token, svg: true}));
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "welcome") { names = message.players; nextSeq = message.next_seq; }
    else if (message.type === "view") show(message);
    else if (message.type === "error") {
      say(message.message);
      const numbering = message.code === "bad-sequence" || message.code === "sequence-reused";
      if (message.seq !== null && !numbering) nextSeq = message.seq;
    }
  };
  socket.onclose = () => { if ($("status").dataset.over !== "true") setTimeout(connect, 1000); };
  $("setup").hidden = true;
  $("game").hidden = false;
  $("game").dataset.table = table;
}

async function sitDown() {
  try {
    const seats = [{name: $("name").value || "You"}];
    for (let i = 0; i < Number($("bots").value); i++) seats.push({bot: $("kind").value});
    const request = {ruleset: $("ruleset").value, seats, first_player: 0};
    const created = await call("POST", "/tables", request);
    await join(created.table, 0);
  } catch (error) { say(error.message); }
}

async function join(id, number) {
  const key = "gnoming:" + id + ":" + number;
  table = id; seat = number; token = sessionStorage.getItem(key);
  if (token === null) {
    token = (await call("POST", "/tables/" + encodeURIComponent(id) + "/seats/" + number)).token;
    sessionStorage.setItem(key, token);
  }
  connect();
}

window.addEventListener("load", async () => {
  $("start").addEventListener("click", sitDown);
  const names = await call("GET", "/rulesets");
  for (const name of names.rulesets) {
    const option = document.createElement("option");
    option.textContent = name;
    option.selected = name === "standard";
    $("ruleset").append(option);
  }
  const bots = await call("GET", "/bots");  // the built-in ones, then the operator's
  for (const name of bots.bots) {
    if (name === "greedy" || name === "random") continue;
    const option = document.createElement("option");
    option.textContent = name;
    $("kind").append(option);
  }
  const wanted = new URLSearchParams(location.hash.slice(1));
  if (wanted.has("table")) {
    join(wanted.get("table"), Number(wanted.get("seat") || 0)).catch((e) => say(e.message));
  }
});
"""


def _hash(text: str) -> str:
    """The CSP source that allows an inline element holding exactly ``text``."""
    digest = base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")
    return f"'sha256-{digest}'"


CONTENT_SECURITY_POLICY: Final = "; ".join(
    [
        "default-src 'none'",
        f"script-src {_hash(_SCRIPT)}",
        f"style-src {_hash(_STYLE)}",
        "img-src data:",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    ]
)
"""The page's Content-Security-Policy (see the module's notes)."""

SECURITY_HEADERS: Final = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
"""The headers of every HTTP answer of the server (the page's and the API's)."""

PAGE: Final = f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Gnoming A Round: a table</title>
<style>{_STYLE}</style>
</head>
<body>
<header><h1>Gnoming A Round</h1></header>
<main>
<section id="setup">
  <label>Rules <select id="ruleset"></select></label>
  <label>Your name <input id="name" value="You" maxlength="40"></label>
  <label>Bots
    <select id="bots"><option>2</option><option>3</option><option>4</option></select></label>
  <label>They play <select id="kind"><option>greedy</option><option>random</option></select></label>
  <button id="start">Sit down and play</button>
</section>
<section id="game" hidden>
  <p id="status" aria-live="polite"></p>
  <div id="moves"></div>
  <div id="table"></div>
</section>
<p id="error" role="alert"></p>
</main>
<script>{_SCRIPT}</script>
</body>
</html>
"""
