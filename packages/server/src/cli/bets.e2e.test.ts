import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@bookie/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { insertBets } from '../modules/settlement/settlement.testing.js';
import { createTestDatabase, type TestDatabase } from '../testing/database.js';
import { runBookie } from '../testing/process.js';

// `bookie bets …` and `bookie report reconcile` as real processes on a database prepared by the test.
describe(`bookie bets and bookie report (real process, ${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let dir: string;
  let pg: TestDatabase | undefined;
  let dbArgs: string[];
  let betId: string;
  let openBet: string;

  /** Opens the database the commands use (PGlite: only while no command runs). */
  async function open(): Promise<Database> {
    if (pg) return pg;
    const d = (await openDatabase({ dataDir: dir })) as Database;
    await migrateToLatest(d.db);
    return d;
  }
  async function done(d: Database) {
    if (!pg) await d.close();
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bookie-bets-'));
    pg = process.env.DATABASE_URL ? await createTestDatabase() : undefined;
    dbArgs = pg?.url ? ['--db-url', pg.url] : ['--data-dir', dir];
    const d = await open();
    [betId = '', openBet = ''] = await insertBets(d, {
      whiteLabelId: 'wl-cli',
      playerId: 'p1',
      legs: [{ eventId: 'e1', marketId: '1', oddId: '1', odds: '1.8' }],
      count: 2,
    });
    await done(d);
  }, 60_000);
  afterAll(async () => {
    await pg?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refunds a bet manually with its callback and an audit row; shows it; refuses bad input', async () => {
    const r = await runBookie([
      'bets',
      'refund',
      betId,
      '--reason',
      'goodwill',
      '--actor',
      'ops:bob',
      ...dbArgs,
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      action: 'refund',
      transition: 'settled',
      callbacks: 1,
      bet: { id: betId, status: 6, settle_amount: '10.000000', settle_type: 2 },
    });
    const show = await runBookie(['bets', 'show', betId, ...dbArgs]);
    expect(show.code).toBe(0);
    const shown = JSON.parse(show.stdout);
    expect(shown.bet.selections[0].status).toBe(7);
    expect(shown.settlements).toHaveLength(1);
    expect(shown.settlements[0]).toMatchObject({
      kind: 'settle',
      amount: '10.000000',
      cause: 'operator:refund',
    });

    const missing = await runBookie([
      'bets',
      'void',
      '00000000-0000-4000-8000-000000000000',
      '--reason',
      'x',
      ...dbArgs,
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no bet/);
    const noReason = await runBookie(['bets', 'refund', betId, ...dbArgs]);
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toMatch(/--reason/);

    const d = await open();
    const audit = await d.db
      .selectFrom('audit_log')
      .selectAll()
      .where('subject', '=', `bet:${betId}`)
      .execute();
    const outbox = await d.db
      .selectFrom('callback_delivery')
      .select(['path', 'body'])
      .where('bet_id', '=', betId)
      .execute();
    await done(d);
    expect(audit.map((a) => [a.actor, a.action, a.details])).toEqual([
      [
        'ops:bob',
        'bet.refund',
        {
          reason: 'goodwill',
          before: { state: 'accepted', settle_amount: null },
          after: { state: 'settled', settle_amount: '10.000000' },
        },
      ],
    ]);
    expect(outbox.map((o) => o.path)).toEqual(['/bet/settle']);
    expect(JSON.parse(outbox[0]!.body)).toMatchObject({
      bet_id: betId,
      settle_amount: '10.000000',
      settle_type: 2,
    });
  }, 60_000);

  it('prints the reconciliation report as JSON and CSV', async () => {
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const to = new Date(Date.now() + 3_600_000).toISOString();
    const json = await runBookie(['report', 'reconcile', '--from', from, '--to', to, ...dbArgs]);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report.totals).toEqual([
      {
        white_label_id: 'wl-cli',
        currency: 'EUR',
        bets_accepted: 2,
        stakes_accepted: '20.000000',
        settles: 1,
        settle_amount: '10.000000',
        unsettles: 0,
        unsettle_amount: '0.000000',
        net_payout: '10.000000',
        unsettled_bets: 0,
        open_bets: 1,
        open_exposure: '18.000000',
        ledger_mismatches: 0,
        cash_outs: 0,
        cash_out_stake: '0.000000',
        cash_out_paid: '0.000000',
        cash_outs_through_callbacks: 0,
        cash_out_callbacks_delivered: 0,
        cash_out_callbacks_paid: '0.000000',
        cash_out_callbacks_pending: 0,
        cash_out_mismatches: 0,
      },
    ]);
    expect(report.bets).toMatchObject({ checked: 1, mismatched: 0 });
    expect(openBet).toBeDefined();

    const csv = await runBookie([
      'report',
      'reconcile',
      '--from',
      from,
      '--to',
      to,
      '--format',
      'csv',
      ...dbArgs,
    ]);
    expect(csv.code).toBe(0);
    expect(csv.stdout.trim().split('\n')).toEqual([
      'white_label_id,currency,bets_accepted,stakes_accepted,settles,settle_amount,unsettles,unsettle_amount,net_payout,unsettled_bets,open_bets,open_exposure,ledger_mismatches,cash_outs,cash_out_stake,cash_out_paid,cash_outs_through_callbacks,cash_out_callbacks_delivered,cash_out_callbacks_paid,cash_out_callbacks_pending,cash_out_mismatches',
      'wl-cli,EUR,2,20.000000,1,10.000000,0,0.000000,10.000000,0,1,18.000000,0,0,0.000000,0.000000,0,0,0.000000,0,0',
    ]);
  }, 60_000);
});
