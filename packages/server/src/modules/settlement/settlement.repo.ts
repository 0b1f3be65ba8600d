import { type Insertable, type Selectable, sql } from 'kysely';
import type { AuditLogTable, BetState, ResultSource, SettlementQuarantineTable } from '../../db/schema.js';
import type { Executor } from '../../db/transaction.js';
import type { Bet, BetRow, SelectionRow } from '../bets/bet.js';
import type { OddResult } from './results/results.js';

/** States a settlement may move: the accepted bet and its settled / unsettled successors. */
export const OPEN_STATES: readonly BetState[] = ['accepted', 'settled', 'unsettled'];

// ------------------------------------------------------------------------------------ offset and lease

/** The saved version of a log consumer, or undefined before its first save. */
export async function readOffset(db: Executor, name: string): Promise<bigint | undefined> {
  const r = await db
    .selectFrom('consumer_offset')
    .select('version')
    .where('name', '=', name)
    .executeTakeFirst();
  return r?.version;
}

/** Saves a consumer's version (never lowers it). */
export async function saveOffset(db: Executor, name: string, version: bigint): Promise<void> {
  await sql`insert into consumer_offset (name, version, updated_at) values (${name}, ${version}::int8, now())
    on conflict (name) do update set version = greatest(consumer_offset.version, excluded.version),
      updated_at = now()`.execute(db);
}

/**
 * Takes or renews the lease `name` for `owner` for `ttlMs`: succeeds when the lease is free, expired, or already
 * ours. A new holder gets a new epoch; returns the epoch held, or undefined when another owner holds it.
 */
export async function acquireLease(
  db: Executor,
  name: string,
  owner: string,
  ttlMs: number,
): Promise<bigint | undefined> {
  await sql`insert into settlement_lease (name) values (${name}) on conflict (name) do nothing`.execute(db);
  const r = await sql<{ epoch: bigint }>`
    update settlement_lease set
      epoch = case when owner = ${owner} and expires_at > now() then epoch else epoch + 1 end,
      owner = ${owner},
      expires_at = now() + (${ttlMs}::int8 * interval '1 millisecond')
    where name = ${name} and (owner = ${owner} or owner is null or expires_at is null or expires_at <= now())
    returning epoch`.execute(db);
  return r.rows[0]?.epoch;
}

/** Renews a held lease; false when it is no longer ours (expired and taken, or released). */
export async function renewLease(
  db: Executor,
  name: string,
  owner: string,
  epoch: bigint,
  ttlMs: number,
): Promise<boolean> {
  const r = await sql`
    update settlement_lease set expires_at = now() + (${ttlMs}::int8 * interval '1 millisecond')
    where name = ${name} and owner = ${owner} and epoch = ${epoch}::int8`.execute(db);
  return (r.numAffectedRows ?? 0n) > 0n;
}

/** Gives a lease up (on a clean stop), so another process takes over at once. */
export async function releaseLease(db: Executor, name: string, owner: string): Promise<void> {
  await sql`update settlement_lease set owner = null, expires_at = null
    where name = ${name} and owner = ${owner}`.execute(db);
}

/**
 * Fencing: true when `owner` still holds the lease at `epoch` and it has not expired. Run inside a write
 * transaction; the row is share-locked, so the lease cannot change hands before that transaction ends.
 */
export async function holdsLease(tx: Executor, name: string, owner: string, epoch: bigint): Promise<boolean> {
  const r = await sql`select 1 from settlement_lease
    where name = ${name} and owner = ${owner} and epoch = ${epoch}::int8 and expires_at > now() for share`.execute(
    tx,
  );
  return r.rows.length > 0;
}

// ------------------------------------------------------------------------------------------- snapshots

/** The stored snapshot of an event and its version (the feed's table), or undefined. */
export async function loadEventSnapshot(
  db: Executor,
  id: string,
): Promise<{ snapshot: string; version: bigint } | undefined> {
  return db.selectFrom('sport_event').select(['snapshot', 'version']).where('id', '=', id).executeTakeFirst();
}

