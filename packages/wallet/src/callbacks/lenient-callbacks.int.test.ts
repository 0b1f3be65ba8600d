import { randomUUID } from 'node:crypto';
import type { CallbackName } from '@bookie/contracts';
import { generateSigningSecret } from '@bookie/sdk';
import { acceptBody, placeBody, prepareCallback, settleBody } from '@bookie/sdk/callbacks/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestWallet, type TestWallet } from '../testing/in-process.js';

type Json = Record<string, unknown>;

const secret = generateSigningSecret();
let lenient: TestWallet;
let strict: TestWallet;
beforeAll(async () => {
  lenient = await startTestWallet({ secret });
  strict = await startTestWallet({ secret, strictCallbacks: true });
});
afterAll(async () => {
  await lenient?.close();
  await strict?.close();
});

async function post(w: TestWallet, name: CallbackName, body: Json, foreignParams: Json = {}) {
  const p = prepareCallback(name, body as never, { secret, foreignParams });
  const res = await fetch(`${w.url}${p.path}`, { method: 'POST', headers: p.headers, body: p.body });
  return { status: res.status, body: await res.text() };
}

function without(body: Json, ...keys: string[]): Json {
  const out = { ...body };
  for (const k of keys) delete out[k];
  return out;
}

/** A variant: how another sender shapes the place, accept and settle bodies of one bet (stake 10, payout 18.5). */
interface Variant {
  name: string;
  place: (b: Json) => Json;
  settle: (b: Json) => Json;
  foreignParams?: (player: string) => Json;
}

const OPTIONAL_PLACE_FIELDS = [
  'bet_freebet_id',
  'bet_insurance_id',
  'bet_boost_id',
  'total_odds_value',
  'base_odds_value',
  'bet_bet_builder_odds',
  'bet_system_sizes',
  'competitors',
];

const odd = (b: Json) => (b.bet_odds as Json[])[0] as Json;

const VARIANTS: Variant[] = [
  {
    name: 'optional ids and fields absent, settle without bet_boost_id and restrictions',
    place: (b) => without(b, ...OPTIONAL_PLACE_FIELDS),
    settle: (b) => without(b, 'bet_boost_id', 'restrictions', 'total_odds_value', 'base_odds_value'),
  },
  {
    name: 'optional ids and bet_player_id empty (the player comes from Foreign-Params)',
    place: (b) => ({ ...b, bet_player_id: '', bet_freebet_id: '', bet_insurance_id: '', bet_boost_id: '' }),
    settle: (b) => ({ ...b, bet_player_id: '', bet_boost_id: '' }),
    foreignParams: (player) => ({ player_id: player }),
  },
  {
    name: 'bet_player_id absent (the player comes from Foreign-Params)',
    place: (b) => without(b, 'bet_player_id'),
    settle: (b) => without(b, 'bet_player_id'),
    foreignParams: (player) => ({ player_id: player }),
  },
  {
    name: 'amounts and odds with 0–2 decimals',
    place: (b) => ({
      ...b,
      bet_stake: '10',
      total_odds_value: '1.85',
      base_odds_value: '1.85',
      bet_odds: [{ ...odd(b), odd_ratio: '1.85' }],
    }),
    settle: (b) => ({ ...b, settle_amount: '18.5', total_odds_value: '1.85', base_odds_value: '1.85' }),
  },
  {
    name: 'amounts and odds with 12 decimals',
    place: (b) => ({
      ...b,
      bet_stake: '10.000000000000',
      bet_odds: [{ ...odd(b), odd_ratio: '1.850000000000' }],
    }),
    settle: (b) => ({ ...b, settle_amount: '18.500000000000' }),
  },
  {
    name: 'meta with only some keys, competitor types 0 and 3',
    place: (b) => ({
      ...b,
      competitors: [
        { id: 'c1', type: 0 },
        { id: 'c2', type: 3 },
      ],
      bet_odds: [
        {
          ...odd(b),
          meta: { sport_event_info_sport_id: '1', sport_event_info_competitors: [{ id: 'c1', type: 0 }] },
        },
      ],
    }),
    settle: (b) => ({ ...b, bet_odds: [{ ...odd(b), meta: { sport_id: '1' } }] }),
  },
  {
    name: 'times with nanoseconds and other offsets',
    place: (b) => ({
      ...b,
      bet_created_at: '2024-05-01T12:00:01.123456789+0530',
      bet_odds: [{ ...odd(b), odd_updated_at: '2024-05-01T12:00:00.987654321-03' }],
    }),
    settle: (b) => ({ ...b, bet_odds: [{ ...odd(b), odd_updated_at: '2024-05-01T14:00:00.000000001Z' }] }),
  },
  {
    name: 'unknown fields',
    place: (b) => ({
      ...b,
      bet_currency: 'EUR',
      bet_odds: [{ ...odd(b), odd_name: 'home' }],
      extra: { a: 1 },
    }),
    settle: (b) => ({ ...b, settled_at: '2024-05-01T14:00:00Z' }),
  },
];

