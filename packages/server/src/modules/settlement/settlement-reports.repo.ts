import { sql } from 'kysely';
import type { BetState } from '../../db/schema.js';
import type { Executor } from '../../db/transaction.js';
import { type Bet, loadBets } from '../bets/index.js';

// ---------------------------------------------------------------------------------------------- reports

/** Stakes of bets accepted in [from, to), per white label and currency. */
export async function acceptedStakes(db: Executor, from: Date, to: Date) {
  const r = await sql<{ white_label_id: string; currency: string; n: string; stakes: string }>`
    select white_label_id, currency, count(*)::text as n, coalesce(sum(stake), 0)::text as stakes
    from bet
    where decided_at >= ${from} and decided_at < ${to}
      and state in ('accepted', 'settled', 'unsettled', 'cashed_out')
    group by white_label_id, currency`.execute(db);
  return r.rows;
}

/**
 * The platform's cash-out orders accepted in [from, to) (accepted now; an order the partner declined afterwards is
 * not), per white label and currency: count, stake cashed out, amount paid, and how many pay through callbacks (bets
 * placed in the frame; a bet the partner reported is paid by the partner itself).
 */
export async function cashOutTotals(db: Executor, from: Date, to: Date) {
  const r = await sql<{
    white_label_id: string;
    currency: string;
    n: string;
    stake: string;
    paid: string;
    through_callbacks: string;
  }>`
    select b.white_label_id, b.currency, count(*)::text as n, coalesce(sum(o.amount), 0)::text as stake,
      coalesce(sum(o.refund_amount), 0)::text as paid,
      count(*) filter (where b.source = 'frame')::text as through_callbacks
    from cash_out_order o join bet b on b.id = o.bet_id
    where o.status = 'accepted' and o.decided_at >= ${from} and o.decided_at < ${to}
    group by b.white_label_id, b.currency`.execute(db);
  return r.rows;
}

/**
 * The wallet side of the cash-out orders of {@link cashOutTotals} that pay through callbacks: each order with its
 * `/bet/cash-out-orders/accepted` callback in the outbox (the first for the order; absent when none) — its
 * status and the amount it carries.
 */
export async function cashOutPayments(db: Executor, from: Date, to: Date) {
  const r = await sql<{
    white_label_id: string;
    currency: string;
    bet_id: string;
    cash_out_order_id: string;
    refund_amount: string;
    callback_status: string | null;
    callback_amount: string | null;
  }>`
    select b.white_label_id, b.currency, o.bet_id::text as bet_id, o.id as cash_out_order_id,
      o.refund_amount::text as refund_amount, c.status as callback_status, c.amount as callback_amount
    from cash_out_order o join bet b on b.id = o.bet_id
    left join lateral (
      select d.status, (d.body::jsonb ->> 'refund_amount') as amount from callback_delivery d
      where d.bet_id = o.bet_id::text and d.path = '/bet/cash-out-orders/accepted'
        and d.body::jsonb ->> 'cash_out_order_id' = o.id
      order by d.id limit 1
    ) c on true
    where o.status = 'accepted' and o.decided_at >= ${from} and o.decided_at < ${to} and b.source = 'frame'
    order by o.decided_at, o.bet_id, o.id`.execute(db);
  return r.rows;
}

/** Settle and unsettle callbacks of [from, to) from the ledger, per white label and currency. */
export async function ledgerTotals(db: Executor, from: Date, to: Date) {
  const r = await sql<{
    white_label_id: string;
    currency: string;
    settles: string;
    settle_amount: string;
    unsettles: string;
    unsettle_amount: string;
  }>`
    select white_label_id, currency,
      count(*) filter (where kind = 'settle')::text as settles,
      coalesce(sum(amount) filter (where kind = 'settle'), 0)::text as settle_amount,
      count(*) filter (where kind = 'unsettle')::text as unsettles,
      coalesce(sum(amount) filter (where kind = 'unsettle'), 0)::text as unsettle_amount
    from bet_settlement
    where at >= ${from} and at < ${to}
    group by white_label_id, currency`.execute(db);
  return r.rows;
}

/** Bets currently unsettled (state 4), accepted in [from, to), per white label and currency. */
export async function unsettledNow(db: Executor, from: Date, to: Date) {
  const r = await sql<{ white_label_id: string; currency: string; n: string }>`
    select white_label_id, currency, count(*)::text as n from bet
    where state = 'unsettled' and decided_at >= ${from} and decided_at < ${to}
    group by white_label_id, currency`.execute(db);
  return r.rows;
}