// --------------------------------------------------------------------------------------------- results

/** A stored result of an odd. */
export interface StoredResult extends OddResult {
  applied: boolean;
}

const toResult = (r: { status: number; dead_heat: string | null; status_reason: string }): OddResult => ({
  status: r.status as OddResult['status'],
  deadHeat: r.dead_heat,
  reason: r.status_reason,
});

/** The stored results of an event's odds: market id → odd id → result. */
export async function loadEventResults(
  db: Executor,
  eventId: string,
): Promise<Map<string, Map<string, StoredResult>>> {
  const rows = await db
    .selectFrom('settlement_result')
    .select(['market_id', 'odd_id', 'status', 'dead_heat', 'status_reason', 'applied'])
    .where('sport_event_id', '=', eventId)
    .execute();
  const out = new Map<string, Map<string, StoredResult>>();
  for (const r of rows) {
    let m = out.get(r.market_id);
    if (!m) {
      m = new Map();
      out.set(r.market_id, m);
    }
    m.set(r.odd_id, { ...toResult(r), applied: r.applied });
  }
  return out;
}

/** Stored results for the given odds, keyed `event\0market\0odd`. */
export async function loadResultsFor(
  db: Executor,
  keys: ReadonlyArray<{ eventId: string; marketId: string; oddId: string }>,
): Promise<Map<string, OddResult>> {
  if (keys.length === 0) return new Map();
  const r = await sql<{
    sport_event_id: string;
    market_id: string;
    odd_id: string;
    status: number;
    dead_heat: string | null;
    status_reason: string;
  }>`select r.sport_event_id, r.market_id, r.odd_id, r.status, r.dead_heat, r.status_reason
     from settlement_result r
     join unnest(${keys.map((k) => k.eventId)}::text[], ${keys.map((k) => k.marketId)}::text[],
                 ${keys.map((k) => k.oddId)}::text[]) as k(e, m, o)
       on r.sport_event_id = k.e and r.market_id = k.m and r.odd_id = k.o`.execute(db);
  return new Map(r.rows.map((x) => [resultKey(x.sport_event_id, x.market_id, x.odd_id), toResult(x)]));
}

/** The key of {@link loadResultsFor}. */
export function resultKey(eventId: string, marketId: string, oddId: string): string {
  return `${eventId}\u0000${marketId}\u0000${oddId}`;
}

/** Writes results of a market's odds with their `applied` flag. */
export async function upsertResults(
  db: Executor,
  eventId: string,
  marketId: string,
  rows: ReadonlyArray<{ oddId: string; result: OddResult }>,
  version: bigint,
  applied: boolean,
): Promise<void> {
  if (rows.length === 0) return;
  await sql`insert into settlement_result
      (sport_event_id, market_id, odd_id, status, dead_heat, status_reason, applied, version, updated_at)
    select ${eventId}, ${marketId}, v.odd_id, v.status, v.dead_heat::numeric, v.reason, ${applied}, ${version}::int8, now()
    from unnest(${rows.map((r) => r.oddId)}::text[], ${rows.map((r) => r.result.status)}::int2[],
                ${rows.map((r) => r.result.deadHeat)}::text[], ${rows.map((r) => r.result.reason)}::text[])
      as v(odd_id, status, dead_heat, reason)
    on conflict (sport_event_id, market_id, odd_id) do update set status = excluded.status,
      dead_heat = excluded.dead_heat, status_reason = excluded.status_reason, applied = excluded.applied,
      version = excluded.version, updated_at = now()`.execute(db);
}

/** True when some bet selects this market. */
export async function marketHasBets(db: Executor, eventId: string, marketId: string): Promise<boolean> {
  const r = await sql<{ yes: boolean }>`select exists (select 1 from bet_selection
    where sport_event_id = ${eventId} and market_id = ${marketId}) as yes`.execute(db);
  return r.rows[0]?.yes === true;
}

