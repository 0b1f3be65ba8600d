import { add, formatMoney, parseDecimal, sub } from '@bookie/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSportEvent, startPlatform, type TestPlatform } from '../../testing/platform.js';
import { waitUntil } from '../../testing/scripted-partner.js';

// The real server and the reference wallet as separate processes, over HTTP.
describe(`settlement end to end with the reference wallet (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let p: TestPlatform;

  const newEvent = () => newSportEvent(p, 1);

  async function place(token: string, eventId: string, odd = '1') {
    const r = await p.call('POST', '/frame-api/bets', {
      token,
      body: {
        bet_type: 'single',
        stake: '10',
        currency: 'EUR',
        odds_strategy: 3,
        selections: [{ sport_event_id: eventId, market_id: '1', odd_id: odd, odds: '1.01' }],
      },
    });
    expect(r.json.status).toBe(1);
    return r.json.id as string;
  }

  /** Sets odd statuses; waits until settlement processed the entry and the outbox is delivered. */
  async function result(eventId: string, odds: Array<{ id: string; status: number }>) {
    const r = await p.call('PATCH', `/trading/sport-events/${eventId}/markets`, {
      body: { markets: [{ id: '1', odds }] },
    });
    expect(r.status).toBe(200);
    await waitUntil(async () => {
      const s = await p.call('GET', '/admin/settlement/status');
      return s.json.leader && BigInt(s.json.processed) >= BigInt(r.json.version);
    }, 30_000);
    await delivered();
  }

  async function delivered() {
    await waitUntil(async () => {
      const r = await p.call('GET', '/admin/callbacks?status=pending&limit=10');
      return r.json.items.filter((i: { mode: string }) => i.mode === 'async').length === 0;
    }, 30_000);
  }

  beforeAll(async () => {
    p = await startPlatform({
      env: { SETTLEMENT_PAGE_SIZE: '5', SETTLEMENT_LEASE_TTL_MS: '2000', CALLBACK_POLL_MS: '100' },
      whiteLabel: { limits: { min_stake: '1', max_stake: '1000', max_payout: null } },
    });
  }, 120_000);
  afterAll(async () => {
    await p?.close();
  });

  it('win → unsettle → lost → unsettle → win (and back to 0): the wallet balance after each step', async () => {
    const e = await newEvent();
    await p.walletApi.deposit('chain', '100');
    const s = await p.session('chain', { sid: 'chain', currency: 'EUR' });
    const bet = await place(s, e);
    await delivered();
    const balance = async () => (await p.walletApi.balance('chain')).available;
    expect(await balance()).toBe('90.000000');

    await result(e, [{ id: '1', status: 1 }]); // win: settle 15
    expect(await balance()).toBe('105.000000');
    await result(e, [{ id: '1', status: 2 }]); // lost: unsettle 15, settle 0
    expect(await balance()).toBe('90.000000');
    await result(e, [{ id: '1', status: 1 }]); // win again: unsettle 0, settle 15
    expect(await balance()).toBe('105.000000');
    await result(e, [{ id: '1', status: 0 }]); // not resulted any more: unsettle 15 (status 4)
    expect(await balance()).toBe('90.000000');
    const viewer = await p.session('chain');
    expect((await p.call('GET', `/frame-api/bets/${bet}`, { token: viewer })).json).toMatchObject({
      status: 4,
    });
    await result(e, [{ id: '1', status: 3 }]); // half win: settle 12.5
    expect(await balance()).toBe('102.500000');

    // the wallet's own ledger, movement by movement: the balance right after each callback
    const ledger = (await p.walletApi.ledger('chain')).entries.filter((x) => x.bet_id === bet);
    const exact = (v: string) => parseDecimal(v, { field: 'amount', maxDecimals: 6 });
    let running = exact('100');
    const steps: string[] = [];
    for (const x of ledger) {
      if (x.kind === 'hold' || x.kind === 'debit') running = sub(running, exact(x.amount));
      else if (x.kind === 'credit' || x.kind === 'release') running = add(running, exact(x.amount));
      steps.push(`${x.kind} ${x.amount} → ${formatMoney(running)}`);
    }
    // (the wallet books no movement for the zero settle of the lost bet, nor for its unsettle)
    expect(steps.filter((x) => !x.startsWith('capture'))).toEqual([
      'hold 10.000000 → 90.000000',
      'credit 15.000000 → 105.000000',
      'debit 15.000000 → 90.000000',
      'credit 15.000000 → 105.000000',
      'debit 15.000000 → 90.000000',
      'credit 12.500000 → 102.500000',
    ]);
    // … while Bookie sent and the wallet acknowledged every callback of the chain, in order (D10, D12)
    const settlements = (await p.call('GET', `/admin/bets/${bet}/settlements`)).json.items as Array<{
      kind: string;
      amount: string;
      request_id: string;
    }>;
    const out = (await p.call('GET', `/admin/callbacks?bet_id=${bet}&limit=20`)).json.items as Array<{
      request_id: string;
      status: string;
    }>;
    const status = new Map(out.map((i) => [i.request_id, i.status]));
    expect(settlements.map((x) => `${x.kind} ${x.amount} ${status.get(x.request_id)}`)).toEqual([
      'settle 15.000000 delivered',
      'unsettle 15.000000 delivered',
      'settle 0.000000 delivered',
      'unsettle 0.000000 delivered',
      'settle 15.000000 delivered',
      'unsettle 15.000000 delivered',
      'settle 12.500000 delivered',
    ]);
    expect((await p.walletApi.checkLedger()).ok).toBe(true);

    // Bookie's own ledger agrees (D12): Σ settle − Σ unsettle = the current payout
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const report = await p.call('GET', `/admin/reports/reconcile?from=${from}&to=${to}&bets=true`);
    expect(report.json.bets.mismatched).toBe(0);
    expect(report.json.bets.rows.find((r: { bet_id: string }) => r.bet_id === bet)).toMatchObject({
      settles: 4,
      unsettles: 3,
      balance: '12.500000',
      current_payout: '12.500000',
      ok: true,
    });
  }, 120_000);

  it('survives kill -9 in the middle of a batch without settling any bet twice', async () => {
    const e = await newEvent();
    await p.walletApi.deposit('batch', '1000');
    const s = await p.session('batch', { sid: 'batch', currency: 'EUR' });
    const bets: string[] = [];
    for (let i = 0; i < 12; i++) bets.push(await place(s, e, '2'));
    await delivered();
    expect((await p.walletApi.balance('batch')).available).toBe('880.000000');

    // the next Bookie kills itself right after the first settlement batch (5 bets) commits
    await p.restartBookie('SIGTERM', { BOOKIE_FAILPOINT: 'settlement:after-commit' });
    const r = await p.call('PATCH', `/trading/sport-events/${e}/markets`, {
      body: { markets: [{ id: '1', odds: [{ id: '2', status: 1 }] }] },
    });
    expect(r.status).toBe(200);
    expect(await p.bookie.exited).toBe('SIGKILL');
    await p.restartBookie('SIGTERM');
    await waitUntil(async () => {
      const st = await p.call('GET', '/admin/settlement/status');
      return st.json.leader && BigInt(st.json.processed) >= BigInt(r.json.version);
    }, 30_000);
    await delivered();
    // the first batch (5 bets) had committed before the kill: the new process settled the 7 others
    expect((await p.call('GET', '/admin/settlement/status')).json).toMatchObject({
      settled: 7,
      resettled: 0,
    });

    // every bet settled once: one /bet/settle each in the outbox, one credit each in the wallet
    for (const id of bets) {
      const out = await p.call('GET', `/admin/callbacks?bet_id=${id}&limit=10`);
      expect(out.json.items.map((i: { path: string }) => i.path).sort()).toEqual([
        '/bet/accept',
        '/bet/place',
        '/bet/settle',
      ]);
    }
    const credits = (await p.walletApi.ledger('batch')).entries.filter((x) => x.kind === 'credit');
    expect(credits).toHaveLength(12);
    expect((await p.walletApi.balance('batch')).available).toBe('1180.000000');
    expect((await p.walletApi.checkLedger()).ok).toBe(true);
  }, 120_000);
});
