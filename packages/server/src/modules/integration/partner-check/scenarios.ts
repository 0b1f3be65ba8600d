/**
 * The partner check's scenarios: every callback situation of the callback contract's played as the platform plays it, each with the
 * contract rule it checks. A scenario throws {@link CheckFailure} when the partner breaks the rule and
 * {@link Unsupported} when an optional callback is answered 404, 405 or 501 (the optional callbacks rule).
 *
 * @packageDocumentation
 */

import { randomUUID } from 'node:crypto';
import type { OptionalCallback } from '@bookie/contracts';
import { FINAL_PLACE_ERROR_CODES } from '@bookie/contracts';
import { add, formatMoney, mul, ONE, parseMoney, parseOdds, rational } from '@bookie/core';
import {
  acceptBody,
  cashOutAcceptedBody,
  cashOutDeclinedBody,
  declineBody,
  exampleOdd,
  insuranceAcceptedBody,
  insuranceDeclinedBody,
  placeBody,
  settleBody,
  unsettleBody,
} from '@bookie/sdk/callbacks/fixtures';
import type { ExpectedBalance } from './balance.js';
import type { CallbackAnswer, CallbackClient } from './callback-client.js';

/** The partner broke a rule of the contract. */
export class CheckFailure extends Error {
  override name = 'CheckFailure';
}

/** An optional callback the partner does not implement (404, 405 or 501, the optional callbacks rule). */
export class Unsupported extends Error {
  override name = 'Unsupported';
}

/** A scenario the check cannot make the partner produce; it reports what a correct answer looks like. */
export class NotProvoked extends Error {
  override name = 'NotProvoked';
}

/** What a scenario works with. */
export interface ScenarioContext {
  client: CallbackClient;
  balance: ExpectedBalance;
  playerId: string;
  /** A bet id unique to this run. */
  newBetId(): string;
  /** The player's available balance at the partner, when the partner's balance can be read. */
  observedAvailable(): Promise<string | undefined>;
  /** Answers seen, for the report (status codes of each callback sent). */
  record(callback: string, answer: CallbackAnswer): void;
  /** How to provoke the final place errors the check cannot provoke alone. */
  provoke: Provocations;
}

/** One scenario: a stable id, the contract rule it checks, and how to play it. */
export interface Scenario {
  id: string;
  rule: string;
  /** The callbacks it needs are optional for the partner (insurance, cash-out, heartbeat). */
  optional?: boolean;
  /** The optional callback capability it checks (the optional callbacks rule). */
  capability?: OptionalCallback;
  run(ctx: ScenarioContext): Promise<void>;
}

/** Stake of every scenario bet. */
export const STAKE = '2.000000';
/** Odds of every scenario bet (a single). */
export const ODDS = '1.850000';

const OPTIONAL_MISSING = new Set([404, 405, 501]);

function describe(a: CallbackAnswer): string {
  const body = a.body.length > 200 ? `${a.body.slice(0, 200)}…` : a.body;
  return `${a.status}${a.location ? ` → ${a.location}` : ''}${body ? ` ${body}` : ''}`;
}

/** Sends and expects success: any 2xx, no redirect (the any 2xx is a success rule). */
async function ok(
  ctx: ScenarioContext,
  callback: string,
  p: ReturnType<CallbackClient['prepare']>,
  optional = false,
): Promise<CallbackAnswer> {
  let a: CallbackAnswer;
  try {
    a = await ctx.client.send(p);
  } catch (err) {
    throw new CheckFailure(`${callback}: no answer (${err instanceof Error ? err.message : String(err)})`);
  }
  ctx.record(callback, a);
  if (optional && OPTIONAL_MISSING.has(a.status)) {
    throw new Unsupported(`${callback} answered ${a.status}: not implemented`);
  }
  if (a.status < 200 || a.status > 299) {
    throw new CheckFailure(`${callback}: expected a 2xx answer, got ${describe(a)}`);
  }
  return a;
}

