import { describe, expect, it } from 'vitest';
import { progressBar, simulatedClock, ticker } from './progress.js';
import type { ReplayProgress } from './replay.js';

function stream(isTTY: boolean) {
  const out: string[] = [];
  return {
    out,
    s: { isTTY, columns: 60, write: (t: string) => out.push(t) } as unknown as NodeJS.WriteStream,
  };
}

const p = (over: Partial<ReplayProgress> = {}): ReplayProgress => ({
  phase: 'running',
  actionsDone: 10,
  actionsTotal: 100,
  stepsDone: 8,
  stepsTotal: 80,
  betsDone: 2,
  betsTotal: 20,
  accepted: 2,
  notAccepted: 0,
  matchesEnded: 1,
  matchesTotal: 10,
  simulatedAt: Date.UTC(2023, 7, 12, 14, 0),
  ...over,
});

describe('progress', () => {
  it('shows the simulated time', () => {
    expect(simulatedClock(p())).toBe('2023-08-12 14:00');
  });

  it('prints plain lines off a terminal: on each new phase, else at most every so often', () => {
    const { out, s } = stream(false);
    const bar = progressBar({ stream: s, plainEveryMs: 60_000 });
    bar.update(p());
    bar.update(p({ betsDone: 3 }));
    bar.update(p({ phase: 'settling' }));
    bar.stop();
    expect(out).toHaveLength(2);
    expect(out[0]).toContain('replay: running 2023-08-12 14:00 | matches 1/10 | bets 2/20 (2 accepted)');
    expect(out[1]).toContain('replay: settling');
  });

  it('redraws one line on a terminal, cut to its width, and ends it', () => {
    const { out, s } = stream(true);
    const t = ticker({ stream: s });
    t.show('short');
    t.show('x'.repeat(200));
    t.done();
    expect(out[0]).toBe('\r\x1b[2Kshort');
    expect(out[1]!.length).toBeLessThan(70);
    expect(out[1]!.endsWith('…')).toBe(true);
    expect(out[2]).toBe('\n');
  });

  it('prints a ticker line now and then off a terminal', () => {
    const { out, s } = stream(false);
    const t = ticker({ stream: s, plainEveryMs: 60_000 });
    t.show('one');
    t.show('two');
    t.done();
    expect(out).toEqual(['one\n']);
  });
});
