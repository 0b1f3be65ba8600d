import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SportEvent } from '@bookie/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { FeedReplica } from './replica.js';
import { FileReplicaStore, MemoryReplicaStore, parseState, serialiseState } from './stores.js';

const event = (id: string): SportEvent => ({
  id,
  meta: {},
  fixture: {
    id,
    meta: {},
    type: 1,
    status: 0,
    streams: {},
    sport_id: 's',
    template: '',
    start_time: '2030-01-01T00:00:00Z',
    tournament: { id: 't', name: 'T', master_id: 'm' },
    updated_at: '2030-01-01T00:00:00.000Z',
    competitors: {},
    live_coverage: false,
  },
  markets: {
    m: {
      id: 'm',
      status: 0,
      type_id: 1,
      template: '',
      specifiers: {},
      odds: { o: { id: 'o', value: '1.500000000000', status: 0, template: '', is_active: true } },
    },
  },
  bet_stop: false,
  updated_at: '2030-01-01T00:00:00.000Z',
});

describe('FeedReplica (in-process)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'replica-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('applies entries in order, skips those at or below its version, and emits events', () => {
    const r = new FeedReplica();
    r.reset([event('e1')], 10n);
    const seen: string[] = [];
    r.on('match_update', (e) => seen.push(e.v));
    r.on('bet_rollback', (e) => seen.push(`rb${e.v}`));
    expect(
      r.applyLine(
        '{"v":"10","sport_event_id":"e1","type":"match_update","timestamp":1,"changes":{"bet_stop":true}}',
      ),
    ).toBe(false);
    expect(
      r.applyLine(
        '{"v":"11","sport_event_id":"e1","type":"match_update","timestamp":1,"changes":{"markets/m/odds/o/value":"2.000000000000"}}',
      ),
    ).toBe(true);
    expect(r.version).toBe(11n);
    expect(r.applyLine('{"type":"heartbeat","timestamp":1}')).toBe(false);
    // versions compare as integers: "9" is below "11" although it sorts above as a string
    expect(
      r.applyLine(
        '{"v":"9","sport_event_id":"e1","type":"match_update","timestamp":1,"changes":{"bet_stop":true}}',
      ),
    ).toBe(false);
    r.applyLine(
      '{"v":"12","sport_event_id":"e1","type":"bet_rollback","timestamp":1,"match_id":"e1","market_ids":[],"reason":"after_goal","dt_start":"2030-01-01T00:00:00Z","dt_end":"2030-01-01T00:00:00Z"}',
    );
    expect(seen).toEqual(['11', 'rb12']);
    expect(r.version).toBe(12n);
    expect(r.getEvent('e1')!.bet_stop).toBe(false);
    expect(r.getOdd('e1', 'm', 'o')!.value).toBe('2.000000000000');
    // beyond 2^53 the comparison is exact (BigInt): 2^53 + 1 and 2^53 + 2 differ
    r.reset([event('e1')], 9007199254740993n);
    expect(
      r.applyEntry({
        v: '9007199254740993',
        sport_event_id: 'e1',
        type: 'match_update',
        timestamp: 1,
        changes: {},
      }),
    ).toBe(false);
    expect(
      r.applyEntry({
        v: '9007199254740994',
        sport_event_id: 'e1',
        type: 'match_update',
        timestamp: 1,
        changes: {},
      }),
    ).toBe(true);
    expect(r.version).toBe(9007199254740994n);
  });

  it('answers isBettingAllowed by the spec rule, and false while disconnected', () => {
    const r = new FeedReplica();
    r.reset([event('e1')], 1n);
    expect(r.isBettingAllowed('e1', 'm', 'o')).toBe(false);
    r.setConnected(true);
    expect(r.isBettingAllowed('e1', 'm', 'o')).toBe(true);
    expect(r.isBettingAllowed('e1', 'm', 'x')).toBe(false);
    expect(r.isBettingAllowed('e1', 'constructor', 'o')).toBe(false);
    for (const [change, allowed] of [
      [{ bet_stop: true }, false],
      [{ bet_stop: false, 'fixture/status': 1 }, true],
      [{ 'fixture/status': 2 }, false],
      [{ 'fixture/status': 0, 'markets/m/status': 1 }, false],
      [{ 'markets/m/status': 0, 'markets/m/odds/o/is_active': false }, false],
      [{ 'markets/m/odds/o/is_active': true, 'markets/m/odds/o/status': 1 }, false],
      [{ 'markets/m/odds/o/status': 0 }, true],
    ] as const) {
      r.applyEntry({
        v: String((r.version ?? 0n) + 1n),
        sport_event_id: 'e1',
        type: 'match_update',
        timestamp: 1,
        changes: change,
      });
      expect(r.isBettingAllowed('e1', 'm', 'o')).toBe(allowed);
    }
    r.setConnected(false);
    expect(r.isBettingAllowed('e1', 'm', 'o')).toBe(false);
  });

  it('persists the version only together with the state (memory and file stores)', async () => {
    for (const store of [new MemoryReplicaStore(), new FileReplicaStore(join(dir, 'sub', 'state.jsonl'))]) {
      const a = new FeedReplica({ store });
      a.reset([event('e1'), event('e2')], 7n);
      a.applyEntry({
        v: '8',
        sport_event_id: 'e2',
        type: 'match_update',
        timestamp: 1,
        changes: { bet_stop: true },
      });
      await a.checkpoint();
      const b = new FeedReplica({ store });
      expect(await b.load()).toBe(8n);
      expect(b.toJSON()).toEqual(a.toJSON());
      expect(b.getEvent('e2')!.bet_stop).toBe(true);
    }
    expect(await new FileReplicaStore(join(dir, 'none')).load()).toBeUndefined();
    expect(parseState(serialiseState(5n, [event('x')])).version).toBe(5n);
    expect(() => parseState('{"nope":1}\n')).toThrow();
  });
});