/** What makes the partner answer a final place error other than `not_enough_balance`; only the partner knows. */
export interface Provocations {
  /** `Foreign-Params` of a session the partner does not know: its place answer must be `auth_session_unknown`. */
  unknownSession?: Record<string, unknown> | undefined;
  /** `Foreign-Params` of a session the partner holds expired: its answer must be `auth_credentials_expired`. */
  expiredSession?: Record<string, unknown> | undefined;
  /** A player whose limits refuse a bet of `STAKE`: the answer must be `player_limit_crossed` with `data.types`. */
  limitedPlayer?: string | undefined;
}

/**
 * After a place that should have been refused was accepted (2xx), releases the stake as the platform would with a
 * `/bet/decline` (best effort), so the partner is not left holding money for a bet that never lives.
 */
async function releaseIfHeld(
  ctx: ScenarioContext,
  a: CallbackAnswer,
  betId: string,
  playerId: string,
): Promise<void> {
  if (a.status < 200 || a.status > 299) return;
  await ctx.client
    .send(
      ctx.client.prepare(
        'decline',
        declineBody({ bet_id: betId, bet_player_id: playerId, restrictions: [] }),
      ),
    )
    .catch(() => undefined);
}

/** Plays one final place error the partner was told how to provoke (see {@link Provocations}). */
async function placeError(
  ctx: ScenarioContext,
  code: (typeof FINAL_PLACE_ERROR_CODES)[number],
): Promise<void> {
  const how = {
    auth_session_unknown: ctx.provoke.unknownSession && { foreignParams: ctx.provoke.unknownSession },
    auth_credentials_expired: ctx.provoke.expiredSession && { foreignParams: ctx.provoke.expiredSession },
    player_limit_crossed: ctx.provoke.limitedPlayer && { player: ctx.provoke.limitedPlayer },
    not_enough_balance: undefined,
  }[code];
  if (!how) {
    throw new NotProvoked(
      `only the partner knows when ${code} applies; give the check a way to provoke it (${
        code === 'player_limit_crossed'
          ? 'a limited player'
          : code === 'auth_session_unknown'
            ? 'the Foreign-Params of an unknown session'
            : 'the Foreign-Params of an expired session'
      })`,
    );
  }
  const player = 'player' in how && how.player ? how.player : ctx.playerId;
  const body = placeBody({ bet_id: ctx.newBetId(), bet_player_id: player, bet_stake: STAKE });
  const p =
    'foreignParams' in how && how.foreignParams
      ? ctx.client.prepare('place', body, how.foreignParams)
      : ctx.client.prepare('place', body);
  let a: CallbackAnswer;
  try {
    a = await ctx.client.send(p);
  } catch (err) {
    throw new CheckFailure(`/bet/place: no answer (${err instanceof Error ? err.message : String(err)})`);
  }
  ctx.record('/bet/place', a);
  let parsed: { error?: { code?: unknown; data?: { types?: unknown } } } = {};
  try {
    parsed = JSON.parse(a.body);
  } catch {}
  if (a.status !== 400 || parsed.error?.code !== code) {
    await releaseIfHeld(ctx, a, body.bet_id, player);
    throw new CheckFailure(`expected 400 with error.code ${code}, got ${describe(a)}`);
  }
  const types = parsed.error.data?.types;
  if (
    code === 'player_limit_crossed' &&
    !(Array.isArray(types) && types.every((t) => typeof t === 'string'))
  ) {
    throw new CheckFailure(`error.data.types must be an array of strings, got ${JSON.stringify(types)}`);
  }
}

