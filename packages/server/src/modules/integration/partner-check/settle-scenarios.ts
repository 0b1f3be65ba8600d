import { unsettleBody } from '@bookie/sdk/callbacks/fixtures';
import { type Scenario, STAKE } from './scenario.js';
import { HALF_LOSS, HALF_WIN, ok, placeAndAccept, settle, WIN } from './scenario-steps.js';

/** Settling bets: win, loss, refund, half win, half loss, and unsettle then settle again. */
export const SETTLE_SCENARIOS: readonly Scenario[] = [
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
];
