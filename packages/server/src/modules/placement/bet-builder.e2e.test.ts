import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSportEvent, startPlatform, type TestPlatform } from '../../testing/platform.js';
import { waitUntil } from '../../testing/scripted-partner.js';
import { homeAndOverMarkets, HOME_AND_OVER as LEGS } from '../bet-builder/bet-builder.testing.js';
import { sampleEvent } from '../trading/fixtures.js';

// The real server and the reference wallet as separate processes: bets with bet builders are held, accepted and
// booked like any bet, their builders in bet_bet_builder_odds.
describe(`bet builders end to end (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let p: TestPlatform;
  let football: string;
  let other: string;

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
    const ev = {
      ...sampleEvent({ markets: 0 }),
      markets: homeAndOverMarkets(),
    };
    const r = await p.call('POST', '/trading/sport-events', { body: ev });
    expect(r.status).toBe(201);
    football = ev.id as string;
    other = await newSportEvent(p, 1);
  }, 120_000);
  afterAll(async () => {
    await p?.close();
  });

  it('places a builder single and an express with a builder through the frame; the wallet books both', async () => {
    await p.walletApi.deposit('bb-1', '100');
    const s = await p.session('bb-1', { sid: 'bb-1', currency: 'EUR' });
    const place = (body: Record<string, unknown>) =>
      p.call('POST', '/frame-api/bets', {
        token: s,
        body: { bet_type: 'single', stake: '10', currency: 'EUR', odds_strategy: 3, selections: [], ...body },
      });
    const single = await place({ bet_builders: [{ sport_event_id: football, legs: LEGS, odds: '3' }] });
    expect(single.status, JSON.stringify(single.json)).toBe(200);
    expect(single.json.status).toBe(1);
    expect(single.json.total_odds).toBe(single.json.bet_builders[0].odds);
    const express = await place({
      bet_type: 'express',
      selections: [{ sport_event_id: other, market_id: '1', odd_id: '1', odds: '1.5' }],
      bet_builders: [{ sport_event_id: football, legs: LEGS, odds: '3' }],
    });
    expect(express.json.status).toBe(1);
    await settledOutbox();
    expect(await p.walletApi.balance('bb-1')).toEqual({ available: '80.000000', held: '0.000000' });
    expect((await p.walletApi.checkLedger()).ok).toBe(true);
    const out = await p.call('GET', `/admin/callbacks?bet_id=${single.json.id}&limit=10`);
    expect(out.json.items.map((i: { path: string; status: string }) => [i.path, i.status]).sort()).toEqual([
      ['/bet/accept', 'delivered'],
      ['/bet/place', 'delivered'],
    ]);
  }, 60_000);

  it('reports a builder single through MTS POST /bets', async () => {
    const r = await p.call('POST', '/bets', {
      token: p.accessToken,
      body: {
        bet_id: `bb-${randomUUID()}`,
        player_id: 'bb-mts',
        type: { code: 0, system_sizes: [1] },
        stake: { value: '10', currency_code: 'EUR' },
        selections: [],
        bet_builders: [{ sport_event_id: football, legs: LEGS, value: '3' }],
        odds_strategy: 3,
        created_at: new Date().toISOString(),
      },
    });
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    expect(r.json.restrictions).toEqual([]);
    expect(r.json.bet.status.code).toBe(1);
  });
});
