import type { SportEvent } from '@bookie/contracts';
import { applyChanges } from '@bookie/sdk';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../testing/database.js';
import { applyChangesCommand } from './apply-changes.js';
import { createSportEvent } from './create-sport-event.js';
import { sampleEvent, sampleMarket } from './fixtures.js';
import { getSportEvent } from './get-sport-event.js';
import { patchMarkets } from './patch-markets.js';
import { putMarkets } from './put-markets.js';
import { recordBetRollback } from './record-bet-rollback.js';
import { refetchSportEvent } from './refetch-sport-event.js';
import { setBetStop } from './set-bet-stop.js';
import { updateFixture } from './update-fixture.js';
import { updateScores } from './update-scores.js';
import { runTradingCommand, type TradingDeps } from './writer.js';

describe(`trading writer (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let t: TestDatabase;
  let deps: TradingDeps;
  let now = Date.parse('2030-06-01T12:00:00.123Z');
  beforeAll(async () => {
    t = await createTestDatabase();
    deps = { database: t, clock: { now: () => now } };
  });
  afterAll(async () => {
    await t?.close();
  });

  async function log(after = 0n) {
    const rows = await t.db
      .selectFrom('feed_log')
      .select(['v', 'line', 'type', 'sport_event_id'])
      .where('v', '>', after)
      .orderBy('v')
      .execute();
    return rows.map((r) => ({ ...r, entry: JSON.parse(r.line) }));
  }
  async function head(): Promise<bigint> {
    const r = await sql<{ v: bigint | null }>`select max(v) as v from feed_log`.execute(t.db);
    return r.rows[0]?.v ?? 0n;
  }
  async function expectNothingWritten(run: () => Promise<unknown>, field: string) {
    const before = await head();
    await expect(run()).rejects.toMatchObject({ code: 'validation_error', details: { field } });
    expect(await head()).toBe(before);
  }

  it('creates an event: one match_new whose snapshot has 12-decimal odds and the entry version', async () => {
    const body = sampleEvent({ markets: 2 });
    const { id, version } = await createSportEvent(deps, body);
    const entries = await log(version - 1n);
    expect(entries).toHaveLength(1);
    const e = entries[0]!.entry;
    expect(e).toMatchObject({
      v: String(version),
      sport_event_id: id,
      type: 'match_new',
      timestamp: Math.floor(now / 1000),
    });
    expect(Object.keys(e)).toEqual(['v', 'sport_event_id', 'type', 'timestamp', 'sport_event']);
    expect(e.sport_event.markets['1'].odds['1'].value).toBe('1.500000000000');
    const stored = await getSportEvent(deps, { id });
    expect(stored.version).toBe(version);
    expect(stored.snapshot).toEqual(e.sport_event);
  });

  it('answers conflict for an existing id and 400 naming the field for a bad value, writing nothing', async () => {
    const body = sampleEvent();
    await createSportEvent(deps, body);
    await expect(createSportEvent(deps, body)).rejects.toMatchObject({ code: 'conflict' });
    const bad = sampleEvent();
    bad.markets![0]!.odds[1]!.value = '0.5';
    await expectNothingWritten(() => createSportEvent(deps, bad), 'body.markets.1.odds.2.value');
  });

  it('every command appends match_update entries whose changes replay to the stored snapshot', async () => {
    now += 1000;
    const { id, version: v0 } = await createSportEvent(deps, sampleEvent({ markets: 1 }));
    await updateFixture(deps, { id, body: { status: 1, meta: { timer_running: true } } });
    await putMarkets(deps, { id, body: { markets: [sampleMarket('7', 2)] } });
    await patchMarkets(deps, {
      id,
      body: {
        markets: [{ id: '7', status: 1, odds: [{ id: '2', value: '3.25', status: 1, is_active: false }] }],
      },
    });
    await setBetStop(deps, { id, betStop: true });
    await updateScores(deps, {
      id,
      body: { competitors: { c1: { total: { id: 'total', type: 1, number: 0, points: '1' } } } },
    });
    await applyChangesCommand(deps, {
      id,
      changes: { 'meta/map': 2, 'extensions/app.platform': { types: ['stream'] } },
    });
    const rb = await recordBetRollback(deps, {
      id,
      body: {
        market_ids: ['7'],
        reason: 'after_goal',
        dt_start: '2030-06-01T12:00:00Z',
        dt_end: '2030-06-01T12:01:00Z',
      },
    });
    const entries = await log(v0 - 1n);
    expect(entries.map((e) => e.type)).toEqual([
      'match_new',
      ...Array(6).fill('match_update'),
      'bet_rollback',
    ]);
    const vs = entries.map((e) => BigInt(e.entry.v));
    expect([...vs].sort((a, b) => (a < b ? -1 : 1))).toEqual(vs);
    // replaying the log the way a replica does gives the stored snapshot
    const replica = entries[0]!.entry.sport_event as SportEvent;
    for (const e of entries.slice(1))
      if (e.type === 'match_update') applyChanges(replica as never, e.entry.changes);
    const stored = await getSportEvent(deps, { id });
    expect(replica).toEqual(stored.snapshot);
    expect(stored.version).toBe(rb.version);
    expect(stored.snapshot.markets['7']!.odds['2']).toEqual({
      id: '2',
      value: '3.250000000000',
      status: 1,
      template: '{$competitor2}',
      is_active: false,
      probability: '0.000000000000',
    });
    // the odds change and the probabilities they cause travel in the same entry
    expect(entries[3]!.entry.changes).toMatchObject({
      'markets/7/odds/2/value': '3.250000000000',
      'markets/7/odds/2/probability': '0.000000000000',
      'markets/7/odds/1/probability': '0.666666666667', // 1/2 over 1/2 + 1/4
      'markets/7/odds/3/probability': '0.333333333333',
    });
    expect(stored.snapshot.markets['7']!.odds['1']!.probability).toBe('0.666666666667');
    expect(stored.snapshot.fixture.status).toBe(1);
    expect(stored.snapshot.bet_stop).toBe(true);
    expect(entries.at(-1)!.entry).toEqual({
      v: String(rb.version),
      sport_event_id: id,
      type: 'bet_rollback',
      timestamp: Math.floor(now / 1000),
      match_id: id,
      market_ids: ['7'],
      reason: 'after_goal',
      dt_start: '2030-06-01T12:00:00Z',
      dt_end: '2030-06-01T12:01:00Z',
    });
  });

  it('rejects bad paths (D24), unknown events and bad values with the field named, writing nothing', async () => {
    const { id } = await createSportEvent(deps, sampleEvent({ markets: 1 }));
    for (const [changes, field] of [
      [{ 'meta//x': 1 }, 'body.changes.meta//x'],
      [{ 'meta/__proto__/x': 1 }, 'body.changes.meta/__proto__/x'],
      [{ constructor: 1 }, 'body.changes.constructor'],
      [{ 'meta/prototype': 1 }, 'body.changes.meta/prototype'],
      [{ '': 1 }, 'body.changes.'],
      [{ 'markets/1/odds/1/value': '1.1234567890123' }, 'body.changes.markets/1/odds/1/value'],
      [{ 'markets/1/odds/1/value': 2 }, 'body.changes.markets/1/odds/1/value'],
      [{ 'markets/1/status': 9 }, 'body.changes.markets/1/status'],
      [{ 'markets/9/status': 0 }, 'body.changes.markets/9/status'],
      [{ 'fixture/status/x': 0 }, 'body.changes.fixture/status/x'],
      [{ nope: 1 }, 'body.changes.nope'],
      [{ id: 'x' }, 'body.changes.id'],
      [{ bet_stop: true, 'markets/1/odds/1/status': 'won' }, 'body.changes.markets/1/odds/1/status'],
    ] as const) {
      await expectNothingWritten(() => applyChangesCommand(deps, { id, changes: changes as never }), field);
    }
    await expectNothingWritten(() => setBetStop(deps, { id: 'missing', betStop: true }), 'id');
    await expectNothingWritten(
      () => patchMarkets(deps, { id, body: { markets: [{ id: '1', odds: [{ id: '9', status: 1 }] }] } }),
      'body.markets[0].odds[0].id',
    );
    await expect(refetchSportEvent(deps, { id: 'missing' })).rejects.toMatchObject({ code: 'not_found' });
    const s = await getSportEvent(deps, { id });
    expect(s.snapshot.bet_stop).toBe(false);
  });

  it('applies shallower paths first (D24) and refetch re-sends the snapshot as match_new', async () => {
    const { id } = await createSportEvent(deps, sampleEvent({ markets: 1 }));
    const { version } = await applyChangesCommand(deps, {
      id,
      changes: { 'markets/5/status': 1, 'markets/5': { ...sampleMarketSnapshot('5') } },
    });
    const s = await getSportEvent(deps, { id });
    expect(s.snapshot.markets['5']!.status).toBe(1);
    const r = await refetchSportEvent(deps, { id });
    expect(r.version).toBeGreaterThan(version);
    const [entry] = await log(r.version - 1n);
    expect(entry!.entry.type).toBe('match_new');
    expect(entry!.entry.sport_event).toEqual(s.snapshot);
  });

  it('assigns versions in commit order under concurrent writers, and a batch gets ascending versions', async () => {
    const ids = await Promise.all(
      Array.from({ length: 4 }, () => createSportEvent(deps, sampleEvent({ markets: 1 }))),
    );
    const before = await head();
    await Promise.all(
      ids.flatMap(({ id }) =>
        Array.from({ length: 5 }, (_, i) => setBetStop(deps, { id, betStop: i % 2 === 0 })),
      ),
    );
    const { versions } = await runTradingCommand(deps, async (tx) => {
      for (const { id } of ids) await tx.matchUpdate(id, { 'meta/n': 1 });
      await tx.matchUpdate(ids[0]!.id, { 'meta/n': 2 });
    });
    expect(versions).toHaveLength(5);
    const entries = await log(before);
    expect(entries).toHaveLength(25);
    const vs = entries.map((e) => e.v);
    for (let i = 1; i < vs.length; i++) expect(vs[i]! > vs[i - 1]!).toBe(true);
    expect((await getSportEvent(deps, { id: ids[0]!.id })).snapshot.meta).toMatchObject({ n: 2 });
  });
  it('never makes a closed, cancelled or abandoned event live or prematch again: 400 naming the transition, no entry', async () => {
    for (const final of [4, 5, 6]) {
      const { id } = await createSportEvent(deps, sampleEvent());
      await updateFixture(deps, { id, body: { status: final } });
      for (const to of [0, 1, 2, 7, 8]) {
        const before = await head();
        await expect(updateFixture(deps, { id, body: { status: to } })).rejects.toMatchObject({
          code: 'validation_error',
          message: expect.stringContaining(`${final} → ${to}`),
          details: { field: 'body.status', transition: `${final}->${to}` },
        });
        await expect(
          applyChangesCommand(deps, { id, changes: { 'fixture/status': to } as never }),
        ).rejects.toMatchObject({ details: { field: 'body.changes.fixture/status' } });
        expect(await head()).toBe(before);
      }
      expect((await getSportEvent(deps, { id })).snapshot.fixture.status).toBe(final);
    }
    // among the finished statuses it may still move (closed, then cancelled)
    const { id } = await createSportEvent(deps, sampleEvent());
    await updateFixture(deps, { id, body: { status: 4 } });
    await updateFixture(deps, { id, body: { status: 5 } });
    expect((await getSportEvent(deps, { id })).snapshot.fixture.status).toBe(5);
  });

  it('stores and streams fixture start times in UTC', async () => {
    const body = sampleEvent();
    body.fixture.start_time = '2030-06-01T20:00:00+02:00';
    const { id, version } = await createSportEvent(deps, body);
    expect((await getSportEvent(deps, { id })).snapshot.fixture.start_time).toBe('2030-06-01T18:00:00Z');
    expect((await log(version - 1n))[0]!.entry.sport_event.fixture.start_time).toBe('2030-06-01T18:00:00Z');
    const u = await updateFixture(deps, { id, body: { start_time: '2030-06-02T01:30:00.250-03:30' } });
    expect((await log(u.version - 1n))[0]!.entry.changes['fixture/start_time']).toBe(
      '2030-06-02T05:00:00.250Z',
    );
    expect((await getSportEvent(deps, { id })).snapshot.fixture.start_time).toBe('2030-06-02T05:00:00.250Z');
  });
});

function sampleMarketSnapshot(id: string) {
  const m = sampleMarket(id);
  return {
    id,
    type_id: m.type_id,
    template: m.template,
    specifiers: {},
    status: 0,
    odds: Object.fromEntries(
      m.odds.map((o) => [o.id, { id: o.id, value: o.value, status: 0, template: '', is_active: true }]),
    ),
  };
}
