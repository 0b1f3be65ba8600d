import { FINAL_PLACE_ERROR_CODES } from '@bookie/contracts';
import { add, formatMoney, ONE, parseMoney } from '@bookie/core';
import { declineBody, placeBody } from '@bookie/sdk/callbacks/fixtures';
import type { CallbackAnswer } from './callback-client.js';
import { CheckFailure, type Scenario, STAKE } from './scenario.js';
import { describe, ok, placeAndAccept, placeError, releaseIfHeld } from './scenario-steps.js';

/** Heartbeat, and placing bets: accept, decline and every final place error. */
export const PLACE_SCENARIOS: readonly Scenario[] = [
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
];
