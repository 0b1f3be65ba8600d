import type { BetView } from '@bookie/contracts';
import { startTestWallet, type TestWallet } from '@bookie/wallet/testing/in-process';
import { afterAll, beforeAll, expect } from 'vitest';
import { waitUntil } from '../../testing/scripted-partner.js';
import { type SettlementWorld, settlementWorld } from '../settlement/settlement.testing.js';

/** The platform and the reference wallet the bonus lifecycle tests run against. */
export interface BonusWorld {
  wallet: TestWallet;
  w: SettlementWorld;
}

/** Starts the reference wallet and a settlement world that calls it back. */
export async function startBonusWorld(): Promise<BonusWorld> {
  const wallet = await startTestWallet();
  const w = await settlementWorld({ callbackUrl: wallet.url });
  return { wallet, w };
}

/**
 * Starts a bonus world before the suite's tests and closes it after them; `started` receives it once it runs.
 * Returns {@link bonusHelpers} bound to it.
 */
export function useBonusWorld(started: (world: BonusWorld) => void) {
  let world: BonusWorld | undefined;
  beforeAll(async () => {
    world = await startBonusWorld();
    started(world);
  });
  afterAll(async () => {
    await world?.w.close();
    await world?.wallet.close();
  });
  return bonusHelpers(() => {
    if (!world) throw new Error('the bonus world has not started');
    return world;
  });
}

/** A player made by {@link bonusHelpers}' `player`. */
export type Player = Awaited<ReturnType<ReturnType<typeof bonusHelpers>['player']>>;

/**
 * What the freebet, insurance and boost lifecycle tests do: players with money in the wallet and the partner's REST
 * token, placing bets, resulting markets, waiting for callbacks, creating freebets and insurances.
 */
export function bonusHelpers(world: () => BonusWorld) {
  /** A player of a new white label with `deposit` EUR in the wallet, and the partner's REST token. */
  async function player(id: string, deposit = '100', wl: Record<string, unknown> = {}) {
    const { w, wallet } = world();
    const p = await w.newPlayer(id, wl);
    if (deposit !== '0') await wallet.api.deposit(id, deposit);
    const rest = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
      const res = await w.t.app.inject({
        method,
        url,
        headers: {
          authorization: `Bearer ${p.token}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
      });
      return { status: res.statusCode, json: res.json() };
    };
    return { ...p, id, rest };
  }

  async function place(session: string, body: Record<string, unknown>): Promise<BetView> {
    const { w } = world();
    const res = await w.t.app.inject({
      method: 'POST',
      url: '/frame-api/bets',
      headers: { authorization: `Bearer ${session}`, 'content-type': 'application/json' },
      payload: JSON.stringify({
        bet_type: 'single',
        stake: '10',
        currency: 'EUR',
        odds_strategy: 3,
        ...body,
      }),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as BetView;
  }

  /** A selection: market `m`, odd `o` of an event (odds "1" 1.5, "2" 2.5, "3" 3.5). */
  const sel = (event: string, m = '1', o = '2', odds = '2.5') => ({
    sport_event_id: event,
    market_id: m,
    odd_id: o,
    odds,
  });

  /** Waits until every callback of the bet was delivered (the wallet applied it). */
  async function delivered(betId: string, atLeast = 1) {
    const { w } = world();
    await waitUntil(async () => {
      const rows = await w.t.deps.database.db
        .selectFrom('callback_delivery')
        .select('status')
        .where('bet_id', '=', betId)
        .execute();
      return rows.length >= atLeast && rows.every((r) => r.status !== 'pending');
    });
  }

  /** Waits until every callback to a white label was delivered. */
  async function quiet(whiteLabelId: string) {
    const { w } = world();
    await waitUntil(async () => {
      const r = await w.t.deps.database.db
        .selectFrom('callback_delivery')
        .select('id')
        .where('white_label_id', '=', whiteLabelId)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return r === undefined;
    });
  }

  /** Waits for the first `/bet/settle` of a bet (enqueued) and returns its body. */
  async function settleOf(betId: string) {
    let found: { path: string; json: Record<string, unknown> } | undefined;
    await waitUntil(async () => {
      found = (await callbacksOf(betId)).find((c) => c.path === '/bet/settle');
      return found !== undefined;
    });
    return found as { path: string; json: Record<string, unknown> };
  }

  /** The callbacks enqueued for a bet, in order: path and parsed body. */
  async function callbacksOf(betId: string) {
    const { w } = world();
    const rows = await w.t.deps.database.db
      .selectFrom('callback_delivery')
      .select(['path', 'body'])
      .where('bet_id', '=', betId)
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ path: r.path, json: JSON.parse(r.body) as Record<string, unknown> }));
  }

  const balance = (id: string) => world().wallet.api.balance(id);
  const result = (event: string, odd: string, status: number, m = '1') =>
    world().w.result(event, [{ id: m, odds: [{ id: odd, status }] }]);

  const single = (data: Record<string, unknown> = {}) => [
    { type: 'bet_details', data: { bet_details: [{ type: 'single', data }] } },
  ];

  async function freebet(p: Player, over: Record<string, unknown> = {}) {
    const r = await p.rest('POST', '/freebet/create', {
      player_id: p.id,
      currency_code: 'EUR',
      amount: '10',
      conditions: single({ odds_coefficient: { min: '1.2' }, sport: ['football'] }),
      ...over,
    });
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    return r.json.id as string;
  }

  async function insurance(p: Player, over: Record<string, unknown> = {}) {
    const r = await p.rest('POST', '/insurance/create', {
      player_id: p.id,
      currency_code: 'EUR',
      type: 'percent',
      percent: '50',
      max_amount: '4',
      strategies: { max_odds_count_lose: 1 },
      ...over,
    });
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    return r.json.id as string;
  }
  return {
    player,
    place,
    sel,
    delivered,
    quiet,
    settleOf,
    callbacksOf,
    balance,
    result,
    single,
    freebet,
    insurance,
  };
}
