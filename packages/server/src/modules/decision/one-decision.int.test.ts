import { randomUUID } from 'node:crypto';
import type { BetView } from '@bookie/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../testing/partner.js';
import { type SettlementWorld, settlementWorld } from '../settlement/settlement.testing.js';

type Restriction = { type: string; context: Record<string, unknown> };

/** A selection of the sample event's market "1" (odds "1" 1.5, "2" 2.5, "3" 3.5) at the odds the player saw. */
interface Leg {
  event: string;
  odd: string;
  odds: string;
}

/** One bet, as each way it can arrive would carry it. */
interface SameBet {
  type: 'single' | 'express';
  stake: string;
  legs: Leg[];
}

/**
 * The one decision: the same bet driven through the four ways a bet reaches Bookie — the frame's placement (with
 * the partner's wallet callbacks), MTS `POST /bets`, advisory `POST /bets/advisory` and `GET /restrictions` — gets
 * the same restrictions, on a real database through the real app. Each way bets as a player of its own, so what
 * one way records (a bet time, a risk group) does not reach another.
 */
describe(`one decision for every way a bet arrives (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let w: SettlementWorld;
  let partnerToken: string;
  let a: string;
  let b: string;

  beforeAll(async () => {
    // shading off: an accepted bet must not move the odds the next way decides on
    w = await settlementWorld({
      env: { PLAYER_RATE_LIMIT: '0', PARTNER_RATE_LIMIT: '0', RISK_SHADE_MAX: '0' },
    });
    const p = await w.newPlayer('one-decision', {
      limits: { min_stake: '1', max_stake: '5', max_payout: null },
    });
    partnerToken = p.token;
    [a, b] = [await w.newEvent(1), await w.newEvent(1)];
  });
  afterAll(async () => {
    await w?.close();
  });

  async function partner(method: 'GET' | 'POST', url: string, body?: unknown) {
    const res = await w.t.app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${partnerToken}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
    return { status: res.statusCode, json: res.json() as Record<string, unknown> };
  }

  const player = (way: string) => `${way}-${randomUUID()}`;
  const typeOf = (bet: SameBet) =>
    bet.type === 'single' ? { code: 0, system_sizes: [1] } : { code: 1, system_sizes: [bet.legs.length] };
  const reported = (bet: SameBet, prefix: string) => ({
    bet_id: `${prefix}-${randomUUID()}`,
    player_id: player(prefix),
    type: typeOf(bet),
    stake: { value: bet.stake, currency_code: 'EUR' },
    selections: bet.legs.map((l) => ({
      sport_event_id: l.event,
      market_id: '1',
      odd_id: l.odd,
      value: l.odds,
    })),
    created_at: new Date().toISOString(),
  });

  /** The frame: a player's session places the bet; the scripted wallet holds the stake. */
  async function viaFrame(bet: SameBet): Promise<{ status: number; restrictions: Restriction[] }> {
    const session = await createSession(w.t.app, partnerToken, { player_id: player('frame') });
    const res = await w.t.app.inject({
      method: 'POST',
      url: '/frame-api/bets',
      headers: { authorization: `Bearer ${session}`, 'content-type': 'application/json' },
      payload: JSON.stringify({
        bet_type: bet.type,
        stake: bet.stake,
        currency: 'EUR',
        odds_strategy: 1,
        selections: bet.legs.map((l) => ({
          sport_event_id: l.event,
          market_id: '1',
          odd_id: l.odd,
          odds: l.odds,
        })),
      }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const view = res.json() as BetView;
    return { status: view.status, restrictions: view.restrictions as Restriction[] };
  }

  /** MTS `POST /bets`: the partner reports the bet; answers `{bet, restrictions}`. */
  async function viaMts(bet: SameBet): Promise<Restriction[]> {
    const r = await partner('POST', '/bets', reported(bet, 'mts'));
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    return r.json.restrictions as Restriction[];
  }

  /** Advisory `POST /bets/advisory`: the advice on the bet. */
  async function viaAdvisory(bet: SameBet): Promise<Restriction[]> {
    const r = await partner('POST', '/bets/advisory', reported(bet, 'advisory'));
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    return r.json.restrictions as Restriction[];
  }

  /** `GET /restrictions`: the same decision without recording the bet. */
  async function viaRestrictions(bet: SameBet): Promise<{ restrictions: Restriction[]; max_bet: unknown }> {
    const t = typeOf(bet);
    const q = [
      `player_id=${player('restrictions')}`,
      `type_code=${t.code}`,
      `system_sizes=${t.system_sizes.join(',')}`,
      `stake=${bet.stake}`,
      'currency_code=EUR',
      'odds_strategy=1',
      ...bet.legs.map(
        (l) =>
          `selection=${encodeURIComponent([l.event, '1', l.odd, l.odds].map(encodeURIComponent).join('/'))}`,
      ),
    ].join('&');
    const r = await partner('GET', `/restrictions?${q}`);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    return { restrictions: r.json.restrictions as Restriction[], max_bet: r.json.max_bet };
  }

  /** The bet through all four ways: every way's restrictions, in the order the decision gives them. */
  async function everyWay(bet: SameBet) {
    // the ways that record nothing a later one reads go first; each way is its own player anyway
    const restrictions = await viaRestrictions(bet);
    const advisory = await viaAdvisory(bet);
    const mts = await viaMts(bet);
    const frame = await viaFrame(bet);
    return { restrictions, advisory, mts, frame };
  }

  it('accepts a bet within the limits at the current odds, whichever way it arrives', async () => {
    const ways = await everyWay({ type: 'single', stake: '2', legs: [{ event: a, odd: '1', odds: '1.5' }] });
    expect(ways.frame.status).toBe(1); // accepted
    expect(ways.frame.restrictions).toEqual([]);
    expect(ways.mts).toEqual([]);
    expect(ways.advisory).toEqual([]);
    expect(ways.restrictions.restrictions).toEqual([]);
    expect(ways.restrictions.max_bet).toEqual({ value: '5.000000', currency_code: 'EUR' });
  });

  it('names the same max_bet and selection_value restrictions whichever way the bet arrives', async () => {
    const ways = await everyWay({
      type: 'express',
      stake: '10',
      legs: [
        { event: a, odd: '2', odds: '2.5' },
        { event: b, odd: '1', odds: '1.01' },
      ],
    });
    const types = ways.mts.map((r) => r.type).sort();
    expect(types).toEqual(['max_bet', 'selection_value']);
    expect(ways.mts.find((r) => r.type === 'max_bet')?.context).toMatchObject({ max_bet: '5.000000' });
    expect(ways.mts.find((r) => r.type === 'selection_value')?.context).toMatchObject({
      sport_event_id: b,
      market_id: '1',
      odd_id: '1',
    });
    expect(ways.frame.status).not.toBe(1);
    expect(ways.frame.restrictions).toEqual(ways.mts);
    expect(ways.advisory).toEqual(ways.mts);
    expect(ways.restrictions.restrictions).toEqual(ways.mts);
  });

  it('names the same bet_type restriction for a single of two selections whichever way it arrives', async () => {
    const ways = await everyWay({
      type: 'single',
      stake: '2',
      legs: [
        { event: a, odd: '1', odds: '1.5' },
        { event: b, odd: '1', odds: '1.5' },
      ],
    });
    expect(ways.mts.map((r) => r.type)).toEqual(['bet_type']);
    expect(ways.frame.status).not.toBe(1);
    expect(ways.frame.restrictions).toEqual(ways.mts);
    expect(ways.advisory).toEqual(ways.mts);
    expect(ways.restrictions.restrictions).toEqual(ways.mts);
  });
});
