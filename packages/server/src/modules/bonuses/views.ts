import type { BetBoostView, BonusConditions, FreebetView, InsuranceView } from '@bookie/contracts';
import { format, formatMoney, parseDecimal, validationError } from '@bookie/core';
import type { BetBoostRow, FreebetRow, InsuranceRow, ListPosition } from './bonuses.repo.js';

/** An RFC 3339 time in UTC, or null. */
export function iso(d: Date | string | null): string | null {
  return d === null ? null : new Date(d).toISOString();
}

const exact = (v: string) => parseDecimal(v, { field: 'amount', maxDecimals: 12 });
/** A numeric column written with 6 decimals (D1). */
export const money6 = (v: string) => formatMoney(exact(v));
/** A numeric column written with 12 decimals (insurance percent and max_amount). */
export const decimal12 = (v: string) => format(exact(v), 12);

function expired(expiresAt: Date | null, now: number): boolean {
  return expiresAt !== null && new Date(expiresAt).getTime() <= now;
}

/** A freebet as the partner API shows it; an available freebet past expires_at reads `expired`. */
export function freebetView(r: FreebetRow, now: number): FreebetView {
  return {
    id: r.id,
    player_id: r.player_id,
    currency_code: r.currency_code,
    amount: money6(r.amount),
    expires_at: iso(r.expires_at),
    conditions: r.conditions as BonusConditions,
    foreign_params: r.foreign_params,
    status: r.status === 'available' && expired(r.expires_at, now) ? 'expired' : r.status,
    used_on_bet_id: r.bet_id,
    used_at: iso(r.used_at),
    idempotence_id: r.idempotence_id,
    created_at: iso(r.created_at) as string,
    updated_at: iso(r.updated_at) as string,
  };
}

/** An insurance as the partner API shows it; an available insurance past expires_at reads `expired`. */
export function insuranceView(r: InsuranceRow, now: number): InsuranceView {
  return {
    id: r.id,
    player_id: r.player_id,
    currency_code: r.currency_code,
    expires_at: iso(r.expires_at),
    conditions: r.conditions as BonusConditions,
    stake_amount_range: r.stake_amount_range,
    type: r.payout_type,
    amount: r.amount === null ? null : money6(r.amount),
    percent: r.percent === null ? null : decimal12(r.percent),
    max_amount: r.max_amount === null ? null : decimal12(r.max_amount),
    strategies: { type: r.payout_type, max_odds_count_lose: r.max_odds_count_lose },
    foreign_params: r.foreign_params,
    status: r.status === 'available' && expired(r.expires_at, now) ? 'expired' : r.status,
    bet_id: r.bet_id,
    refund_amount: r.refund_amount === null ? null : money6(r.refund_amount),
    applied_at: iso(r.applied_at),
    resolved_at: iso(r.resolved_at),
    idempotence_id: r.idempotence_id,
    created_at: iso(r.created_at) as string,
    updated_at: iso(r.updated_at) as string,
  };
}

/** A bet boost as the partner API shows it. */
export function betBoostView(r: BetBoostRow, now: number): BetBoostView {
  return {
    id: r.id,
    player_id: r.player_id,
    name: r.name,
    multiplier: money6(r.multiplier),
    conditions: r.conditions as BonusConditions,
    quantity: r.quantity,
    remaining_quantity: r.remaining_quantity,
    expires_at: iso(r.expires_at),
    foreign_params: r.foreign_params,
    status: r.cancelled_at
      ? 'cancelled'
      : expired(r.expires_at, now)
        ? 'expired'
        : r.remaining_quantity === 0
          ? 'exhausted'
          : 'active',
    idempotence_id: r.idempotence_id,
    created_at: iso(r.created_at) as string,
    updated_at: iso(r.updated_at) as string,
  };
}

/** The opaque cursor of the row after which the next page starts. */
export function encodeCursor(r: { created_at: Date; id: string }): string {
  return Buffer.from(`${new Date(r.created_at).toISOString()}|${r.id}`).toString('base64url');
}

/** Reads a cursor made by {@link encodeCursor}. @throws validation_error naming `querystring.cursor`. */
export function decodeCursor(cursor: string | undefined): ListPosition | undefined {
  if (cursor === undefined) return undefined;
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(at ?? '');
  if (!id || Number.isNaN(createdAt.getTime()) || !/^[0-9a-f-]{36}$/i.test(id)) {
    throw validationError('querystring.cursor', 'is not a cursor from a previous page');
  }
  return { createdAt, id };
}

/** The page size of a list query: 1..500, default 100. */
export function limitOf(raw: string | undefined): number {
  if (raw === undefined) return 100;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 500) throw validationError('querystring.limit', 'must be 1..500');
  return n;
}
