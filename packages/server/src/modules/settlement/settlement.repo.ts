import { type Insertable, sql } from 'kysely';
import type { AuditLogTable, BetState, SettlementResultTable } from '../../db/schema.js';
import type { Executor } from '../../db/transaction.js';
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
  const r = await sql<
    Omit<SettlementResultTable, 'applied' | 'version' | 'updated_at'>
  >`select r.sport_event_id, r.market_id, r.odd_id, r.status, r.dead_heat, r.status_reason
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

/** The window of a sweep (clock times): see {@link staleAcceptedBets}. */
export interface SweepWindow {
  /** Frame bets whose placement deadline is after this (the previous sweep's end) are examined. */
  from: Date;
  /** Reported bets (decided at their deadline) whose deadline is after this are examined: `from` less the overlap. */
  reportedFrom: Date;
  /** Frame bets whose deadline is after this wait for the next sweep (the sweep's start). */
  to: Date;
  /** Reported bets whose deadline is after this wait for a later sweep: `to` less the overlap. */
  reportedTo: Date;
  limit: number;
}

/**
 * Bets accepted that settlement has not caught up with: a feed selection that does not show the stored result of its
 * odd, or a selection a recorded rollback catches (a bet accepted while its market was being resulted or rolled back,
 * possibly on another node whose replica lagged), at most `limit`; and the earliest deadline of a bet of the window
 * still placing (null: none), which the next sweep must look at again.
 *
 * A bet is examined once its placement deadline (set at insert, index bet_placement_deadline: a transition changes
 * no indexed column) is in the window: a frame bet is decided by then, or still placing (held back), or
 * force-declined by the recovery. A reported bet's deadline is its decision time, taken before its insert commits, so
 * a reported bet is examined once its deadline is the sweep's overlap old (`reportedFrom` to `reportedTo`, the window
 * moved back by the overlap), when its insert committed long before: once, not at every sweep of the overlap. The
 * two ranges are read apart from the deadline's index, so a sweep reads only the bets it examines.
 */
export async function staleAcceptedBets(
  db: Executor,
  w: SweepWindow,
): Promise<{ ids: string[]; placingSince: Date | null }> {
  const r = await sql<{ id: string | null; placing: Date | null }>`
    with w as materialized (
      select b.id, b.state, b.created_at, b.placement_deadline from bet b
      where b.placement_deadline > ${w.from} and b.placement_deadline <= ${w.to}
        and b.source = 'frame' and b.state in ('hold_requested', 'accepted')
      union all
      select b.id, b.state, b.created_at, b.placement_deadline from bet b
      where b.placement_deadline > ${w.reportedFrom} and b.placement_deadline <= ${w.reportedTo}
        and b.source = 'mts' and b.state = 'accepted')
    select id, null::timestamptz as placing from (
      select w.id from w
      where w.state = 'accepted'
        and exists (
          select 1 from bet_selection s
          left join settlement_result r
            on r.sport_event_id = s.sport_event_id and r.market_id = s.market_id and r.odd_id = s.odd_id
          where s.bet_id = w.id and s.result_source = 'feed'
            and (s.status <> coalesce(r.status, 0) or s.dead_heat is distinct from r.dead_heat
                 or s.status_reason <> coalesce(r.status_reason, '')
                 or exists (select 1 from settlement_rollback rb
                            where rb.sport_event_id = s.sport_event_id
                              and (cardinality(rb.market_ids) = 0 or s.market_id = any(rb.market_ids))
                              and w.created_at >= rb.dt_start and w.created_at <= rb.dt_end)))
      order by w.placement_deadline
      limit ${w.limit}::int4) stale
    union all
    select null, min(w.placement_deadline) from w where w.state = 'hold_requested'`.execute(db);
  const ids: string[] = [];
  let placingSince: Date | null = null;
  for (const x of r.rows) {
    if (x.id !== null) ids.push(x.id);
    else if (x.placing !== null) placingSince = new Date(x.placing);
  }
  return { ids, placingSince };
}

/** Every event with a bet in an open state (a full resync after the log expired under the consumer). */
export async function eventsWithOpenBets(db: Executor): Promise<string[]> {
  const r = await sql<{ sport_event_id: string }>`
    select distinct s.sport_event_id from bet_selection s join bet b on b.id = s.bet_id
    where b.state in ('accepted', 'settled', 'unsettled')`.execute(db);
  return r.rows.map((x) => x.sport_event_id);
}

// ----------------------------------------------------------------------------------------------- ledger

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
