/**
 * The wallet's callback handlers (docs/adr/0006-sdk-and-wallet.md "Bet states"): each
 * callback moves money as one ledger row together with the SDK's claim of the request, so the movement, the bet's new
 * state and the stored answer commit together. The bet callbacks (place, accept, decline, settle, unsettle) are one
 * SQL statement each ({@link walletStatements}, docs/adr/0013-wallet-round-trips.md); the rarer insurance and
 * cash-out callbacks are typed handlers in the SDK's idempotency transaction ({@link walletHandlers}).
 *
 * | callback | movement |
 * |---|---|
 * | place | hold the stake (none for a freebet bet); short → `not_enough_balance` with `actual_balance` |
 * | accept | capture the held stake |
 * | decline | release the held stake, the bet found by `bet_id` (a decline of an unknown bet leaves a tombstone) |
 * | settle | credit `settle_amount` (a bet never seen is a reported one: recorded settled, nothing held) |
 * | unsettle | debit `unsettle_amount` |
 * | insurance accepted | credit `refund_amount`, once per insurance and payment cycle |
 * | insurance cancel | debit `refund_amount`, the payment it takes back (docs/adr/0009-bonuses.md) |
 * | cash-out accepted | credit `refund_amount`, once per cash-out order |
 * | cash-out declined | debit back what each listed order credited, once per order (none when never credited) |
 *
 * A callback that does not fit the bet's state (unknown bet, settle of a declined bet…) is refused with a transient
 * 400 (`bet_unknown`, `bet_state_conflict`): not stored, so Bookie's retries (D10) re-evaluate it and an operator
 * sees it failing.
 *
 * Reported bets (Bookie's risk management mode, docs/adr/0034-reported-bets-in-the-wallet.md): the partner took the
 * stake itself, so Bookie sends only `/bet/settle` and `/bet/unsettle` for them. The first settle of a bet the
 * wallet never saw records it as a reported bet of the callback's player, in the session's currency
 * (`Foreign-Params` `currency`, else the declared one), and credits `settle_amount`; its unsettles and later
 * settles then move money as for any bet. With no player or no currency to book it to, the settle is refused as
 * `bet_unknown` (transient).
 *
 * @packageDocumentation
 */

import { isDomainError } from '@bookie/core';
import {
  type CallbackHandlers,
  type CallbackResult,
  type CallbackStatements,
  callbackError,
  notEnoughBalance,
} from '@bookie/sdk';
import type { Transaction } from 'kysely';
import type { BetState, WalletDB } from '../db/schema.js';
import {
  acceptStatement,
  applyMovement,
  declineStatement,
  lockAccount,
  lockBet,
  movementAmount,
  movementExists,
  placeStatement,
  settleStatement,
  unsettleStatement,
} from '../ledger/ledger.repo.js';
import { formatMicros, toMicros } from '../money.js';

/** The SDK handlers' unit of work in the wallet: a Kysely transaction on the wallet database. */
export type WalletTx = Transaction<WalletDB>;

/** Options of {@link walletHandlers}. */
export interface WalletHandlerOptions {
  /**
   * The one currency of every session, declared by the operator (`--currency`); when unset (the default) a
   * `/bet/place` whose `Foreign-Params` name no `currency` is refused, never booked in a guessed currency.
   */
  defaultCurrency?: string | undefined;
  /** Called after each callback's movement is written (for logs and tests). */
  onMovement?: (event: { callback: string; betId: string; requestId: string; outcome: string }) => void;
}

const CURRENCY = /^[A-Z][A-Z0-9]{2,9}$/;

/** The currency `Foreign-Params` name (a valid code), else the declared one, else none. */
function currencyOf(
  foreignParams: Record<string, unknown>,
  declared: string | undefined,
): string | undefined {
  const c = foreignParams.currency;
  return typeof c === 'string' && CURRENCY.test(c) ? c : declared;
}

/**
 * The currency of a `/bet/place`: the callback bodies do not carry one, so it is the session's (`Foreign-Params`
 * `currency`) or the one the operator declared. Neither → the final, stored `auth_session_unknown` with
 * `data.reason: "currency_unknown"`: Bookie ends the bet as a place error and nothing is held.
 */
function placeCurrency(foreignParams: Record<string, unknown>, declared: string | undefined): string {
  const c = currencyOf(foreignParams, declared);
  if (c !== undefined) return c;
  throw callbackError('auth_session_unknown', {
    reason: 'currency_unknown',
    message: 'Foreign-Params name no currency (create the session with params.currency)',
  });
}

/**
 * A callback's amount in micro-units; an amount the ledger cannot hold exactly is refused with a stored 400
 * `validation_error` naming the field (never rounded).
 */
function amountOf(value: string, field: string): bigint {
  try {
    return toMicros(value, field);
  } catch (e) {
    if (!isDomainError(e)) throw e;
    throw callbackError('validation_error', { field: `body.${field}`, message: e.message });
  }
}