/** Places and accepts a single of `STAKE` at `ODDS` (hold, then capture). */
async function placeAndAccept(ctx: ScenarioContext, fields: Record<string, string> = {}): Promise<string> {
  const bet = { bet_id: ctx.newBetId(), bet_player_id: ctx.playerId, bet_stake: STAKE, ...fields };
  await ok(ctx, '/bet/place', ctx.client.prepare('place', placeBody(bet)));
  ctx.balance.hold(STAKE);
  await ok(ctx, '/bet/accept', ctx.client.prepare('accept', acceptBody(bet)));
  ctx.balance.capture(STAKE);
  return bet.bet_id;
}

async function settle(
  ctx: ScenarioContext,
  betId: string,
  settleType: 1 | 2 | 3,
  amount: string,
  oddStatus: number,
): Promise<void> {
  await ok(
    ctx,
    '/bet/settle',
    ctx.client.prepare(
      'settle',
      settleBody({
        bet_id: betId,
        bet_player_id: ctx.playerId,
        settle_type: settleType,
        settle_amount: amount,
        bet_odds: [exampleOdd({ odd_status: oddStatus })],
      }),
    ),
  );
  ctx.balance.credit(amount);
}

const stake = parseMoney(STAKE, 'stake');
const odds = parseOdds(ODDS, 'odds');
/** Payouts of the scenario bet (the leg factors rule, the exact, then rounded once rule): win S·d, half win S·(d+1)/2, half loss S/2, refund S. */
const WIN = formatMoney(mul(stake, odds));
const HALF_WIN = formatMoney(mul(stake, mul(rational(odds.num + odds.den, odds.den), rational(1n, 2n))));
const HALF_LOSS = formatMoney(mul(stake, rational(1n, 2n)));

function sameAnswer(first: CallbackAnswer, again: CallbackAnswer, what: string): void {
  if (first.status !== again.status || first.body !== again.body) {
    throw new CheckFailure(
      `${what}: a repeated request_id must get the first answer again; first ${describe(first)}, then ${describe(again)}`,
    );
  }
}

