/**
 * Example callback bodies for tests and demos (the callback contract, "Which fields each callback carries", the rules in docs/decisions.md): each
 * builder returns a valid body with a fresh `request_id`, overridable field by field. Import from
 * `@bookie/sdk/callbacks/fixtures`.
 *
 * @packageDocumentation
 */
import { randomUUID } from 'node:crypto';
import {
  type BetAcceptBody,
  type BetDeclineBody,
  type BetOdd,
  type BetPlaceBody,
  type BetSettleBody,
  type BetUnsettleBody,
  CALLBACK_PATHS,
  type CallbackBodies,
  type CallbackName,
  type CashOutAcceptedBody,
  type CashOutDeclinedBody,
  type InsuranceAcceptedBody,
  type InsuranceCancelBody,
  type InsuranceDeclinedBody,
} from '@bookie/contracts';
import { signCallback } from '../signing.js';

/** A single bet odd (the callback contract, "Bet odd"), not resulted, odds 1.850000. */
export function exampleOdd(overrides: Partial<BetOdd> = {}): BetOdd {
  return {
    odd_id: '1',
    odd_ratio: '1.850000',
    odd_status: 0,
    match_id: 'sr:match:1001',
    match_status: 1,
    market_id: '1',
    odd_updated_at: '2024-05-01T12:00:00+00:00',
    meta: {
      sport_event_info_provider_id: 'sr',
      sport_event_info_sport_id: '1',
      sport_event_info_tournament_id: '17',
      sport_event_info_market_type: '1',
      sport_event_info_state: 'prematch',
      sport_event_info_start_time: '2024-05-02T18:00:00+00:00',
      sport_event_info_competitors: [
        { id: 'sr:competitor:1', type: 2 },
        { id: 'sr:competitor:2', type: 2 },
      ],
    },
    ...overrides,
  };
}

/** A `/bet/place` body: single bet `bet_id` of `bet_player_id` with stake 10.000000 at 1.850000. */
export function placeBody(overrides: Partial<BetPlaceBody> = {}): BetPlaceBody {
  return {
    request_id: randomUUID(),
    bet_id: 'bet-1',
    bet_player_id: 'player-1',
    bet_type: 1,
    bet_stake: '10.000000',
    bet_freebet_id: '',
    bet_insurance_id: '',
    bet_boost_id: '',
    total_odds_value: '1.850000',
    base_odds_value: '1.850000',
    bet_odds: [exampleOdd()],
    bet_bet_builder_odds: [],
    bet_system_sizes: [1],
    bet_created_at: '2024-05-01T12:00:01+00:00',
    competitors: [
      { id: 'sr:competitor:1', type: 2 },
      { id: 'sr:competitor:2', type: 2 },
    ],
    ...overrides,
  };
}

/** A `/bet/accept` body (the place fields, a fresh request_id). */
export function acceptBody(overrides: Partial<BetAcceptBody> = {}): BetAcceptBody {
  return placeBody({ request_id: randomUUID(), ...overrides });
}

/** A `/bet/decline` body with one `max_bet` restriction (its context's `max_bet` a JSON number, as in callbacks). */
export function declineBody(overrides: Partial<BetDeclineBody> = {}): BetDeclineBody {
  return {
    request_id: randomUUID(),
    bet_id: 'bet-1',
    bet_player_id: 'player-1',
    restrictions: [{ type: 'max_bet', context: { max_bet: 5 } }],
    ...overrides,
  };
}

/** A `/bet/settle` body: won, settle_amount 18.500000 (the settle type rule settle_type 1). */
export function settleBody(overrides: Partial<BetSettleBody> = {}): BetSettleBody {
  return {
    request_id: randomUUID(),
    bet_id: 'bet-1',
    bet_player_id: 'player-1',
    bet_boost_id: '',
    total_odds_value: '1.850000',
    base_odds_value: '1.850000',
    bet_odds: [exampleOdd({ odd_status: 1 })],
    bet_bet_builder_odds: [],
    settle_amount: '18.500000',
    settle_type: 1,
    restrictions: [],
    ...overrides,
  };
}

/** A `/bet/unsettle` body reversing 18.500000 (the full unsettle rule). */
export function unsettleBody(overrides: Partial<BetUnsettleBody> = {}): BetUnsettleBody {
  return {
    request_id: randomUUID(),
    bet_id: 'bet-1',
    bet_player_id: 'player-1',
    unsettle_amount: '18.500000',
    ...overrides,
  };
}

/** A `/bet/insurances/accepted` body: refund 5.000000. */
export function insuranceAcceptedBody(overrides: Partial<InsuranceAcceptedBody> = {}): InsuranceAcceptedBody {
  return {
    request_id: randomUUID(),
    bet_id: 'bet-1',
    bet_insurance_id: '3b7c1a52-7a8e-4c52-9f7e-2b1d4c5e6f70',
    refund_amount: '5.000000',
    ...overrides,
  };
}