describe('the reference wallet accepts callbacks as other implementations send them', () => {
  for (const v of VARIANTS) {
    it(`${v.name}: 2xx, exact balances, byte-identical replays; strict refuses`, async () => {
      const player = `p-${randomUUID()}`;
      const bet = `b-${randomUUID()}`;
      const ref = { bet_id: bet, bet_player_id: player };
      const fp = v.foreignParams?.(player) ?? {};
      const place = v.place(placeBody(ref) as unknown as Json);
      const accept = { ...v.place(acceptBody(ref) as unknown as Json) };
      const settle = v.settle(settleBody(ref) as unknown as Json);

      await lenient.api.deposit(player, '100.000000');
      const steps: [CallbackName, Json, { available: string; held: string }][] = [
        ['place', place, { available: '90.000000', held: '10.000000' }],
        ['accept', accept, { available: '90.000000', held: '0.000000' }],
        ['settle', settle, { available: '108.500000', held: '0.000000' }],
      ];
      for (const [name, body, balance] of steps) {
        const first = await post(lenient, name, body, fp);
        expect(first.status, `${name}: ${first.body}`).toBe(204);
        expect(await lenient.api.balance(player, 'EUR')).toEqual(balance);
        const replay = await post(lenient, name, body, fp);
        expect(replay).toEqual(first);
        expect(await lenient.api.balance(player, 'EUR')).toEqual(balance);
      }
      expect((await lenient.api.checkLedger()).ok).toBe(true);

      await strict.api.deposit(player, '100.000000');
      const refused = await post(strict, 'place', place, fp);
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.body).error.code).toBe('validation_error');
      expect(await strict.api.balance(player, 'EUR')).toEqual({ available: '100.000000', held: '0.000000' });
    });
  }

  it('refuses, and stores the refusal of, an amount finer than the ledger can hold', async () => {
    const player = `p-${randomUUID()}`;
    await lenient.api.deposit(player, '100.000000');
    const body = {
      ...(placeBody({ bet_player_id: player, bet_id: `b-${randomUUID()}` }) as unknown as Json),
    };
    body.bet_stake = '10.0000001';
    const first = await post(lenient, 'place', body);
    expect(first.status).toBe(400);
    expect(JSON.parse(first.body).error).toMatchObject({
      code: 'validation_error',
      data: { field: 'body.bet_stake' },
    });
    expect(await post(lenient, 'place', body)).toEqual(first);
    expect(await lenient.api.balance(player, 'EUR')).toEqual({ available: '100.000000', held: '0.000000' });
  });

  it('refuses what no sender may send: a negative stake, a missing bet_id, a competitor type 4', async () => {
    const player = `p-${randomUUID()}`;
    const base = placeBody({ bet_player_id: player, bet_id: `b-${randomUUID()}` }) as unknown as Json;
    const bad: [Json, string][] = [
      [{ ...base, bet_stake: '-10' }, 'body.bet_stake'],
      [without(base, 'bet_id'), 'body.bet_id'],
      [{ ...base, competitors: [{ id: 'c', type: 4 }] }, 'body.competitors[0].type'],
    ];
    for (const [body, field] of bad) {
      const res = await post(lenient, 'place', { ...body, request_id: randomUUID() });
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body).error).toMatchObject({ code: 'validation_error', data: { field } });
    }
  });
});
