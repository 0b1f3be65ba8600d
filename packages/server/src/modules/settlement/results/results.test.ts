import type { LogEntry, SportEvent } from '@bookie/contracts';
import { describe, expect, it } from 'vitest';
import { deadHeatOf, impactOf, marketResults } from './results.js';

function event(
  over: { fixture?: number; market?: number; odds?: number[]; meta?: Record<string, unknown> } = {},
) {
  return {
    id: 'e',
    meta: over.meta ?? {},
    fixture: { status: over.fixture ?? 3 },
    markets: {
      m: {
        id: 'm',
        status: over.market ?? 3,
        odds: Object.fromEntries(
          (over.odds ?? [1, 2]).map((s, i) => [
            String(i + 1),
            { id: String(i + 1), status: s, value: '1.5' },
          ]),
        ),
      },
    },
  } as unknown as SportEvent;
}

const update = (...keys: string[]) =>
  ({ type: 'match_update', changes: Object.fromEntries(keys.map((k) => [k, 1])) }) as unknown as LogEntry;

describe('marketResults', () => {
  it("takes each odd's status, the dead heat on a win, nothing for an unknown market", () => {
    const e = event({ odds: [1, 2, 0], meta: { dead_heat: { m: { '1': '0.5', '2': '0.5' } } } });
    expect(Object.fromEntries(marketResults(e, 'm')!)).toEqual({
      '1': { status: 1, deadHeat: '0.500000000000', reason: '' },
      '2': { status: 2, deadHeat: null, reason: '' },
      '3': { status: 0, deadHeat: null, reason: '' },
    });
    expect(marketResults(e, 'other')).toBeUndefined();
  });

  it('refunds every odd of a cancelled or abandoned fixture (5), cancels those of a cancelled market (6)', () => {
    for (const [fixture, reason] of [
      [5, 'fixture_cancelled'],
      [6, 'fixture_abandoned'],
    ] as const) {
      const r = marketResults(event({ fixture, market: 4, odds: [1, 2] }), 'm')!;
      expect([...r.values()]).toEqual([
        { status: 5, deadHeat: null, reason },
        { status: 5, deadHeat: null, reason },
      ]);
    }
    const r = marketResults(event({ market: 4, odds: [1, 0] }), 'm')!;
    expect([...r.values()].map((x) => [x.status, x.reason])).toEqual([
      [6, 'market_cancelled'],
      [6, 'market_cancelled'],
    ]);
  });

  it('ignores malformed statuses and dead heats', () => {
    expect(marketResults(event({ odds: [9, -1] }), 'm')!.get('1')!.status).toBe(0);
    for (const bad of ['0', '1', '1.5', 'x', 0.5, '-0.5', '0.0000000000001']) {
      expect(deadHeatOf(event({ meta: { dead_heat: { m: { '1': bad } } } }), 'm', '1')).toBeNull();
    }
    expect(deadHeatOf(event({ meta: { dead_heat: 'x' } }), 'm', '1')).toBeNull();
    expect(deadHeatOf(event({ meta: { dead_heat: { m: { '1': '0.333333333333' } } } }), 'm', '1')).toBe(
      '0.333333333333',
    );
  });
});

describe('impactOf', () => {
  it('reacts to statuses, whole markets, fixtures, dead heats and rollbacks; ignores the rest', () => {
    expect(impactOf({ type: 'match_new' } as unknown as LogEntry)).toEqual({ kind: 'event' });
    expect(impactOf({ type: 'bet_rollback' } as unknown as LogEntry)).toEqual({ kind: 'rollback' });
    expect(impactOf(update('fixture/status'))).toEqual({ kind: 'event' });
    expect(impactOf(update('fixture'))).toEqual({ kind: 'event' });
    expect(impactOf(update('markets'))).toEqual({ kind: 'event' });
    expect(impactOf(update('meta'))).toEqual({ kind: 'event' });
    expect(impactOf(update('meta/dead_heat'))).toEqual({ kind: 'event' });
    expect(
      impactOf(
        update(
          'markets/a',
          'markets/b/status',
          'markets/c/odds',
          'markets/d/odds/1',
          'markets/e/odds/1/status',
          'meta/dead_heat/f/1',
          'meta/dead_heat/g',
        ),
      ),
    ).toEqual({ kind: 'markets', marketIds: new Set(['a', 'b', 'c', 'd', 'e', 'f', 'g']) });
    expect(
      impactOf(
        update(
          'markets/a/odds/1/value',
          'markets/a/odds/1/is_active',
          'markets/a/template',
          'fixture/competitors/c1/scores/total/points',
          'bet_stop',
          'updated_at',
          'meta/time',
        ),
      ),
    ).toEqual({ kind: 'none' });
  });
});