/**
 * The player of a callback: `bet_player_id`, or, when a sender left it out or empty, the `player_id` of
 * `Foreign-Params`; neither → a stored 400 `validation_error` naming `bet_player_id`.
 */
function playerOf(body: { bet_player_id: string }, foreignParams: Record<string, unknown>): string {
  if (body.bet_player_id !== '') return body.bet_player_id;
  const p = foreignParams.player_id;
  if (typeof p === 'string' && p !== '') return p;
  throw callbackError('validation_error', {
    field: 'body.bet_player_id',
    message: 'is empty and Foreign-Params names no player_id',
  });
}

/**
 * The player a callback names (`bet_player_id`, else `Foreign-Params` `player_id`), or `""`: for the callbacks that
 * find their bet by `bet_id` (decline, settle), where the player only matters for a bet the wallet never saw.
 */
function playerOrEmpty(body: { bet_player_id: string }, foreignParams: Record<string, unknown>): string {
  if (body.bet_player_id !== '') return body.bet_player_id;
  const p = foreignParams.player_id;
  return typeof p === 'string' ? p : '';
}

function unknownBet(betId: string) {
  return callbackError('bet_unknown', { bet_id: betId }, { transient: true });
}

/**
 * The ledger `ref` of the n-th payment of an insurance (docs/adr/0009-bonuses.md): Bookie may pay an insurance,
 * cancel it when the bet is unsettled (`/bet/insurances/cancel`) and pay it again when the bet is settled again, so
 * each payment cycle has its own ref (the first one is the plain insurance id), and the ledger keeps one credit and
 * at most one cancelling debit per cycle.
 */
function insuranceRef(insuranceId: string, cycle: number): string {
  return cycle === 0 ? insuranceId : `${insuranceId}#${cycle}`;
}

/** The current payment cycle of an insurance: how many of its payments were cancelled. */
async function insuranceCycle(tx: WalletTx, insuranceId: string): Promise<number> {
  let n = 0;
  while (await movementExists(tx, 'debit', 'insurance_cancel', insuranceRef(insuranceId, n))) n++;
  return n;
}

function conflict(betId: string, state: BetState) {
  return callbackError('bet_state_conflict', { bet_id: betId, state }, { transient: true });
}

/**
 * The bet callbacks as one statement each (see the module comment; the SQL is in ledger.repo.ts): the decision, the
 * claim, the movement, the bet's new state and the stored answer in one round trip.
 */
export function walletStatements(options: WalletHandlerOptions): CallbackStatements {
  const note = (callback: string, betId: string, requestId: string, outcome: string) =>
    options.onMovement?.({ callback, betId, requestId, outcome });
  /** The answer of a bet callback whose outcome is `ok` or the name of its movement; `unknown` and `conflict` refuse. */
  const answer =
    (callback: string, betId: string, requestId: string) =>
    (row: Record<string, unknown>): CallbackResult => {
      const outcome = String(row.outcome);
      note(callback, betId, requestId, outcome);
      if (outcome === 'unknown') return unknownBet(betId);
      if (outcome === 'conflict') return conflict(betId, row.state as BetState);
    };

  return {
    place(body, { foreignParams, requestId }) {
      const freebet = body.bet_freebet_id !== '';
      const statement = placeStatement({
        betId: body.bet_id,
        playerId: playerOf(body, foreignParams),
        currency: placeCurrency(foreignParams, options.defaultCurrency),
        stake: freebet ? 0n : amountOf(body.bet_stake, 'bet_stake'),
        freebet,
      });
      return {
        ...statement,
        answer(row) {
          note('place', body.bet_id, requestId, String(row.outcome));
          if (row.outcome !== 'short') return;
          const available = row.available as bigint;
          return notEnoughBalance(formatMicros(available > 0n ? available : 0n));
        },
      };
    },

    accept(body, { requestId }) {
      return { ...acceptStatement(body.bet_id), answer: answer('accept', body.bet_id, requestId) };
    },

    decline(body, { foreignParams, requestId }) {
      const statement = declineStatement({
        betId: body.bet_id,
        // the bet is found by bet_id; the player only names the tombstone of a bet never seen (`""` when unnamed)
        playerId: playerOrEmpty(body, foreignParams),
        // only a tombstone (a decline of an unknown bet) takes it; a held bet is released in its own currency
        currency: currencyOf(foreignParams, options.defaultCurrency) ?? '',
      });
      return { ...statement, answer: answer('decline', body.bet_id, requestId) };
    },

    settle(body, { foreignParams, requestId }) {
      // only a reported bet (one the wallet never saw) takes them: a known bet is credited on its own account
      const playerId = playerOrEmpty(body, foreignParams);
      const currency = currencyOf(foreignParams, options.defaultCurrency) ?? '';
      const statement = settleStatement({
        betId: body.bet_id,
        amount: amountOf(body.settle_amount, 'settle_amount'),
        playerId,
        currency,
      });
      const answered = answer('settle', body.bet_id, requestId);
      return {
        ...statement,
        answer(row) {
          if (row.outcome !== 'unknown') return answered(row);
          note('settle', body.bet_id, requestId, 'unknown');
          // a bet never seen that cannot be booked as a reported one: say what is missing, and wait for a retry
          const reason = playerId === '' ? 'player_unknown' : 'currency_unknown';
          return callbackError('bet_unknown', { bet_id: body.bet_id, reason }, { transient: true });
        },
      };
    },

    unsettle(body, { requestId }) {
      const statement = unsettleStatement(body.bet_id, amountOf(body.unsettle_amount, 'unsettle_amount'));
      return { ...statement, answer: answer('unsettle', body.bet_id, requestId) };
    },
  };
}

