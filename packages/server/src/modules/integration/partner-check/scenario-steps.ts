import type { FINAL_PLACE_ERROR_CODES } from '@bookie/contracts';
import { formatMoney, mul, parseMoney, parseOdds, rational } from '@bookie/core';
import { acceptBody, declineBody, exampleOdd, placeBody, settleBody } from '@bookie/sdk/callbacks/fixtures';
import type { CallbackAnswer, CallbackClient } from './callback-client.js';
import {
  CheckFailure,
  NotProvoked,
  ODDS,
  type Provocations,
  type ScenarioContext,
  STAKE,
  Unsupported,
} from './scenario.js';

const OPTIONAL_MISSING = new Set([404, 405, 501]);

export function describe(a: CallbackAnswer): string {
  const body = a.body.length > 200 ? `${a.body.slice(0, 200)}…` : a.body;
  return `${a.status}${a.location ? ` → ${a.location}` : ''}${body ? ` ${body}` : ''}`;
}

/** Sends and expects success: any 2xx, no redirect (the any 2xx is a success rule). */
export async function ok(
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

/**
 * After a place that should have been refused was accepted (2xx), releases the stake as the platform would with a
 * `/bet/decline` (best effort), so the partner is not left holding money for a bet that never lives.
 */
export async function releaseIfHeld(
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
export async function placeError(
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
export async function placeAndAccept(
  ctx: ScenarioContext,
  fields: Record<string, string> = {},
): Promise<string> {
  const bet = { bet_id: ctx.newBetId(), bet_player_id: ctx.playerId, bet_stake: STAKE, ...fields };
  await ok(ctx, '/bet/place', ctx.client.prepare('place', placeBody(bet)));
  ctx.balance.hold(STAKE);
  await ok(ctx, '/bet/accept', ctx.client.prepare('accept', acceptBody(bet)));
  ctx.balance.capture(STAKE);
  return bet.bet_id;
}

export async function settle(
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

export const stake = parseMoney(STAKE, 'stake');

export const odds = parseOdds(ODDS, 'odds');

/** Payouts of the scenario bet (the leg factors rule, the exact, then rounded once rule): win S·d, half win S·(d+1)/2, half loss S/2, refund S. */
export const WIN = formatMoney(mul(stake, odds));

export const HALF_WIN = formatMoney(
  mul(stake, mul(rational(odds.num + odds.den, odds.den), rational(1n, 2n))),
);

export const HALF_LOSS = formatMoney(mul(stake, rational(1n, 2n)));

export function sameAnswer(first: CallbackAnswer, again: CallbackAnswer, what: string): void {
  if (first.status !== again.status || first.body !== again.body) {
    throw new CheckFailure(
      `${what}: a repeated request_id must get the first answer again; first ${describe(first)}, then ${describe(again)}`,
    );
  }
}
