import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../../../testing/scripted-partner.js';
import { type SettlementWorld, settlementWorld } from '../settlement.testing.js';

/**
 * No log entry can stop settlement (docs/adr/0016-safety-and-conformance.md): an entry that keeps failing is
 * quarantined after SETTLEMENT_QUARANTINE_AFTER attempts, later entries settle, and the operator lists, retries and
 * skips it (audited).
 */
describe(`settlement quarantine (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let w: SettlementWorld;
  let session: string;

  beforeAll(async () => {
    w = await settlementWorld({ env: { SETTLEMENT_QUARANTINE_AFTER: '2' } });
    ({ session } = await w.newPlayer('p1'));
  });
  afterAll(async () => {
    await w?.close();
  });

  const admin = (method: 'GET' | 'POST', url: string, body?: unknown) => w.admin(method, url, body);

  /** Appends a bet_rollback whose market id holds a NUL straight to the log, as no API accepts it any more. */
  async function appendPoison(eventId: string): Promise<bigint> {
    const db = w.t.deps.database.db;
    const r = await sql<{ v: string }>`select nextval('feed_version_seq')::text as v`.execute(db);
    const v = BigInt(r.rows[0]!.v);
    const line = JSON.stringify({
      v: v.toString(),
      sport_event_id: eventId,
      match_id: eventId,
      type: 'bet_rollback',
      timestamp: Math.floor(Date.now() / 1000),
      market_ids: ['1\u0000'],
      reason: 'technical_error_in_coefficient',
      dt_start: new Date(Date.now() - 60_000).toISOString(),
      dt_end: new Date().toISOString(),
    });
    await sql`insert into feed_log (v, sport_event_id, type, line) values (${v}::int8, ${eventId}, 'bet_rollback', ${line})`.execute(
      db,
    );
    await sql`select pg_notify('bookie_log', ${v.toString()})`.execute(db);
    return v;
  }

  it('quarantines a poison entry after a few attempts; later bets still settle', async () => {
    const e = await w.newEvent(2);
    const poison = await appendPoison(e);
    const b = await w.place(session, { selections: [w.sel(e, '2', '1')] });
    await w.result(e, [{ id: '2', odds: [{ id: '1', status: 1 }] }]);
    const settled = await w.settlementsFor(b.id, 1);
    expect(settled[0]!.json).toMatchObject({ settle_type: 1 });
    expect(w.consumer.status().quarantined).toBe(1);

    const list = await admin('GET', '/admin/settlement/quarantine');
    expect(list.status).toBe(200);
    expect(list.json.items).toHaveLength(1);
    expect(list.json.items[0]).toMatchObject({
      v: poison.toString(),
      status: 'quarantined',
      type: 'bet_rollback',
      attempts: 2,
    });
    expect(list.json.items[0].error.length).toBeGreaterThan(0);
    const status = await admin('GET', '/admin/settlement/status');
    expect(status.json).toMatchObject({ quarantine: 1, quarantined: 1 });
  });

  it('retries an entry on request (it fails again: back in quarantine) and skips it, audited', async () => {
    const [entry] = (await admin('GET', '/admin/settlement/quarantine')).json.items;
    const retry = await admin('POST', `/admin/settlement/quarantine/${entry.v}/retry`, {
      reason: 'try again',
    });
    expect(retry).toMatchObject({ status: 200, json: { status: 'retry' } });
    await waitUntil(async () => {
      const [e] = (await admin('GET', '/admin/settlement/quarantine')).json.items;
      return e.status === 'quarantined' && e.attempts > entry.attempts;
    });
    const skip = await admin('POST', `/admin/settlement/quarantine/${entry.v}/skip`, { reason: 'bad entry' });
    expect(skip).toMatchObject({ status: 200, json: { status: 'skipped' } });
    expect((await admin('GET', '/admin/settlement/status')).json.quarantine).toBe(0);
    const audit = await w.t.deps.database.db
      .selectFrom('audit_log')
      .select(['actor', 'action'])
      .where('subject', '=', `feed_log:${entry.v}`)
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      { actor: 'admin-api:alice', action: 'settlement.quarantine.retry' },
      { actor: 'admin-api:alice', action: 'settlement.quarantine.skip' },
    ]);
  });

  it('answers 404 for an unknown entry and 400 naming the field for a bad version or reason', async () => {
    expect((await admin('POST', '/admin/settlement/quarantine/999999/skip', { reason: 'x' })).status).toBe(
      404,
    );
    const bad = await admin('POST', '/admin/settlement/quarantine/abc/skip', { reason: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.json.error.details.field).toBe('params.v');
    const noReason = await admin('POST', '/admin/settlement/quarantine/1/retry', {});
    expect(noReason.json.error.details.field).toBe('body.reason');
  });
});
