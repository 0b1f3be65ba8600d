/**
 * The wallet's callback handlers (issue 6 "Money movements"; docs/adr/0006-sdk-and-wallet.md "Bet states"): each
 * callback moves money as one ledger row in the SDK's idempotency transaction, so the movement, the bet's new state
 * and the stored answer commit together.
 *
 * | callback | movement |
 * |---|---|
 * | place | hold the stake (none for a freebet bet); short → `not_enough_balance` with `actual_balance` |
 * | accept | capture the held stake |
 * | decline | release the held stake (a decline of an unknown bet leaves a tombstone) |
 * | settle | credit `settle_amount` |
 * | unsettle | debit `unsettle_amount` |
 * | insurance accepted | credit `refund_amount`, once per insurance and payment cycle |
 * | insurance cancel | debit `refund_amount`, the payment it takes back (docs/adr/0009-bonuses.md) |
 * | cash-out accepted | credit `refund_amount`, once per cash-out order |
 *
 * A callback that does not fit the bet's state (unknown bet, settle of a declined bet…) is refused with a transient
 * 400 (`bet_unknown`, `bet_state_conflict`): not stored, so Bookie's retries (D10) re-evaluate it and an operator
 * sees it failing.
 *
 * @packageDocumentation
 */

import { type CallbackHandlers, callbackError, notEnoughBalance } from '@bookie/sdk';
import type { Transaction } from 'kysely';
import type { BetState, WalletDB } from '../db/schema.js';
import {
  applyMovement,
  insertBet,
  lockAccount,
  lockBet,
  movementExists,
  updateBet,
} from '../ledger/ledger.repo.js';
import { formatMicros, toMicros } from '../money.js';

/** The SDK handlers' unit of work in the wallet: a Kysely transaction on the wallet database. */
export type WalletTx = Transaction<WalletDB>;

/** Options of {@link walletHandlers}. */
export interface WalletHandlerOptions {
  /** Currency of a player's bets when `Foreign-Params` carries no `currency` key (e.g. `EUR`). */
  defaultCurrency: string;
  /** Called after each callback's movement is written (for logs and tests). */
  onMovement?: (event: { callback: string; betId: string; requestId: string; outcome: string }) => void;
}

const CURRENCY = /^[A-Z][A-Z0-9]{2,9}$/;