/** A `/bet/insurances/decline` body. */
export function insuranceDeclinedBody(overrides: Partial<InsuranceDeclinedBody> = {}): InsuranceDeclinedBody {
  return {
    request_id: randomUUID(),
    bet_id: 'bet-1',
    bet_insurance_id: '3b7c1a52-7a8e-4c52-9f7e-2b1d4c5e6f70',
    ...overrides,
  };
}

/** A `/bet/insurances/cancel` body taking back a refund of 5.000000 (docs/adr/0009-bonuses.md). */
export function insuranceCancelBody(overrides: Partial<InsuranceCancelBody> = {}): InsuranceCancelBody {
  return {
    request_id: randomUUID(),
    bet_id: 'bet-1',
    bet_insurance_id: '3b7c1a52-7a8e-4c52-9f7e-2b1d4c5e6f70',
    refund_amount: '5.000000',
    ...overrides,
  };
}

/** A `/bet/cash-out-orders/accepted` body: the whole stake cashed out for 12.000000 (the cash-out callbacks rule). */
export function cashOutAcceptedBody(overrides: Partial<CashOutAcceptedBody> = {}): CashOutAcceptedBody {
  return {
    request_id: randomUUID(),
    bet_id: 'bet-1',
    cash_out_order_id: 'order-1',
    amount: '10.000000',
    refund_amount: '12.000000',
    ...overrides,
  };
}

/** A `/bet/cash-out-orders/declined` body (the cash-out callbacks rule). */
export function cashOutDeclinedBody(overrides: Partial<CashOutDeclinedBody> = {}): CashOutDeclinedBody {
  return { request_id: randomUUID(), bet_id: 'bet-1', cash_out_order_ids: ['order-1'], ...overrides };
}

/**
 * The example body builder of every callback, by name (the callback contract, "Endpoints", the heartbeat rule, the cash-out callbacks rule): each returns a
 * valid, realistic body with a fresh `request_id`; the heartbeat has no body (`null`). Bookie's partner check sends
 * these same bodies, and its MCP tool `build_callback_fixture` answers them.
 */
export const CALLBACK_FIXTURES: {
  [K in CallbackName]: (overrides?: Partial<NonNullable<CallbackBodies[K]>>) => CallbackBodies[K];
} = {
  place: placeBody,
  accept: acceptBody,
  decline: declineBody,
  settle: settleBody,
  unsettle: unsettleBody,
  insuranceAccepted: insuranceAcceptedBody,
  insuranceDeclined: insuranceDeclinedBody,
  insuranceCancel: insuranceCancelBody,
  heartbeat: () => null,
  cashOutAccepted: cashOutAcceptedBody,
  cashOutDeclined: cashOutDeclinedBody,
};

/**
 * An example body of callback `name` with `overrides` laid over its top-level fields (see {@link CALLBACK_FIXTURES}).
 * The result is not validated: check it with `callbackBodyIssues` from `@bookie/contracts` when overrides may break it.
 */
export function buildCallbackFixture<K extends CallbackName>(
  name: K,
  overrides: Partial<NonNullable<CallbackBodies[K]>> = {},
): CallbackBodies[K] {
  return CALLBACK_FIXTURES[name](overrides);
}

/** A callback ready to send: path, body bytes and headers (signed when a secret is given, the callback signing rule). */
export interface PreparedCallback {
  path: string;
  body: string;
  headers: Record<string, string>;
}

/**
 * Serialises `body` for callback `name` with the headers (see "callback requests" in docs/decisions.md) (`content-type`, `accept`, `foreign-params`) and, with
 * a `secret`, the signature (see "callback signing" in docs/decisions.md) headers.
 */
export function prepareCallback<K extends CallbackName>(
  name: K,
  body: CallbackBodies[K],
  options: { secret?: string; foreignParams?: Record<string, unknown>; timestamp?: Date } = {},
): PreparedCallback {
  const text = body === null ? '' : JSON.stringify(body);
  const headers: Record<string, string> = {
    accept: '*/*',
    'foreign-params': JSON.stringify(options.foreignParams ?? {}),
  };
  if (text) headers['content-type'] = 'application/json';
  if (options.secret) {
    const id = body === null ? `hb_${randomUUID()}` : (body as { request_id: string }).request_id;
    Object.assign(
      headers,
      signCallback({ secret: options.secret, id, timestamp: options.timestamp ?? new Date(), body: text }),
    );
  }
  return { path: CALLBACK_PATHS[name], body: text, headers };
}
