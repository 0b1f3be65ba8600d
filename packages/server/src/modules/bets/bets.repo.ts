import type { BetState } from '@bookie/core';
import { CompiledQuery, sql } from 'kysely';
import { pgArray } from '../../db/pg-array.js';
import { type Executor, sendQuery, sendWrite } from '../../db/transaction.js';
import type { Bet, BetBuilder, BetRow, BuilderRow, SelectionRow } from './bet.js';

/**
 * Pairs bet rows with their plain selections (by idx) and their builders (by index, each with its inner legs by
 * idx), in the order of `ids`; ids without a row are left out. When `rows` holds a bet twice, the later row wins (a
 * row returned by a later statement of the same transaction).
 */
export function assemble<R extends Pick<BetRow, 'id'> = BetRow>(
  ids: readonly string[],
  rows: readonly R[],
  sels: readonly SelectionRow[],
  builderRows: readonly BuilderRow[] = [],
): Array<Omit<Bet, 'row'> & { row: R }> {
  const byBet = new Map<string, SelectionRow[]>();
  const legsOf = new Map<string, SelectionRow[]>();
  for (const s of sels) {
    const key = s.builder === null ? s.bet_id : `${s.bet_id}\u0000${s.builder}`;
    const map = s.builder === null ? byBet : legsOf;
    const list = map.get(key);
    if (list) list.push(s);
    else map.set(key, [s]);
  }
  for (const list of byBet.values()) list.sort((a, b) => a.idx - b.idx);
  for (const list of legsOf.values()) list.sort((a, b) => a.idx - b.idx);
  const buildersOf = new Map<string, BetBuilder[]>();
  for (const b of [...builderRows].sort((x, y) => x.builder - y.builder)) {
    const entry = { row: b, legs: legsOf.get(`${b.bet_id}\u0000${b.builder}`) ?? [] };
    const list = buildersOf.get(b.bet_id);
    if (list) list.push(entry);
    else buildersOf.set(b.bet_id, [entry]);
  }
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [{ row, selections: byBet.get(id) ?? [], builders: buildersOf.get(id) ?? [] }] : [];
  });
}

/**
 * The one loader of bets with their selections (in bet order), in the order of `ids`; ids without a bet are left
 * out. The ids go as one array parameter (a settlement page is 1,000 bets: one bind value, not 1,000). `lock` takes
 * row locks on the bets (FOR UPDATE) in id order, so two transactions locking overlapping sets never deadlock.
 */
export async function loadBets(
  db: Executor,
  ids: readonly string[],
  opts: { lock?: boolean } = {},
): Promise<Bet[]> {
  if (ids.length === 0) return [];
  const unique = [...new Set(ids)].sort();
  let q = db.selectFrom('bet').selectAll().where(sql<boolean>`id = any(${unique}::uuid[])`).orderBy('id');
  if (opts.lock) q = q.forUpdate();
  const rows = await q.execute();
  const sels = await db
    .selectFrom('bet_selection')
    .selectAll()
    .where(sql<boolean>`bet_id = any(${unique}::uuid[])`)
    .orderBy('bet_id')
    .orderBy('idx')
    .execute();
  const builders = await db
    .selectFrom('bet_builder')
    .selectAll()
    .where(sql<boolean>`bet_id = any(${unique}::uuid[])`)
    .orderBy('bet_id')
    .orderBy('builder')
    .execute();
  return assemble(ids, rows, sels, builders);
}