/** A position in a keyset scan of selections, with its bet's white label and currency. */
export interface SelectionKey {
  betId: string;
  idx: number;
  whiteLabelId: string;
  currency: string;
}

/**
 * One page of the selections on an odd that do not show `result` yet, of bets in an open state, after `after`,
 * in (bet_id, idx) order: the keyset batches of a market (index bet_selection_settlement).
 */
export async function scanOddPage(
  db: Executor,
  q: {
    eventId: string;
    marketId: string;
    oddId: string;
    result: OddResult;
    after: SelectionKey | null;
    limit: number;
  },
): Promise<SelectionKey[]> {
  const after = q.after ?? { betId: '00000000-0000-0000-0000-000000000000', idx: -1 };
  const r = await sql<{ bet_id: string; idx: number; white_label_id: string; currency: string }>`
    select s.bet_id, s.idx, b.white_label_id, b.currency from bet_selection s join bet b on b.id = s.bet_id
    where s.sport_event_id = ${q.eventId} and s.market_id = ${q.marketId} and s.odd_id = ${q.oddId}
      and (s.bet_id, s.idx) > (${after.betId}::uuid, ${after.idx}::int2)
      and s.result_source = 'feed'
      and (s.status <> ${q.result.status}::int2 or s.dead_heat is distinct from ${q.result.deadHeat}::numeric
           or s.status_reason <> ${q.result.reason})
      and b.state in ('accepted', 'settled', 'unsettled')
    order by s.bet_id, s.idx
    limit ${q.limit}::int4`.execute(db);
  return r.rows.map((x) => ({
    betId: x.bet_id,
    idx: x.idx,
    whiteLabelId: x.white_label_id,
    currency: x.currency,
  }));
}

// ------------------------------------------------------------------------------------------- rollbacks

/** A bet_rollback entry as settlement stores it. */
export interface RollbackRow {
  version: bigint;
  sportEventId: string;
  marketIds: string[];
  reason: string;
  dtStart: Date;
  dtEnd: Date;
}

/** Records an applied bet_rollback (idempotent by version). */
export async function insertRollback(db: Executor, r: RollbackRow): Promise<void> {
  await db
    .insertInto('settlement_rollback')
    .values({
      version: r.version,
      sport_event_id: r.sportEventId,
      market_ids: r.marketIds,
      reason: r.reason,
      dt_start: r.dtStart,
      dt_end: r.dtEnd,
    })
    .onConflict((oc) => oc.column('version').doNothing())
    .execute();
}

/** Rollbacks recorded for these events, oldest first. */
export async function rollbacksFor(db: Executor, eventIds: readonly string[]): Promise<RollbackRow[]> {
  if (eventIds.length === 0) return [];
  const rows = await db
    .selectFrom('settlement_rollback')
    .selectAll()
    .where('sport_event_id', 'in', [...new Set(eventIds)])
    .orderBy('version')
    .execute();
  return rows.map((r) => ({
    version: r.version,
    sportEventId: r.sport_event_id,
    marketIds: r.market_ids,
    reason: r.reason,
    dtStart: new Date(r.dt_start),
    dtEnd: new Date(r.dt_end),
  }));
}

/** A position in a keyset scan of an event's selections. */
export interface EventSelectionKey extends SelectionKey {
  marketId: string;
  oddId: string;
}

/**
 * One page of the selections a rollback catches and that do not show it yet: on its event (and markets, unless
 * none are named), of open bets created within [dt_start, dt_end], not set by an operator.
 */
