#!/usr/bin/env node
// Makes the committed excerpt of a Betfair Exchange stream recording (one `mcm` JSON message per line):
// every line carrying a market definition (status, in-play, runner results) and, in each window of WINDOW_S
// seconds of publish time (`pt`, aligned on the epoch), the first line carrying a last traded price (`ltp`).
// Lines are copied byte for byte, in their original order (docs/adr/0027-betfair-odds-stream.md).
//
//   node packages/simulator/scripts/betfair-excerpt.mjs <recording.jsonl> [window seconds, default 60] > excerpt.jsonl
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

const [file, windowArg = '60'] = process.argv.slice(2);
if (!file || !/^[1-9][0-9]*$/.test(windowArg)) {
  process.stderr.write('usage: betfair-excerpt.mjs <recording.jsonl> [window seconds]\n');
  process.exit(2);
}
const windowMs = Number(windowArg) * 1000;
const seen = new Set();
// crlfDelay: a CR LF ends one line; the line text (without its end) is written back with "\n"
const lines = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
for await (const line of lines) {
  if (line.trim() === '') continue;
  const m = JSON.parse(line);
  const changes = m.mc ?? [];
  const definition = changes.some((mc) => mc.marketDefinition !== undefined);
  const traded = changes.some((mc) => (mc.rc ?? []).some((rc) => rc.ltp !== undefined));
  const window = Math.floor(m.pt / windowMs);
  if (definition || (traded && !seen.has(window))) {
    if (traded) seen.add(window);
    process.stdout.write(`${line}\n`);
  }
}