/** Locks bets (FOR UPDATE, in id order) and loads them with their selections, each once, in id order. */
export async function lockBets(tx: Executor, ids: readonly string[]): Promise<Bet[]> {
  return loadBets(tx, [...new Set(ids)].sort(), { lock: true });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One bet of a white label by Bookie's id or, for a partner-reported bet, the partner's id (undefined for another
 * white label's bet: isolation). A partner id shaped like Bookie's is tried both ways, Bookie's first; `lock` locks
 * the bet found (FOR UPDATE).
 */
export async function findBet(
  db: Executor,
  whiteLabelId: string,
  id: string,
  lock = false,
): Promise<Bet | undefined> {
  if (UUID.test(id)) {
    const [bet] = await loadBets(db, [id], { lock });
    if (bet && bet.row.white_label_id === whiteLabelId) return bet;
  }
  const reported = await db
    .selectFrom('bet')
    .select('id')
    .where('white_label_id', '=', whiteLabelId)
    .where('partner_bet_id', '=', id)
    .executeTakeFirst();
  if (!reported) return undefined;
  const [bet] = await loadBets(db, [reported.id], { lock });
  return bet;
}

/** A map key of a white label's player and one more value (a client key, a sport event id). */
function playerKey(whiteLabelId: string, playerId: string, value: string): string {
  return `${whiteLabelId}\u0000${playerId}\u0000${value}`;
}

/** A player's client idempotency key. */
export interface ClientKey {
  whiteLabelId: string;
  playerId: string;
  clientKey: string;
}

/** The bets placed with these client keys, in one statement: one bet id (or undefined) per key, in order. */
export async function findBetsByClientKey(
  db: Executor,
  keys: readonly ClientKey[],
): Promise<Array<string | undefined>> {
  if (keys.length === 0) return [];
  const res = await sql<{ id: string; white_label_id: string; player_id: string; client_key: string }>`
    SELECT b.id, b.white_label_id, b.player_id, b.client_key FROM bet b
    JOIN unnest(${keys.map((k) => k.whiteLabelId)}::text[], ${keys.map((k) => k.playerId)}::text[],
      ${keys.map((k) => k.clientKey)}::text[]) AS k(white_label_id, player_id, client_key)
      ON b.white_label_id = k.white_label_id AND b.player_id = k.player_id AND b.client_key = k.client_key`.execute(
    db,
  );
  const found = new Map(res.rows.map((r) => [playerKey(r.white_label_id, r.player_id, r.client_key), r.id]));
  return keys.map((k) => found.get(playerKey(k.whiteLabelId, k.playerId, k.clientKey)));
}

/** A player's bet on some sport events (the key of bet_interval). */
export interface PlayerEvents {
  whiteLabelId: string;
  playerId: string;
  sportEventIds: readonly string[];
}

/**
 * The read of players' last bet times: one text whatever the number of keys (arrays), prepared once. Each key is
 * looked up by the primary key on its own (a lateral subquery with `LIMIT 1` is never flattened into a join), so
 * the plan cached for the statement cannot become a scan of the whole table, whatever the table held when it was
 * planned.
 */
const LAST_BET_TIMES = `
  SELECT p.white_label_id, p.player_id, p.sport_event_id, p.last_bet_at
  FROM unnest($1::text[], $2::text[], $3::text[]) AS k(white_label_id, player_id, sport_event_id)
  CROSS JOIN LATERAL (
    SELECT q.white_label_id, q.player_id, q.sport_event_id, q.last_bet_at FROM player_event_bet q
    WHERE q.white_label_id = k.white_label_id AND q.player_id = k.player_id AND q.sport_event_id = k.sport_event_id
    LIMIT 1
  ) p`;

/** The write of players' last bet times (the latest wins), prepared once. */
const RECORD_BET_TIMES = `
  INSERT INTO player_event_bet (white_label_id, player_id, sport_event_id, last_bet_at)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[])
  ON CONFLICT (white_label_id, player_id, sport_event_id) DO UPDATE SET last_bet_at = excluded.last_bet_at`;

/**
 * When each player last had a bet accepted on each of its sport events (bet_interval), for several players in one
 * statement: one map (sport event id → time) per item, in order. Sent without waiting inside a transaction
 * (`sendQuery`): resolves once the read is on its way, to its answer's promise, so that the statements sent after it
 * share its round trip.
 */
export async function sendLastBetTimes(
  db: Executor,
  items: readonly PlayerEvents[],
): Promise<{ times: Promise<Map<string, Date>[]> }> {
  const keys = items.flatMap((it) => it.sportEventIds.map((e) => [it.whiteLabelId, it.playerId, e] as const));
  if (keys.length === 0) return { times: Promise.resolve(items.map(() => new Map())) };
  const sent = await sendQuery(
    db,
    CompiledQuery.raw(LAST_BET_TIMES, [
      pgArray(keys.map((k) => k[0])),
      pgArray(keys.map((k) => k[1])),
      pgArray(keys.map((k) => k[2])),
    ]),
    (rows: LastBetRow[]) => lastTimesOf(items, rows),
  );
  return { times: sent.rows };
}

/** A row of {@link LAST_BET_TIMES}. */
interface LastBetRow {
  white_label_id: string;
  player_id: string;
  sport_event_id: string;
  last_bet_at: Date;
}

/** Each item's last bet time on each of its sport events, from the rows read. */
function lastTimesOf(items: readonly PlayerEvents[], rows: readonly LastBetRow[]): Map<string, Date>[] {
  const at = new Map(
    rows.map((r) => [playerKey(r.white_label_id, r.player_id, r.sport_event_id), new Date(r.last_bet_at)]),
  );
  return items.map((it) => {
    const m = new Map<string, Date>();
    for (const e of it.sportEventIds) {
      const t = at.get(playerKey(it.whiteLabelId, it.playerId, e));
      if (t) m.set(e, t);
    }
    return m;
  });
}

/** Records accepted bets' times on each of their sport events (bet_interval), in one statement; the latest wins. */
export async function recordBetTimes(
  tx: Executor,
  items: ReadonlyArray<PlayerEvents & { at: Date }>,
): Promise<void> {
  const latest = new Map<
    string,
    { whiteLabelId: string; playerId: string; sportEventId: string; at: Date }
  >();
  for (const it of items) {
    for (const e of it.sportEventIds) {
      const key = playerKey(it.whiteLabelId, it.playerId, e);
      const seen = latest.get(key);
      if (!seen || seen.at < it.at)
        latest.set(key, { whiteLabelId: it.whiteLabelId, playerId: it.playerId, sportEventId: e, at: it.at });
    }
  }
  if (latest.size === 0) return;
  const rows = [...latest.values()];
  await sendWrite(
    tx,
    CompiledQuery.raw(RECORD_BET_TIMES, [
      pgArray(rows.map((r) => r.whiteLabelId)),
      pgArray(rows.map((r) => r.playerId)),
      pgArray(rows.map((r) => r.sportEventId)),
      pgArray(rows.map((r) => r.at)),
    ]),
  );
}

/**
 * How far behind the time of its previous run a recovery run looks again: a bet is inserted (and committed) right
 * after it is formed, `PLACEMENT_DEADLINE_MS` (6 s at the least) before its deadline; a hold whose commit came more
 * than this after its deadline — and whose process then died before deciding it — would be left behind by the mark.
 */
export const RECOVERY_OVERLAP_MS = 10_000;

/** The bets past their deadline still placing, from the recovery's mark on (index bet_placement_deadline). */
const STUCK_SINCE = `SELECT id, placement_deadline FROM bet
  WHERE placement_deadline >= $1 AND placement_deadline < now() AND state = 'hold_requested'
  ORDER BY placement_deadline, id LIMIT $2`;

/**
 * Bets stuck in `hold_requested` past their placement deadline, locked (SKIP LOCKED) for recovery, `limit` at the
 * most, and the recovery's mark moved on. The bets are read from the mark (`placement_recovery_mark`, locked for
 * the transaction) up to now through the index of deadlines — a range of bets set at insert, whose state is checked
 * on the few rows it holds — so the transitions of a bet change no indexed column (docs/adr/0058-bet-hot-transitions.md).
 * The mark moves to now less {@link RECOVERY_OVERLAP_MS}, but never past a stuck bet this run did not claim (locked
 * by a transaction deciding it, or beyond `limit`): the next run reads from there.
 */
export async function claimStuckPlacements(tx: Executor, limit: number): Promise<BetRow[]> {
  const mark = await sql<{
    through: Date;
  }>`select through from placement_recovery_mark where id = 1 for update`.execute(tx);
  const from = mark.rows[0]?.through ?? new Date(0);
  const seen = (
    await tx.executeQuery<{ id: string; placement_deadline: Date }>(
      CompiledQuery.raw(STUCK_SINCE, [from, limit + 1]),
    )
  ).rows;
  const tried = seen.slice(0, limit);
  const rows =
    tried.length === 0
      ? []
      : await tx
          .selectFrom('bet')
          .selectAll()
          .where(
            'id',
            'in',
            tried.map((s) => s.id),
          )
          .where('state', '=', 'hold_requested')
          .orderBy('placement_deadline')
          .forUpdate()
          .skipLocked()
          .execute();
  const claimed = new Set(rows.map((r) => r.id));
  let cap: Date | null = seen[limit]?.placement_deadline ?? null;
  for (const s of tried) {
    if (!claimed.has(s.id) && (cap === null || s.placement_deadline < cap)) cap = s.placement_deadline;
  }
  await sql`update placement_recovery_mark
    set through = least(now() - ${`${RECOVERY_OVERLAP_MS} milliseconds`}::interval, ${cap}::timestamptz)
    where id = 1`.execute(tx);
  return rows;
}

/** A page of bets to list. */
export interface BetPage {
  /** The last bet of the previous page (keyset on created_at, id). */
  before?: { createdAt: Date; id: string };
  limit: number;
}

/** A white label's bets from `page.before` on, newest first, `page.limit` at the most: the query the listings narrow. */
function betPage(db: Executor, whiteLabelId: string, page: BetPage) {
  const before = page.before;
  const q = db
    .selectFrom('bet')
    .selectAll()
    .where('white_label_id', '=', whiteLabelId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit);
  return before
    ? q.where((eb) =>
        eb.or([
          eb('created_at', '<', before.createdAt),
          eb.and([eb('created_at', '=', before.createdAt), eb('id', '<', before.id)]),
        ]),
      )
    : q;
}

/**
 * A page of a player's bets placed in the frame, newest first (history). Bets the partner reported from its own slip
 * (`POST /bets`) are the partner's to show and to cash out.
 */
export async function listPlayerBets(
  db: Executor,
  whiteLabelId: string,
  playerId: string,
  page: BetPage,
): Promise<BetRow[]> {
  return betPage(db, whiteLabelId, page)
    .where('player_id', '=', playerId)
    .where('source', '=', 'frame')
    .execute();
}

/** Filters of a white label's bet listing (partner REST `GET /bets`). */
export interface WhiteLabelBetFilter {
  playerId?: string;
  /** Internal states the D6 status maps to, with the settle_status for 3 / 5 / 6. */
  states?: { state: BetState; settleStatus?: number }[];
  from?: Date;
  to?: Date;
}

/** A page of a white label's bets, newest first, by (created_at, id) keyset. */
export async function listWhiteLabelBets(
  db: Executor,
  whiteLabelId: string,
  filter: WhiteLabelBetFilter,
  page: BetPage,
): Promise<BetRow[]> {
  let q = betPage(db, whiteLabelId, page);
  if (filter.playerId !== undefined) q = q.where('player_id', '=', filter.playerId);
  if (filter.from) q = q.where('created_at', '>=', filter.from);
  if (filter.to) q = q.where('created_at', '<', filter.to);
  const states = filter.states;
  if (states) {
    q = q.where((eb) =>
      eb.or(
        states.map((s) =>
          s.settleStatus === undefined
            ? eb('state', '=', s.state)
            : eb.and([
                eb('state', '=', s.state),
                s.settleStatus === 3
                  ? eb.or([eb('settle_status', '=', 3), eb('settle_status', 'is', null)])
                  : eb('settle_status', '=', s.settleStatus),
              ]),
        ),
      ),
    );
  }
  return q.execute();
}
