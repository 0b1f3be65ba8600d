// Preloaded with `--import` into a bench's child process (BENCH_TIMELINE=<dir>, bench/timeline.ts): records, with
// wall-clock timestamps (ms since the epoch), each garbage collection (kind and duration, from perf_hooks' `gc`
// entries) and each event-loop stall longer than TIMELINE_STALL_MS (default 10 ms; a 1 ms timer that fired late), and
// writes them to <TIMELINE_OUT>/<TIMELINE_NAME>-<pid>.json when the process exits (SIGTERM included) so the bench can
// set them beside its requests' latencies.
import { writeFileSync } from 'node:fs';
import { constants, monitorEventLoopDelay, PerformanceObserver, performance } from 'node:perf_hooks';

const KIND = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak',
};
const origin = performance.timeOrigin;
const gc = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gc.push([
      Math.round((origin + e.startTime) * 10) / 10,
      KIND[e.detail?.kind] ?? String(e.detail?.kind),
      Math.round(e.duration * 100) / 100,
    ]);
  }
}).observe({ entryTypes: ['gc'] });

const stallMs = Number(process.env.TIMELINE_STALL_MS ?? 10);
const stalls = [];
let expected = performance.now() + 1;
const tick = () => {
  const now = performance.now();
  const late = now - expected;
  if (late > stallMs) stalls.push([Math.round((origin + expected) * 10) / 10, Math.round(late * 10) / 10]);
  expected = now + 1;
  setTimeout(tick, 1).unref();
};
setTimeout(tick, 1).unref();
const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();

let written = false;
const write = () => {
  if (written) return;
  written = true;
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  const file = `${process.env.TIMELINE_OUT}/${process.env.TIMELINE_NAME ?? 'child'}-${process.pid}.json`;
  writeFileSync(
    file,
    JSON.stringify({
      gc,
      stalls,
      loopDelay: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) },
    }),
  );
};
process.on('exit', write);
process.prependListener('SIGTERM', write);
