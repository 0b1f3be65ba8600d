import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSportEvent, startPlatform, type TestPlatform } from '../../testing/platform.js';
import { waitUntil } from '../../testing/scripted-partner.js';

// The real server and the reference wallet as separate processes, over HTTP.
describe(`placement end to end (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let p: TestPlatform;
  let eventId: string;

  async function place(token: string, body: Record<string, unknown>) {
    return p.call('POST', '/frame-api/bets', {
      token,
      body: { bet_type: 'single', stake: '10', currency: 'EUR', odds_strategy: 1, ...body },
    });
  }
  const single = (odd = '1', odds = '1.5') => ({
    selections: [{ sport_event_id: eventId, market_id: '1', odd_id: odd, odds }],
  });

  const newEvent = () => newSportEvent(p, 2);

  async function player(id: string, deposit = '100') {
    await p.walletApi.deposit(id, deposit);
    return p.session(id, { sid: id, currency: 'EUR' });
  }

  async function settledOutbox() {
    await waitUntil(async () => {
      const r = await p.call('GET', '/admin/callbacks?status=pending&limit=10');
      return r.json.items.filter((i: { mode: string }) => i.mode === 'async').length === 0;
    }, 30_000);
  }

  beforeAll(async () => {
    p = await startPlatform({
      whiteLabel: { limits: { min_stake: '1', max_stake: '1000', max_payout: null } },
    });
    eventId = await newEvent();
  }, 120_000);
  afterAll(async () => {
    await p?.close();
  });

  it('accepts a bet: the wallet holds then captures the stake', async () => {
    const s = await player('e2e-1');
    const r = await place(s, single());
    expect(r.status).toBe(200);
    expect(r.json.status).toBe(1);
    await settledOutbox();
    expect(await p.walletApi.balance('e2e-1')).toEqual({ available: '90.000000', held: '0.000000' });
    const ledger = await p.walletApi.ledger('e2e-1');
    expect(ledger.entries.map((e) => e.kind)).toEqual(expect.arrayContaining(['hold', 'capture']));
  });

  it('declines: the wallet releases the hold', async () => {
    const s = await player('e2e-2');
    const r = await place(s, { ...single('1', '1.4'), odds_strategy: 2 });
    expect(r.json.status).toBe(1); // 1.5 ≥ 1.4: accepted at the current, higher price
    const d = await place(s, { ...single('2', '9.9'), odds_strategy: 2 });
    expect(d.json.status).toBe(2);
    expect(d.json.restrictions[0].type).toBe('selection_value');
    await settledOutbox();
    expect(await p.walletApi.balance('e2e-2')).toEqual({ available: '90.000000', held: '0.000000' });
  });

  it('ends a bet as Place Error when the wallet has not enough balance', async () => {
    const s = await player('e2e-3', '5');
    const r = await place(s, single());
    expect(r.json.status).toBe(10);
    expect(r.json.restrictions).toEqual([
      { type: 'not_enough_balance', context: { actual_balance: '5.000000' } },
    ]);
    expect(await p.walletApi.balance('e2e-3')).toEqual({ available: '5.000000', held: '0.000000' });
  });

  it('delivers callbacks later, in order, when the wallet answers 500 for a while', async () => {
    const s = await player('e2e-4');
    const r = await place(s, single());
    expect(r.json.status).toBe(1);
    await p.walletApi.setFaults({ error500Rate: 1 });
    // while the wallet is down, a hold cannot be confirmed: the bet is force-declined and its /bet/decline waits
    const down = await place(s, single('2', '2.5'));
    expect(down.json.status).toBe(11);
    await new Promise((res) => setTimeout(res, 1500));
    const waiting = await p.call('GET', `/admin/callbacks?bet_id=${down.json.id}&limit=10`);
    const decline = waiting.json.items.find((i: { path: string }) => i.path === '/bet/decline');
    expect(decline).toMatchObject({ status: 'pending', last_status: 500 });
    expect(decline.attempts).toBeGreaterThanOrEqual(1);
    await p.walletApi.setFaults({ error500Rate: 0 });
    await settledOutbox();
    const out = await p.call('GET', `/admin/callbacks?bet_id=${down.json.id}&limit=10`);
    const rows = out.json.items.reverse();
    expect(rows.map((i: { path: string }) => i.path)).toEqual(['/bet/place', '/bet/decline']);
    expect(rows[1]).toMatchObject({ status: 'delivered', last_error: null });
    expect(rows[1].attempts).toBeGreaterThanOrEqual(2);
    expect((await p.walletApi.checkLedger()).ok).toBe(true);
    expect(await p.walletApi.balance('e2e-4')).toEqual({ available: '90.000000', held: '0.000000' });
  }, 60_000);

  it('retries a failing /bet/place, then force-declines and releases', async () => {
    const s = await player('e2e-5');
    await p.walletApi.setFaults({ lostAnswerRate: 1 });
    const r = await place(s, single());
    await p.walletApi.setFaults({ lostAnswerRate: 0 });
    expect(r.json.status).toBe(11);
    expect(r.json.restrictions[0].context.code).toBe('place_retry_limit_reached');
    await settledOutbox();
    // the wallet applied the hold (its answers were lost); the decline released it
    expect(await p.walletApi.balance('e2e-5')).toEqual({ available: '100.000000', held: '0.000000' });
  }, 60_000);

  it.each([
    'placement:after-hold-commit',
    'placement:after-place-answer',
    'placement:after-decision-commit',
    'dispatcher:after-answer',
  ])('survives kill -9 at %s', async (point) => {
    const id = `crash-${point.replace(/\W/g, '-')}`;
    await player(id);
    await p.restartBookie('SIGTERM', { BOOKIE_FAILPOINT: point });
    const token = await p.session(id, { sid: id, currency: 'EUR' });
    const r = await place(token, single()).catch((e: Error) => ({ status: 0, json: { error: e.message } }));
    await p.bookie.exited;
    expect(await p.bookie.exited).toBe('SIGKILL');
    await p.restartBookie('SIGTERM');
    // recovery and the dispatcher finish the work: the bet leaves hold_requested (status 0)
    const viewer = await p.session(id);
    let bet: { id: string; status: number } | undefined;
    await waitUntil(async () => {
      const bets = await p.call('GET', '/frame-api/bets', { token: viewer });
      expect(bets.json.items).toHaveLength(1);
      bet = bets.json.items[0];
      return bet!.status !== 0;
    }, 30_000);
    await settledOutbox();
    if (!bet) throw new Error('no bet');
    const balance = await p.walletApi.balance(id);
    if (bet.status === 1) expect(balance).toEqual({ available: '90.000000', held: '0.000000' });
    else {
      expect(bet.status).toBe(11);
      expect(balance).toEqual({ available: '100.000000', held: '0.000000' });
    }
    expect((await p.walletApi.checkLedger()).ok).toBe(true);
    // nothing sent twice but as an at-least-once retry of the same request_id: one row per logical callback
    const out = await p.call('GET', `/admin/callbacks?bet_id=${bet.id}&limit=100`);
    const paths = out.json.items.map((i: { path: string }) => i.path).sort();
    expect(paths).toEqual(bet.status === 1 ? ['/bet/accept', '/bet/place'] : ['/bet/decline', '/bet/place']);
    void r;
  }, 90_000);

  it('survives kill -9 while the wallet is still answering /bet/place', async () => {
    const id = 'crash-in-flight';
    const s = await player(id);
    await p.walletApi.setFaults({ delayRate: 1, delayMs: 3000 });
    const pending = place(s, single()).catch(() => undefined);
    await waitUntil(async () => (await p.walletApi.balance(id)).held === '10.000000', 25_000);
    await p.restartBookie('SIGKILL');
    await p.walletApi.setFaults({ delayRate: 0 });
    await pending;
    await waitUntil(async () => (await p.walletApi.balance(id)).held === '0.000000', 30_000);
    await settledOutbox();
    expect(await p.walletApi.balance(id)).toEqual({ available: '100.000000', held: '0.000000' });
    expect((await p.walletApi.checkLedger()).ok).toBe(true);
  }, 90_000);
});