/** Every scenario, in the order they run. */
export const SCENARIOS: readonly Scenario[] = [
  {
    id: 'heartbeat',
    capability: 'heartbeat',
    rule: 'the heartbeat rule: POST /heartbeat with an empty body and the Foreign-Params header is answered 204 (any 2xx).',
    optional: true,
    async run(ctx) {
      await ok(ctx, '/heartbeat', ctx.client.prepare('heartbeat', null as never), true);
    },
  },
  {
    id: 'place_accept',
    rule: 'spec 01 Bet: /bet/place holds (freezes, does not withdraw) the stake; /bet/accept captures it. Both 2xx.',
    async run(ctx) {
      await placeAndAccept(ctx);
    },
  },
  {
    id: 'place_decline',
    rule: 'spec 01 Bet: /bet/decline after /bet/place releases the held stake; 2xx.',
    async run(ctx) {
      const bet = { bet_id: ctx.newBetId(), bet_player_id: ctx.playerId, bet_stake: STAKE };
      await ok(ctx, '/bet/place', ctx.client.prepare('place', placeBody(bet)));
      ctx.balance.hold(STAKE);
      await ok(
        ctx,
        '/bet/decline',
        ctx.client.prepare(
          'decline',
          declineBody({ bet_id: bet.bet_id, bet_player_id: ctx.playerId, restrictions: [] }),
        ),
      );
      ctx.balance.release(STAKE);
    },
  },
  {
    id: 'place_error_not_enough_balance',
    rule:
      'the callback errors rule: a /bet/place the player cannot cover is answered 400 {"error":{"code":"not_enough_balance","data":' +
      '{"actual_balance":"…"}}} and nothing is held.',
    async run(ctx) {
      const available = await ctx.observedAvailable();
      // more than the player has: the observed balance plus one, or an amount no test player holds
      const tooMuch = available
        ? formatMoney(add(parseMoney(available, 'available'), ONE))
        : '1000000000.000000';
      const body = placeBody({ bet_id: ctx.newBetId(), bet_player_id: ctx.playerId, bet_stake: tooMuch });
      const p = ctx.client.prepare('place', body);
      let a: CallbackAnswer;
      try {
        a = await ctx.client.send(p);
      } catch (err) {
        throw new CheckFailure(`/bet/place: no answer (${err instanceof Error ? err.message : String(err)})`);
      }
      ctx.record('/bet/place', a);
      if (a.status !== 400) {
        await releaseIfHeld(ctx, a, body.bet_id, ctx.playerId);
        throw new CheckFailure(`expected 400 not_enough_balance, got ${describe(a)}`);
      }
      let answer: { error?: { code?: unknown; data?: { actual_balance?: unknown } } };
      try {
        answer = JSON.parse(a.body);
      } catch {
        throw new CheckFailure(`the error body is not JSON: ${describe(a)}`);
      }
      if (answer.error?.code !== 'not_enough_balance') {
        throw new CheckFailure(`expected error.code not_enough_balance, got ${describe(a)}`);
      }
      const actual = answer.error.data?.actual_balance;
      if (typeof actual !== 'string' || !/^(0|[1-9][0-9]*)(\.[0-9]{1,6})?$/.test(actual)) {
        throw new CheckFailure(
          `error.data.actual_balance must be a decimal string, got ${JSON.stringify(actual)}`,
        );
      }
    },
  },
  ...FINAL_PLACE_ERROR_CODES.filter((c) => c !== 'not_enough_balance').map(
    (code): Scenario => ({
      id: `place_error_${code}`,
      rule: `the callback errors rule: a partner that refuses a /bet/place with ${code} answers 400 {"error":{"code":"${code}"${code === 'player_limit_crossed' ? ',"data":{"types":[…]}' : ''}}}; the bet ends as Place Error and is not retried.`,
      async run(ctx) {
        await placeError(ctx, code);
      },
    }),
  ),
  {
    id: 'settle_win',
    rule: 'the callback contract, the settle type rule: /bet/settle with settle_type 1 credits settle_amount (stake × odds).',
    async run(ctx) {
      await settle(ctx, await placeAndAccept(ctx), 1, WIN, 1);
    },
  },
  {
    id: 'settle_loss',
    rule: 'the callback contract, the settle type rule: /bet/settle with settle_type 3 and settle_amount "0.000000" moves nothing; 2xx.',
    async run(ctx) {
      await settle(ctx, await placeAndAccept(ctx), 3, '0.000000', 2);
    },
  },
  {
    id: 'settle_refund',
    rule: 'the settle type rule: /bet/settle with settle_type 2 credits the stake back.',
    async run(ctx) {
      await settle(ctx, await placeAndAccept(ctx), 2, STAKE, 5);
    },
  },
  {
    id: 'settle_half_win',
    rule: 'the leg factors rule: a half-won single settles with settle_type 1 and stake × (odds + 1) / 2.',
    async run(ctx) {
      await settle(ctx, await placeAndAccept(ctx), 1, HALF_WIN, 3);
    },
  },
  {
    id: 'settle_half_loss',
    rule: 'the leg factors rule: a half-lost single settles with settle_type 3 and half the stake.',
    async run(ctx) {
      await settle(ctx, await placeAndAccept(ctx), 3, HALF_LOSS, 4);
    },
  },
  {
    id: 'unsettle_and_settle_again',
    rule:
      'the callback contract, the full unsettle rule: /bet/unsettle takes back the whole previous settle_amount; the next /bet/settle credits the ' +
      'new full amount (Σ settle − Σ unsettle = the current payout).',
    async run(ctx) {
      const betId = await placeAndAccept(ctx);
      await settle(ctx, betId, 1, WIN, 1);
      await ok(
        ctx,
        '/bet/unsettle',
        ctx.client.prepare(
          'unsettle',
          unsettleBody({ bet_id: betId, bet_player_id: ctx.playerId, unsettle_amount: WIN }),
        ),
      );
      ctx.balance.debit(WIN);
      await settle(ctx, betId, 3, '0.000000', 2);
    },
  },
  {
    id: 'insurance_paid',
    capability: 'insurance',
    rule: 'spec 01 Bet insurance: an insured bet lost → /bet/insurances/accepted credits refund_amount.',
    optional: true,
    async run(ctx) {
      const insuranceId = randomUUID();
      const betId = await placeAndAccept(ctx, { bet_insurance_id: insuranceId });
      await settle(ctx, betId, 3, '0.000000', 2);
      await ok(
        ctx,
        '/bet/insurances/accepted',
        ctx.client.prepare(
          'insuranceAccepted',
          insuranceAcceptedBody({ bet_id: betId, bet_insurance_id: insuranceId, refund_amount: '1.000000' }),
        ),
        true,
      );
      ctx.balance.credit('1.000000');
    },
  },
  {
    id: 'insurance_declined',
    capability: 'insurance',
    rule: 'spec 01 Bet insurance: an insured bet won → /bet/insurances/decline; no money moves; 2xx.',
    optional: true,
    async run(ctx) {
      const insuranceId = randomUUID();
      const betId = await placeAndAccept(ctx, { bet_insurance_id: insuranceId });
      await settle(ctx, betId, 1, WIN, 1);
      await ok(
        ctx,
        '/bet/insurances/decline',
        ctx.client.prepare(
          'insuranceDeclined',
          insuranceDeclinedBody({ bet_id: betId, bet_insurance_id: insuranceId }),
        ),
        true,
      );
    },
  },
  {
    id: 'cash_out_accepted',
    capability: 'cash_out',
    rule: 'the cash-out callbacks rule: /bet/cash-out-orders/accepted credits refund_amount once per cash-out order.',
    optional: true,
    async run(ctx) {
      const betId = await placeAndAccept(ctx);
      await ok(
        ctx,
        '/bet/cash-out-orders/accepted',
        ctx.client.prepare(
          'cashOutAccepted',
          cashOutAcceptedBody({
            bet_id: betId,
            cash_out_order_id: `${betId}-co`,
            amount: STAKE,
            refund_amount: '1.500000',
          }),
        ),
        true,
      );
      ctx.balance.credit('1.500000');
    },
  },
  {
    id: 'cash_out_declined',
    capability: 'cash_out',
    rule: 'the cash-out callbacks rule: /bet/cash-out-orders/declined takes back what the listed orders were credited; an order never credited moves no money; 2xx.',
    optional: true,
    async run(ctx) {
      const betId = await placeAndAccept(ctx);
      await ok(
        ctx,
        '/bet/cash-out-orders/declined',
        ctx.client.prepare(
          'cashOutDeclined',
          cashOutDeclinedBody({ bet_id: betId, cash_out_order_ids: [`${betId}-co`] }),
        ),
        true,
      );
    },
  },
  {
    id: 'duplicate_place',
    rule:
      'Idempotency (the callback requests rule): a /bet/place delivered twice with the same request_id gets the same status and ' +
      'content, and the stake is held once.',
    async run(ctx) {
      const bet = { bet_id: ctx.newBetId(), bet_player_id: ctx.playerId, bet_stake: STAKE };
      const p = ctx.client.prepare('place', placeBody(bet));
      const first = await ok(ctx, '/bet/place', p);
      ctx.balance.hold(STAKE);
      const again = await ok(ctx, '/bet/place (repeat)', p);
      sameAnswer(first, again, '/bet/place');
      await ok(ctx, '/bet/accept', ctx.client.prepare('accept', acceptBody(bet)));
      ctx.balance.capture(STAKE);
    },
  },
  {
    id: 'duplicate_settle',
    rule:
      'Idempotency (the callback requests rule): a /bet/settle delivered twice with the same request_id gets the same status and ' +
      'content, and settle_amount is credited once.',
    async run(ctx) {
      const betId = await placeAndAccept(ctx);
      const p = ctx.client.prepare(
        'settle',
        settleBody({ bet_id: betId, bet_player_id: ctx.playerId, settle_amount: WIN, settle_type: 1 }),
      );
      const first = await ok(ctx, '/bet/settle', p);
      ctx.balance.credit(WIN);
      const again = await ok(ctx, '/bet/settle (repeat)', p);
      sameAnswer(first, again, '/bet/settle');
    },
  },
  {
    id: 'retry_after_timeout',
    rule:
      'the callback requests rule, the callback retries rule: a /bet/place whose answer was lost (timeout) is sent again with the same request_id and bytes; the ' +
      'retry succeeds and the stake is held once.',
    async run(ctx) {
      const bet = { bet_id: ctx.newBetId(), bet_player_id: ctx.playerId, bet_stake: STAKE };
      const p = ctx.client.prepare('place', placeBody(bet));
      await ctx.client.sendAndAbandon(p);
      // the platform retries until a final answer; a partner still busy with the first delivery may refuse for now
      let a: CallbackAnswer | undefined;
      for (let attempt = 0; attempt < 6; attempt++) {
        if (attempt > 0) await new Promise((r) => setTimeout(r, 100 * 2 ** attempt));
        try {
          a = await ctx.client.send(p);
        } catch {
          continue;
        }
        ctx.record('/bet/place (retry)', a);
        if (a.status >= 200 && a.status <= 299) break;
      }
      if (!a || a.status < 200 || a.status > 299) {
        throw new CheckFailure(`the retried /bet/place never succeeded: ${a ? describe(a) : 'no answer'}`);
      }
      ctx.balance.hold(STAKE);
      await ok(ctx, '/bet/accept', ctx.client.prepare('accept', acceptBody(bet)));
      ctx.balance.capture(STAKE);
    },
  },
  {
    id: 'omitted_optional_fields',
    rule:
      'the lenient callbacks rule: optional fields may be absent (bet_freebet_id, bet_insurance_id, bet_boost_id, status_reason, the ' +
      'meta aliases); the partner still holds and captures.',
    async run(ctx) {
      const bet = placeBody({ bet_id: ctx.newBetId(), bet_player_id: ctx.playerId, bet_stake: STAKE });
      const { bet_freebet_id: _f, bet_insurance_id: _i, bet_boost_id: _b, ...lean } = bet;
      await ok(ctx, '/bet/place', ctx.client.prepare('place', lean));
      ctx.balance.hold(STAKE);
      const accept = acceptBody({ bet_id: bet.bet_id, bet_player_id: ctx.playerId, bet_stake: STAKE });
      const { bet_freebet_id: _f2, bet_insurance_id: _i2, bet_boost_id: _b2, ...leanAccept } = accept;
      await ok(ctx, '/bet/accept', ctx.client.prepare('accept', leanAccept));
      ctx.balance.capture(STAKE);
    },
  },
  {
    id: 'unknown_fields',
    rule: 'the lenient callbacks rule: fields the partner does not know (added in a later version) are ignored, not refused.',
    async run(ctx) {
      const bet = placeBody({ bet_id: ctx.newBetId(), bet_player_id: ctx.playerId, bet_stake: STAKE });
      const withExtra = {
        ...bet,
        bet_channel: 'web',
        bet_odds: bet.bet_odds.map((o) => ({ ...o, odd_probability: '0.540540540541' })),
      };
      await ok(ctx, '/bet/place', ctx.client.prepare('place', withExtra));
      ctx.balance.hold(STAKE);
      await ok(
        ctx,
        '/bet/accept',
        ctx.client.prepare('accept', {
          ...acceptBody({ bet_id: bet.bet_id, bet_player_id: ctx.playerId, bet_stake: STAKE }),
          bet_channel: 'web',
        }),
      );
      ctx.balance.capture(STAKE);
    },
  },
];

/** The ids of every scenario, in order. */
export const SCENARIO_IDS = SCENARIOS.map((s) => s.id);