/** Builds the wallet's typed callback handlers for the callbacks not in {@link walletStatements}. */
export function walletHandlers(options: WalletHandlerOptions): CallbackHandlers<WalletTx> {
  const note = (callback: string, betId: string, requestId: string, outcome: string) =>
    options.onMovement?.({ callback, betId, requestId, outcome });

  return {
    async insuranceAccepted(body, { tx, requestId }) {
      const bet = await lockBet(tx, body.bet_id);
      if (!bet) return unknownBet(body.bet_id);
      await lockAccount(tx, bet.player_id, bet.currency);
      const ref = insuranceRef(body.bet_insurance_id, await insuranceCycle(tx, body.bet_insurance_id));
      if (await movementExists(tx, 'credit', 'insurance', ref)) {
        return note('insuranceAccepted', body.bet_id, requestId, 'known');
      }
      await applyMovement(tx, {
        playerId: bet.player_id,
        currency: bet.currency,
        kind: 'credit',
        reason: 'insurance',
        amount: amountOf(body.refund_amount, 'refund_amount'),
        betId: bet.bet_id,
        ref,
        requestId,
      });
      note('insuranceAccepted', body.bet_id, requestId, 'credited');
    },

    async insuranceCancel(body, { tx, requestId }) {
      const bet = await lockBet(tx, body.bet_id);
      if (!bet) return unknownBet(body.bet_id);
      await lockAccount(tx, bet.player_id, bet.currency);
      const ref = insuranceRef(body.bet_insurance_id, await insuranceCycle(tx, body.bet_insurance_id));
      // nothing paid in the current cycle: this cancel was applied already (a repeat under a new request id)
      if (!(await movementExists(tx, 'credit', 'insurance', ref))) {
        return note('insuranceCancel', body.bet_id, requestId, 'known');
      }
      await applyMovement(tx, {
        playerId: bet.player_id,
        currency: bet.currency,
        kind: 'debit',
        reason: 'insurance_cancel',
        amount: amountOf(body.refund_amount, 'refund_amount'),
        betId: bet.bet_id,
        ref,
        requestId,
      });
      note('insuranceCancel', body.bet_id, requestId, 'debited');
    },

    insuranceDeclined(body, { requestId }) {
      note('insuranceDeclined', body.bet_id, requestId, 'noted');
    },

    async cashOutAccepted(body, { tx, requestId }) {
      const bet = await lockBet(tx, body.bet_id);
      if (!bet) return unknownBet(body.bet_id);
      await lockAccount(tx, bet.player_id, bet.currency);
      if (await movementExists(tx, 'credit', 'cash_out', body.cash_out_order_id)) {
        return note('cashOutAccepted', body.bet_id, requestId, 'known');
      }
      await applyMovement(tx, {
        playerId: bet.player_id,
        currency: bet.currency,
        kind: 'credit',
        reason: 'cash_out',
        amount: amountOf(body.refund_amount, 'refund_amount'),
        betId: bet.bet_id,
        ref: body.cash_out_order_id,
        requestId,
      });
      note('cashOutAccepted', body.bet_id, requestId, 'credited');
    },

    async cashOutDeclined(body, { tx, requestId }) {
      const bet = await lockBet(tx, body.bet_id);
      if (!bet) return unknownBet(body.bet_id);
      await lockAccount(tx, bet.player_id, bet.currency);
      let reversed = 0;
      for (const orderId of body.cash_out_order_ids) {
        // an accepted order the partner declines afterwards: the player gives back what it was paid
        const credited = await movementAmount(tx, 'credit', 'cash_out', orderId);
        if (credited === undefined) continue;
        if (await movementExists(tx, 'debit', 'cash_out_declined', orderId)) continue;
        await applyMovement(tx, {
          playerId: bet.player_id,
          currency: bet.currency,
          kind: 'debit',
          reason: 'cash_out_declined',
          amount: credited,
          betId: bet.bet_id,
          ref: orderId,
          requestId,
        });
        reversed++;
      }
      note('cashOutDeclined', body.bet_id, requestId, reversed > 0 ? 'debited' : 'noted');
    },

    heartbeat() {},
  };
}
