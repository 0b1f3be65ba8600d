/**
 * How a replay shows its progress in a terminal: a progress bar (cli-progress) for `bookie replay`, and a one-line
 * ticker for `bookie demo`. Both write to a stream (stderr by default) so that `--json` output on stdout stays clean.
 *
 * @packageDocumentation
 */
import { Presets, SingleBar } from 'cli-progress';
import type { ReplayProgress } from './replay.js';

/** The simulated day and time (UTC) of a progress report, `YYYY-MM-DD HH:MM`. */
export function simulatedClock(p: Pick<ReplayProgress, 'simulatedAt'>): string {
  return new Date(p.simulatedAt).toISOString().slice(0, 16).replace('T', ' ');
}

/** A progress bar over a replay's actions (trading commands and bets). */
export interface ProgressBar {
  update(p: Readonly<ReplayProgress>): void;
  stop(): void;
}

/**
 * A cli-progress bar on `stream` (default stderr). On a stream that is not a terminal it prints a plain line at most
 * every `plainEveryMs` (default 5 s) instead of redrawing.
 */
export function progressBar(
  options: { stream?: NodeJS.WriteStream; plainEveryMs?: number } = {},
): ProgressBar {
  const stream = options.stream ?? process.stderr;
  if (!stream.isTTY) {
    let last = 0;
    let phase = '';
    return {
      update(p) {
        const now = Date.now();
        if (p.phase === phase && now - last < (options.plainEveryMs ?? 5000)) return;
        last = now;
        phase = p.phase;
        stream.write(`replay: ${p.phase} ${summary(p)}\n`);
      },
      stop() {},
    };
  }
  const bar = new SingleBar(
    {
      stream,
      format: 'replay {bar} {percentage}% | {phase} | {summary}',
      hideCursor: true,
      clearOnComplete: false,
      fps: 5,
      barsize: 24,
    },
    Presets.shades_classic,
  );
  let started = false;
  return {
    update(p) {
      const payload = { phase: p.phase, summary: summary(p) };
      if (!started) {
        bar.start(Math.max(1, p.actionsTotal), p.actionsDone, payload);
        started = true;
      } else bar.update(p.actionsDone, payload);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

function summary(p: Readonly<ReplayProgress>): string {
  return (
    `${simulatedClock(p)} | matches ${p.matchesEnded}/${p.matchesTotal} | ` +
    `bets ${p.betsDone}/${p.betsTotal} (${p.accepted} accepted) | commands ${p.stepsDone}/${p.stepsTotal}`
  );
}

/**
 * The demo's one-line ticker: redraws one line in place on a terminal (`\r`, cut to its width), or prints a line
 * every `plainEveryMs` (default 10 s) elsewhere.
 */
export function ticker(options: { stream?: NodeJS.WriteStream; plainEveryMs?: number } = {}) {
  const stream = options.stream ?? process.stdout;
  let last = 0;
  let shown = false;
  return {
    show(text: string) {
      if (stream.isTTY) {
        const width = Math.max(20, (stream.columns ?? 120) - 1);
        stream.write(`\r\x1b[2K${text.length > width ? `${text.slice(0, width - 1)}…` : text}`);
        shown = true;
        return;
      }
      const now = Date.now();
      if (now - last < (options.plainEveryMs ?? 10_000)) return;
      last = now;
      stream.write(`${text}\n`);
    },
    /** Ends the ticker line so that what follows starts on a new line. */
    done() {
      if (shown && stream.isTTY) stream.write('\n');
      shown = false;
    },
  };
}
