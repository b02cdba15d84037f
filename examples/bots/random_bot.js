// A bot for the bot protocol (docs/bot-protocol.md) in Node.js: a random legal move.
//
// Run by the referee as `node examples/bots/random_bot.js`: it reads one JSON message a
// line on standard input and answers each "decide" with one line, one of its "legal"
// entries. A small seeded generator (mulberry32) makes its games replay from the hello's seed.
"use strict";
const readline = require("readline");

let state = 1;
function random() {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "hello") {
    state = Number(BigInt(message.seed) % 4294967296n) | 0;
  } else if (message.type === "decide") {
    const legal = message.legal;
    process.stdout.write(JSON.stringify(legal[Math.floor(random() * legal.length)]) + "\n");
  } else if (message.type === "end") {
    process.exit(0);
  }
});