function currencyOf(foreignParams: Record<string, unknown>, fallback: string): string {
  const c = foreignParams.currency;
  return typeof c === 'string' && CURRENCY.test(c) ? c : fallback;
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

/** Builds the wallet's typed callback handlers (see the module comment). */
export function walletHandlers(options: WalletHandlerOptions): CallbackHandlers<WalletTx> {
  const note = (callback: string, betId: string, requestId: string, outcome: string) =>
    options.onMovement?.({ callback, betId, requestId, outcome });

  return {
    async place(body, { tx, foreignParams, requestId }) {
      const currency = currencyOf(foreignParams, options.defaultCurrency);
      const freebet = body.bet_freebet_id !== '';
      const stake = freebet ? 0n : toMicros(body.bet_stake, 'bet_stake');
      const account = await lockAccount(tx, body.bet_player_id, currency);
      const existing = await lockBet(tx, body.bet_id);
      if (existing) return note('place', body.bet_id, requestId, 'known');
      if (account.available < stake) {
        note('place', body.bet_id, requestId, 'short');
        return notEnoughBalance(formatMicros(account.available > 0n ? account.available : 0n));
      }
      await insertBet(tx, {
        bet_id: body.bet_id,
        player_id: body.bet_player_id,
        currency,
        stake,
        freebet,
        state: 'held',
        settled: 0n,
      });
      await applyMovement(tx, {
        playerId: body.bet_player_id,
        currency,
        kind: 'hold',
        reason: 'place',
        amount: stake,
        betId: body.bet_id,
        ref: body.bet_id,
        requestId,
      });
      note('place', body.bet_id, requestId, 'held');
    },

    async accept(body, { tx, requestId }) {
      const bet = await lockBet(tx, body.bet_id);
      if (!bet) return unknownBet(body.bet_id);
      if (bet.state === 'declined') return conflict(body.bet_id, bet.state);
      if (bet.state !== 'held') return note('accept', body.bet_id, requestId, 'known');
      await applyMovement(tx, {
        playerId: bet.player_id,
        currency: bet.currency,
        kind: 'capture',
        reason: 'accept',
        amount: bet.stake,
        betId: bet.bet_id,
        ref: bet.bet_id,
        requestId,
      });
      await updateBet(tx, bet.bet_id, 'accepted');
      note('accept', body.bet_id, requestId, 'captured');
    },

    async decline(body, { tx, foreignParams, requestId }) {
      const bet = await lockBet(tx, body.bet_id);
      if (!bet) {
        // e.g. a place that never reached us before Bookie gave up (D9): remember the bet as declined, so a late
        // place cannot hold money for a bet that is already over
        await insertBet(tx, {
          bet_id: body.bet_id,
          player_id: body.bet_player_id,
          currency: currencyOf(foreignParams, options.defaultCurrency),
          stake: 0n,
          freebet: false,
          state: 'declined',
          settled: 0n,
        });
        return note('decline', body.bet_id, requestId, 'tombstone');
      }
      if (bet.state === 'declined') return note('decline', body.bet_id, requestId, 'known');
      if (bet.state !== 'held') return conflict(body.bet_id, bet.state);
      await applyMovement(tx, {
        playerId: bet.player_id,
        currency: bet.currency,
        kind: 'release',
        reason: 'decline',
        amount: bet.stake,
        betId: bet.bet_id,
        ref: bet.bet_id,
        requestId,
      });
      await updateBet(tx, bet.bet_id, 'declined');
      note('decline', body.bet_id, requestId, 'released');
    },

    async settle(body, { tx, requestId }) {
      const amount = toMicros(body.settle_amount, 'settle_amount');
      const bet = await lockBet(tx, body.bet_id);
      if (!bet) return unknownBet(body.bet_id);
      if (bet.state === 'settled' && bet.settled === amount)
        return note('settle', body.bet_id, requestId, 'known');
      if (bet.state !== 'accepted' && bet.state !== 'unsettled') return conflict(body.bet_id, bet.state);
      await applyMovement(tx, {
        playerId: bet.player_id,
        currency: bet.currency,
        kind: 'credit',
        reason: 'settle',
        amount,
        betId: bet.bet_id,
        ref: bet.bet_id,
        requestId,
      });
      await updateBet(tx, bet.bet_id, 'settled', amount);
      note('settle', body.bet_id, requestId, 'credited');
    },

    async unsettle(body, { tx, requestId }) {
      const amount = toMicros(body.unsettle_amount, 'unsettle_amount');
      const bet = await lockBet(tx, body.bet_id);
      if (!bet) return unknownBet(body.bet_id);
      if (bet.state === 'unsettled') return note('unsettle', body.bet_id, requestId, 'known');
      if (bet.state !== 'settled') return conflict(body.bet_id, bet.state);
      await applyMovement(tx, {
        playerId: bet.player_id,
        currency: bet.currency,
        kind: 'debit',
        reason: 'unsettle',
        amount,
        betId: bet.bet_id,
        ref: bet.bet_id,
        requestId,
      });
      await updateBet(tx, bet.bet_id, 'unsettled', 0n);
      note('unsettle', body.bet_id, requestId, 'debited');
    },

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
        amount: toMicros(body.refund_amount, 'refund_amount'),
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
        amount: toMicros(body.refund_amount, 'refund_amount'),
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
        amount: toMicros(body.refund_amount, 'refund_amount'),
        betId: bet.bet_id,
        ref: body.cash_out_order_id,
        requestId,
      });
      note('cashOutAccepted', body.bet_id, requestId, 'credited');
    },

    cashOutDeclined(body, { requestId }) {
      note('cashOutDeclined', body.bet_id, requestId, 'noted');
    },

    heartbeat() {},
  };
}