export async function scanRollbackPage(
  db: Executor,
  q: { rollback: RollbackRow; after: EventSelectionKey | null; limit: number },
): Promise<EventSelectionKey[]> {
  const rb = q.rollback;
  const a = q.after ?? { marketId: '', oddId: '', betId: '00000000-0000-0000-0000-000000000000', idx: -1 };
  const r = await sql<{
    market_id: string;
    odd_id: string;
    bet_id: string;
    idx: number;
    white_label_id: string;
    currency: string;
  }>`
    select s.market_id, s.odd_id, s.bet_id, s.idx, b.white_label_id, b.currency
    from bet_selection s join bet b on b.id = s.bet_id
    where s.sport_event_id = ${rb.sportEventId}
      and (cardinality(${rb.marketIds}::text[]) = 0 or s.market_id = any(${rb.marketIds}::text[]))
      and (s.market_id, s.odd_id, s.bet_id, s.idx) > (${a.marketId}, ${a.oddId}, ${a.betId}::uuid, ${a.idx}::int2)
      and b.created_at >= ${rb.dtStart} and b.created_at <= ${rb.dtEnd}
      and b.state in ('accepted', 'settled', 'unsettled')
      and s.result_source <> 'manual'
      and not (s.result_source = 'rollback' and s.status = 6 and s.status_reason = ${rb.reason})
    order by s.market_id, s.odd_id, s.bet_id, s.idx
    limit ${q.limit}::int4`.execute(db);
  return r.rows.map((x) => ({
    marketId: x.market_id,
    oddId: x.odd_id,
    betId: x.bet_id,
    idx: x.idx,
    whiteLabelId: x.white_label_id,
    currency: x.currency,
  }));
}

/** The white label and currency of bets (to read their caps before a transaction). */
export async function betOwners(
  db: Executor,
  ids: readonly string[],
): Promise<Array<{ whiteLabelId: string; currency: string }>> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('bet')
    .select(['white_label_id', 'currency'])
    .distinct()
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return rows.map((r) => ({ whiteLabelId: r.white_label_id, currency: r.currency }));
}

// ------------------------------------------------------------------------------------------------ sweep

/**
 * Bets accepted since `since` that settlement has not caught up with: a feed selection that does not show the
 * stored result of its odd, or a selection a recorded rollback catches (a bet accepted while its market was being
 * resulted or rolled back, possibly on another node whose replica lagged).
 */
export async function staleAcceptedBets(db: Executor, since: Date, limit: number): Promise<string[]> {
  const r = await sql<{ id: string }>`
    select b.id from bet b
    where b.state = 'accepted' and b.decided_at > ${since}
      and exists (
        select 1 from bet_selection s
        left join settlement_result r
          on r.sport_event_id = s.sport_event_id and r.market_id = s.market_id and r.odd_id = s.odd_id
        where s.bet_id = b.id and s.result_source = 'feed'
          and (s.status <> coalesce(r.status, 0) or s.dead_heat is distinct from r.dead_heat
               or s.status_reason <> coalesce(r.status_reason, '')
               or exists (select 1 from settlement_rollback rb
                          where rb.sport_event_id = s.sport_event_id
                            and (cardinality(rb.market_ids) = 0 or s.market_id = any(rb.market_ids))
                            and b.created_at >= rb.dt_start and b.created_at <= rb.dt_end)))
    order by b.decided_at
    limit ${limit}::int4`.execute(db);
  return r.rows.map((x) => x.id);
}

/** Every event with a bet in an open state (a full resync after the log expired under the consumer). */
export async function eventsWithOpenBets(db: Executor): Promise<string[]> {
  const r = await sql<{ sport_event_id: string }>`
    select distinct s.sport_event_id from bet_selection s join bet b on b.id = s.bet_id
    where b.state in ('accepted', 'settled', 'unsettled')`.execute(db);
  return r.rows.map((x) => x.sport_event_id);
}

// ------------------------------------------------------------------------------------------------- bets

/**
 * Locks bets (FOR UPDATE, in id order) and loads them with their selections. The ids go as one array parameter
 * (a page is 1,000 bets: one bind value, not 1,000).
 */
