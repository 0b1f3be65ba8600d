import { randomUUID } from 'node:crypto';
import {
  cashOutAcceptedBody,
  cashOutDeclinedBody,
  insuranceAcceptedBody,
  insuranceDeclinedBody,
} from '@bookie/sdk/callbacks/fixtures';
import { type Scenario, STAKE } from './scenario.js';
import { ok, placeAndAccept, settle, WIN } from './scenario-steps.js';

/** Bet insurance and cash-out callbacks (optional for the partner). */
export const INSURANCE_AND_CASH_OUT_SCENARIOS: readonly Scenario[] = [
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
];
