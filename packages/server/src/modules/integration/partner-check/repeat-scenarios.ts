import { acceptBody, placeBody, settleBody } from '@bookie/sdk/callbacks/fixtures';
import type { CallbackAnswer } from './callback-client.js';
import { CheckFailure, type Scenario, STAKE } from './scenario.js';
import { describe, ok, placeAndAccept, sameAnswer, WIN } from './scenario-steps.js';

/** Repeated and unusual callbacks: duplicates, a retry after a timeout, omitted optional and unknown fields. */
export const REPEAT_SCENARIOS: readonly Scenario[] = [
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