export async function lockBets(tx: Executor, ids: readonly string[]): Promise<Bet[]> {
  if (ids.length === 0) return [];
  const unique = [...new Set(ids)].sort();
  const rows = await tx
    .selectFrom('bet')
    .selectAll()
    .where(sql<boolean>`id = any(${unique}::uuid[])`)
    .orderBy('id')
    .forUpdate()
    .execute();
  const sels = await tx
    .selectFrom('bet_selection')
    .selectAll()
    .where(sql<boolean>`bet_id = any(${unique}::uuid[])`)
    .orderBy('bet_id')
    .orderBy('idx')
    .execute();
  const byBet = new Map<string, SelectionRow[]>();
  for (const s of sels) {
    const list = byBet.get(s.bet_id);
    if (list) list.push(s);
    else byBet.set(s.bet_id, [s]);
  }
  return rows.map((row) => ({ row, selections: byBet.get(row.id) ?? [] }));
}

/** A selection's new result. */
export interface SelectionChange {
  betId: string;
  idx: number;
  status: number;
  deadHeat: string | null;
  reason: string;
  source: ResultSource;
}

/** Writes selections' results (one statement). */
export async function updateSelections(tx: Executor, rows: readonly SelectionChange[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`update bet_selection s set status = v.status, dead_heat = v.dead_heat::numeric,
      status_reason = v.reason, result_source = v.source
    from unnest(${rows.map((r) => r.betId)}::uuid[], ${rows.map((r) => r.idx)}::int2[],
                ${rows.map((r) => r.status)}::int2[], ${rows.map((r) => r.deadHeat)}::text[],
                ${rows.map((r) => r.reason)}::text[], ${rows.map((r) => r.source)}::text[])
      as v(bet_id, idx, status, dead_heat, reason, source)
    where s.bet_id = v.bet_id and s.idx = v.idx`.execute(tx);
}

/** A bet's new settlement state. */
export type BetSettlementState = Pick<
  BetRow,
  'id' | 'state' | 'payout' | 'settle_amount' | 'settle_type' | 'settle_status' | 'settlement_seq'
> & { settled_at: Date | null };

/** Writes bets' settlement state (one statement). */
export async function updateBetStates(tx: Executor, rows: readonly BetSettlementState[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`update bet b set state = v.state, payout = v.payout::numeric, settle_amount = v.settle_amount::numeric,
      settle_type = v.settle_type, settle_status = v.settle_status, settled_at = v.settled_at::timestamptz,
      settlement_seq = v.seq, updated_at = now()
    from unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => r.state)}::text[],
                ${rows.map((r) => r.payout)}::text[], ${rows.map((r) => r.settle_amount)}::text[],
                ${rows.map((r) => r.settle_type)}::int2[], ${rows.map((r) => r.settle_status)}::int2[],
                ${rows.map((r) => r.settled_at?.toISOString() ?? null)}::text[], ${rows.map((r) => r.settlement_seq)}::int4[])
      as v(id, state, payout, settle_amount, settle_type, settle_status, settled_at, seq)
    where b.id = v.id`.execute(tx);
}

/** A row of the settlement ledger. */
export interface LedgerRow {
  betId: string;
  seq: number;
  kind: 'settle' | 'unsettle';
  amount: string;
  settleType: number | null;
  payout: string | null;
  whiteLabelId: string;
  currency: string;
  requestId: string;
  cause: string;
  at: Date;
}

/** Appends ledger rows (one statement). */
export async function insertLedger(tx: Executor, rows: readonly LedgerRow[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`insert into bet_settlement
      (bet_id, seq, kind, amount, settle_type, payout, white_label_id, currency, request_id, cause, at)
    select v.bet_id, v.seq, v.kind, v.amount::numeric, v.settle_type, v.payout::numeric, v.wl, v.currency,
      v.request_id, v.cause, v.at::timestamptz
    from unnest(${rows.map((r) => r.betId)}::uuid[], ${rows.map((r) => r.seq)}::int4[],
                ${rows.map((r) => r.kind)}::text[], ${rows.map((r) => r.amount)}::text[],
                ${rows.map((r) => r.settleType)}::int2[], ${rows.map((r) => r.payout)}::text[],
                ${rows.map((r) => r.whiteLabelId)}::text[], ${rows.map((r) => r.currency)}::text[],
                ${rows.map((r) => r.requestId)}::uuid[], ${rows.map((r) => r.cause)}::text[],
                ${rows.map((r) => r.at.toISOString())}::text[])
      as v(bet_id, seq, kind, amount, settle_type, payout, wl, currency, request_id, cause, at)`.execute(tx);
}

/** The ledger of one bet, in order. */
export async function betLedger(db: Executor, betId: string) {
  return db.selectFrom('bet_settlement').selectAll().where('bet_id', '=', betId).orderBy('seq').execute();
}

/** Records an operator action (audit_log). */
export async function insertAudit(db: Executor, row: Insertable<AuditLogTable>): Promise<void> {
  await db.insertInto('audit_log').values(row).execute();
}

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
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('bet').selectAll().where('id', 'in', ids).orderBy('id').execute();
  const sels = await db
    .selectFrom('bet_selection')
    .selectAll()
    .where('bet_id', 'in', ids)
    .orderBy('bet_id')
    .orderBy('idx')
    .execute();
  const byBet = new Map<string, SelectionRow[]>();
  for (const s of sels) {
    const list = byBet.get(s.bet_id);
    if (list) list.push(s);
    else byBet.set(s.bet_id, [s]);
  }
  return rows.map((row) => ({ row, selections: byBet.get(row.id) ?? [] }));
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

// ------------------------------------------------------------------------------------------- quarantine

/** A quarantined log entry (docs/adr/0016-safety-and-conformance.md). */
export type QuarantineRow = Selectable<SettlementQuarantineTable>;

/** Puts an entry in quarantine (or back in it after a failed retry), counting its attempts. */
export async function quarantineEntry(
  db: Executor,
  row: { consumer: string; v: bigint; line: string; error: string; attempts: number; at: Date },
): Promise<void> {
  await db
    .insertInto('settlement_quarantine')
    .values({
      consumer: row.consumer,
      v: row.v,
      line: row.line,
      error: row.error,
      attempts: row.attempts,
      status: 'quarantined',
      quarantined_at: row.at,
      updated_at: row.at,
    })
    .onConflict((oc) =>
      oc.columns(['consumer', 'v']).doUpdateSet((eb) => ({
        error: row.error,
        attempts: sql<number>`${eb.ref('settlement_quarantine.attempts')} + ${row.attempts}`,
        status: 'quarantined',
        updated_at: row.at,
      })),
    )
    .execute();
}

/** The quarantine of a consumer, oldest entry first; `status` filters. */
export async function listQuarantine(
  db: Executor,
  consumer: string,
  status?: QuarantineRow['status'],
): Promise<QuarantineRow[]> {
  let q = db.selectFrom('settlement_quarantine').selectAll().where('consumer', '=', consumer);
  if (status) q = q.where('status', '=', status);
  return q.orderBy('v').limit(1000).execute();
}

/** Entries waiting in quarantine (`quarantined` or `retry`). */
export async function countQuarantined(db: Executor, consumer: string): Promise<number> {
  const r = await db
    .selectFrom('settlement_quarantine')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('consumer', '=', consumer)
    .where('status', 'in', ['quarantined', 'retry'])
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** One quarantined entry, locked for an operator decision. */
export async function quarantinedForUpdate(
  db: Executor,
  consumer: string,
  v: bigint,
): Promise<QuarantineRow | undefined> {
  return db
    .selectFrom('settlement_quarantine')
    .selectAll()
    .where('consumer', '=', consumer)
    .where('v', '=', v)
    .forUpdate()
    .executeTakeFirst();
}

/** Sets an entry's status. */
export async function setQuarantineStatus(
  db: Executor,
  consumer: string,
  v: bigint,
  status: QuarantineRow['status'],
  at: Date,
): Promise<void> {
  await db
    .updateTable('settlement_quarantine')
    .set({ status, updated_at: at })
    .where('consumer', '=', consumer)
    .where('v', '=', v)
    .execute();
}