/** A page of open bets (accepted or unsettled) accepted in [from, to), by id, with their selections. */
export async function openBetsPage(
  db: Executor,
  from: Date,
  to: Date,
  afterId: string | null,
  limit: number,
): Promise<Bet[]> {
  let q = db
    .selectFrom('bet')
    .select('id')
    .where('state', 'in', ['accepted', 'unsettled'])
    .where('decided_at', '>=', from)
    .where('decided_at', '<', to)
    .orderBy('id')
    .limit(limit);
  if (afterId) q = q.where('id', '>', afterId);
  const ids = (await q.execute()).map((r) => r.id);
  return loadBets(db, ids);
}

/** The ledger check of one bet (DECISIONS D12). */
export interface BetLedgerCheck {
  bet_id: string;
  white_label_id: string;
  currency: string;
  state: BetState;
  settle_status: number | null;
  settle_type: number | null;
  /** Current settle amount (null unless settled). */
  settle_amount: string | null;
  settles: string;
  unsettles: string;
  settle_sum: string;
  unsettle_sum: string;
  /** Σ settle − Σ unsettle over the bet's whole ledger. */
  balance: string;
  /** balance = the current settle amount (0 unless settled). */
  balance_ok: boolean;
  /** Settle and unsettle alternate from a settle, each unsettle reversing the settle before it. */
  shape_ok: boolean;
  /** Every ledger row has its callback in the outbox. */
  outbox_ok: boolean;
  /**
   * The bet's `Foreign-Params` name no currency or the bet's own: a partner wallet that books in the currency of
   * `Foreign-Params` moves the bet's money in the bet's currency.
   */
  currency_ok: boolean;
}

/**
 * Checks the ledger of every bet with a ledger row in [from, to) against its current state (DECISIONS D12) and
 * the outbox, one page of bet ids (after `afterId`, by id) at a time.
 */
export async function checkBetLedgers(
  db: Executor,
  from: Date,
  to: Date,
  afterId: string | null,
  limit: number,
): Promise<BetLedgerCheck[]> {
  const r = await sql<BetLedgerCheck>`
    with touched as (
      select distinct bet_id from bet_settlement
      where at >= ${from} and at < ${to} and bet_id > ${afterId ?? '00000000-0000-0000-0000-000000000000'}::uuid
      order by bet_id limit ${limit}::int4),
    rows as (
      select l.bet_id, l.kind, l.amount,
        (l.kind = case when l.seq % 2 = 1 then 'settle' else 'unsettle' end
          and l.seq = row_number() over (partition by l.bet_id order by l.seq)
          and (l.kind = 'settle' or l.amount = lag(l.amount) over (partition by l.bet_id order by l.seq))) as shape_ok,
        exists (select 1 from callback_delivery d where d.request_id = l.request_id
                and d.path = case when l.kind = 'settle' then '/bet/settle' else '/bet/unsettle' end) as in_outbox
      from bet_settlement l where l.bet_id in (select bet_id from touched))
    select b.id as bet_id, b.white_label_id, b.currency, b.state, b.settle_status, b.settle_type,
      b.settle_amount::text as settle_amount,
      count(*) filter (where r.kind = 'settle')::text as settles,
      count(*) filter (where r.kind = 'unsettle')::text as unsettles,
      coalesce(sum(r.amount) filter (where r.kind = 'settle'), 0)::text as settle_sum,
      coalesce(sum(r.amount) filter (where r.kind = 'unsettle'), 0)::text as unsettle_sum,
      (coalesce(sum(r.amount) filter (where r.kind = 'settle'), 0)
        - coalesce(sum(r.amount) filter (where r.kind = 'unsettle'), 0))::text as balance,
      (coalesce(sum(r.amount) filter (where r.kind = 'settle'), 0)
        - coalesce(sum(r.amount) filter (where r.kind = 'unsettle'), 0))
        = (case when b.state = 'settled' then coalesce(b.settle_amount, 0) else 0 end) as balance_ok,
      bool_and(r.shape_ok) as shape_ok,
      bool_and(r.in_outbox) as outbox_ok,
      coalesce(b.foreign_params->>'currency' = b.currency, true) as currency_ok
    from touched t join bet b on b.id = t.bet_id join rows r on r.bet_id = b.id
    group by b.id
    order by b.id`.execute(db);
  return r.rows;
}
