/**
 * The only SQL of the wallet's ledger: accounts, bets and ledger rows (ARCHITECTURE "Inside the server": one repo per
 * module). Every function takes the executor it runs on: the callback's transaction, or a deposit's own. The bet
 * callbacks (place, accept, decline, settle, unsettle) are SDK {@link ClaimingStatement}s instead: each is one
 * statement that decides, claims the request, moves the money and stores the answer (docs/adr/0013-wallet-round-trips.md).
 *
 * @packageDocumentation
 */
import type { ClaimingStatement } from '@bookie/sdk';
import type { Executor } from '@bookie/storage';
import { CompiledQuery, sql } from 'kysely';
import type { BetState, BetTable, LedgerKind, WalletDB } from '../db/schema.js';

/** The executor of the wallet database (Kysely or an open transaction). */
export type WalletExecutor = Executor<WalletDB>;

/** A balance: available and held, in micro-units. */
export interface Balance {
  available: bigint;
  held: bigint;
}

/**
 * Creates the account if missing and locks it for the rest of the transaction (`FOR UPDATE`), in one statement (a
 * second only when another transaction created the account after this statement's snapshot).
 */
export async function lockAccount(db: WalletExecutor, playerId: string, currency: string): Promise<Balance> {
  const query = CompiledQuery.raw(
    `WITH created AS (
       INSERT INTO accounts (player_id, currency, available, held) VALUES ($1, $2, 0, 0)
       ON CONFLICT (player_id, currency) DO NOTHING
       RETURNING available, held
     ),
     locked AS (SELECT available, held FROM accounts WHERE player_id = $1 AND currency = $2 FOR UPDATE)
     SELECT available, held FROM created UNION ALL SELECT available, held FROM locked`,
    [playerId, currency],
  );
  for (let attempt = 0; ; attempt++) {
    const [row] = (await db.executeQuery<Balance>(query)).rows;
    if (row) return row;
    if (attempt > 0) throw new Error(`account ${playerId}/${currency} neither created nor found`);
  }
}

/** One money movement to record. `amount` is in micro-units, > 0. */
export interface Movement {
  playerId: string;
  currency: string;
  kind: LedgerKind;
  reason: string;
  amount: bigint;
  betId?: string | null;
  ref?: string | null;
  requestId?: string | null;
}

/**
 * Applies a movement to the account and appends its ledger row, in the caller's transaction, as one statement. A
 * deposit, credit or debit creates the account if missing; a hold, release or capture needs it. An amount of 0 moves
 * nothing and writes no row (it only locks the account, created if missing).
 *
 * @returns the balance after the movement.
 */
export async function applyMovement(db: WalletExecutor, m: Movement): Promise<Balance> {
  if (m.amount < 0n) throw new RangeError(`movement amount must not be negative: ${m.amount}`);
  if (m.amount === 0n) return lockAccount(db, m.playerId, m.currency);
  const query = CompiledQuery.raw(
    `WITH go AS (
       SELECT $1::text AS player_id, $2::text AS currency, $3::int8 AS amount, $4::text AS bet_id, $5::text AS ref,
         $6::text AS request_id, $7::text AS reason
     ),
     ${movementCtes(m.kind, { reason: 'go.reason', ref: 'go.ref', requestId: 'go.request_id' })}
     SELECT available, held FROM moved`,
    [m.playerId, m.currency, m.amount, m.betId ?? null, m.ref ?? null, m.requestId ?? null, m.reason],
  );
  const [after] = (await db.executeQuery<Balance>(query)).rows;
  if (!after) throw new Error(`account ${m.playerId}/${m.currency} missing for a ${m.kind}`);
  return after;
}

/** The wallet's record of a bet. */
export type BetRow = Pick<
  BetTable,
  'bet_id' | 'player_id' | 'currency' | 'stake' | 'freebet' | 'state' | 'settled'
>;

/** Reads a bet and locks it for the rest of the transaction, or undefined. */
export async function lockBet(db: WalletExecutor, betId: string): Promise<BetRow | undefined> {
  return db
    .selectFrom('bets')
    .select(['bet_id', 'player_id', 'currency', 'stake', 'freebet', 'state', 'settled'])
    .where('bet_id', '=', betId)
    .forUpdate()
    .executeTakeFirst();
}

/** True when a ledger row with this (kind, reason, ref) exists: a once-only movement already happened. */
/** The amount (micro-units) of the movement `(kind, reason, ref)`, or undefined when there is none. */
export async function movementAmount(
  db: WalletExecutor,
  kind: LedgerKind,
  reason: string,
  ref: string,
): Promise<bigint | undefined> {
  const row = await db
    .selectFrom('ledger')
    .select('amount')
    .where('kind', '=', kind)
    .where('reason', '=', reason)
    .where('ref', '=', ref)
    .executeTakeFirst();
  return row === undefined ? undefined : BigInt(row.amount);
}

export async function movementExists(
  db: WalletExecutor,
  kind: LedgerKind,
  reason: string,
  ref: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('ledger')
    .select('id')
    .where('kind', '=', kind)
    .where('reason', '=', reason)
    .where('ref', '=', ref)
    .executeTakeFirst();
  return row !== undefined;
}

/** Balances of a player, per currency, ordered by currency. */
export async function playerBalances(
  db: WalletExecutor,
  playerId: string,
): Promise<{ currency: string; available: bigint; held: bigint }[]> {
  return db
    .selectFrom('accounts')
    .select(['currency', 'available', 'held'])
    .where('player_id', '=', playerId)
    .orderBy('currency')
    .execute();
}

/** Ledger rows of a player, oldest first. */
export async function playerLedger(db: WalletExecutor, playerId: string, limit = 1000) {
  return db
    .selectFrom('ledger')
    .select([
      'id',
      'currency',
      'kind',
      'reason',
      'amount',
      'bet_id',
      'ref',
      'request_id',
      'available_after',
      'held_after',
      'at',
    ])
    .where('player_id', '=', playerId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Per account: the balance and the ledger sums by kind (micro-units), for the invariant check. */
export async function accountTotals(db: WalletExecutor, playerId?: string) {
  let q = db
    .selectFrom('accounts as a')
    .leftJoin('ledger as l', (j) =>
      j.onRef('l.player_id', '=', 'a.player_id').onRef('l.currency', '=', 'a.currency'),
    )
    .select([
      'a.player_id',
      'a.currency',
      'a.available',
      'a.held',
      sql<string>`coalesce(sum(l.amount) filter (where l.kind = 'deposit'), 0)::text`.as('deposited'),
      sql<string>`coalesce(sum(l.amount) filter (where l.kind = 'hold'), 0)::text`.as('holds'),
      sql<string>`coalesce(sum(l.amount) filter (where l.kind = 'release'), 0)::text`.as('released'),
      sql<string>`coalesce(sum(l.amount) filter (where l.kind = 'capture'), 0)::text`.as('captured'),
      sql<string>`coalesce(sum(l.amount) filter (where l.kind = 'credit'), 0)::text`.as('credited'),
      sql<string>`coalesce(sum(l.amount) filter (where l.kind = 'debit'), 0)::text`.as('debited'),
    ])
    .groupBy(['a.player_id', 'a.currency', 'a.available', 'a.held'])
    .orderBy('a.player_id')
    .orderBy('a.currency');
  if (playerId !== undefined) q = q.where('a.player_id', '=', playerId);
  return q.execute();
}

// ---------------------------------------------------------------------------------------------------------------
// The bet callbacks as single statements (docs/adr/0013-wallet-round-trips.md). The SDK adds the claim (`claimed`)
// and the stored answer; `$1` is the request_id, `$2` the fingerprint, ours start at `$3` (always the bet id). Each
// statement locks what it decides on (`FOR UPDATE` returns the latest committed row under READ COMMITTED), decides
// an `outcome`, and its effects run only when the claim was taken: `go` has one row then — the movement's account
// and `amount` — and none otherwise, and every write selects from `go` (or from `decision, claimed`).
// ---------------------------------------------------------------------------------------------------------------

/** The bet of `$3`, locked. */
const LOCKED_BET = `bet AS (
    SELECT bet_id, player_id, currency, stake, state, settled FROM bets WHERE bet_id = $3 FOR UPDATE
  )`;

/** Kinds that may create the account (their proposed row passes `held >= 0`); the others need it to exist. */
const UPSERT_KINDS: ReadonlySet<LedgerKind> = new Set(['deposit', 'credit', 'debit']);

/** The change of (available, held) of each kind, as SQL over `go.amount`. */
const DELTA_SQL: Record<LedgerKind, [string, string]> = {
  deposit: ['go.amount', '0'],
  credit: ['go.amount', '0'],
  debit: ['-go.amount', '0'],
  hold: ['-go.amount', 'go.amount'],
  release: ['go.amount', '-go.amount'],
  capture: ['0', '-go.amount'],
};

/** SQL expressions of a ledger row's reason, ref and request_id (default: a callback's, on the bet of `go`). */
interface EntrySql {
  reason: string;
  ref?: string;
  requestId?: string;
}

/**
 * The CTEs `moved` (the account row changed, created for a deposit, credit or debit) and `entry` (its ledger row,
 * with the balance after) of a movement of `go.amount` on `go`'s account (`go` has `player_id`, `currency`, `amount`
 * and `bet_id`); nothing when `go` is empty or the amount is 0.
 */
function movementCtes(kind: LedgerKind, entry: EntrySql): string {
  const [available, held] = DELTA_SQL[kind];
  const moved = UPSERT_KINDS.has(kind)
    ? `moved AS (
    INSERT INTO accounts AS a (player_id, currency, available, held)
    SELECT go.player_id, go.currency, ${available}, ${held} FROM go WHERE go.amount > 0
    ON CONFLICT (player_id, currency) DO UPDATE
      SET available = a.available + excluded.available, held = a.held + excluded.held, updated_at = now()
    RETURNING a.player_id, a.currency, a.available, a.held
  )`
    : `moved AS (
    UPDATE accounts AS a
    SET available = a.available + ${available}, held = a.held + ${held}, updated_at = now()
    FROM go WHERE go.amount > 0 AND a.player_id = go.player_id AND a.currency = go.currency
    RETURNING a.player_id, a.currency, a.available, a.held, go.amount, go.bet_id
  )`;
  if (!UPSERT_KINDS.has(kind) && entry.ref === undefined && entry.requestId === undefined) {
    // the update returns what the ledger row takes from `go`: one scan of `moved`, no join
    return `${moved},
  entry AS (
    INSERT INTO ledger (player_id, currency, kind, reason, amount, bet_id, ref, request_id, available_after, held_after)
    SELECT m.player_id, m.currency, '${kind}', ${entry.reason}, m.amount, m.bet_id, m.bet_id, $1, m.available, m.held
    FROM moved m
  )`;
  }
  return `${moved},
  entry AS (
    INSERT INTO ledger (player_id, currency, kind, reason, amount, bet_id, ref, request_id, available_after, held_after)
    SELECT m.player_id, m.currency, '${kind}', ${entry.reason}, go.amount, go.bet_id, ${entry.ref ?? 'go.bet_id'},
      ${entry.requestId ?? '$1'}, m.available, m.held
    FROM moved m, go
  )`;
}

/**
 * The `go` CTE of a bet callback: the locked bet and the amount to move (`amount`, SQL over `bet`), when the decision
 * is `outcome` and the claim was taken.
 */
function go(outcome: string, amount: string): string {
  return `go AS (
    SELECT bet.bet_id, bet.player_id, bet.currency, ${amount} AS amount
    FROM bet, decision, claimed WHERE decision.outcome = '${outcome}'
  )`;
}

/** The CTE `changed`: the bet moved to `state` (and `settled`), when `go` has its row. */
function betUpdate(state: BetState, settled?: string): string {
  return `changed AS (
    UPDATE bets SET state = '${state}', ${settled === undefined ? '' : `settled = ${settled}, `}updated_at = now()
    WHERE bets.bet_id = $3 AND EXISTS (SELECT 1 FROM go)
  )`;
}

/** The SQL parts of a bet callback's statement; its `params` vary per callback. */
type StatementSql = Omit<ClaimingStatement, 'params'>;

const OUTCOME_AND_STATE = `(SELECT outcome FROM decision) AS outcome, (SELECT state FROM bet) AS state`;

/** A new bet to hold: `/bet/place`. */
export interface PlaceInput {
  betId: string;
  playerId: string;
  currency: string;
  /** Micro-units to hold; 0 for a freebet bet. */
  stake: bigint;
  freebet: boolean;
}

/** The SQL of {@link placeStatement}, built once: the same text objects on every call. */
const PLACE_SQL: StatementSql = {
  decide: `decision AS (
    SELECT CASE
        WHEN EXISTS (SELECT 1 FROM bets WHERE bet_id = $3) THEN 'known'
        WHEN coalesce(account.available, 0) < $6::int8 THEN 'short'
        ELSE 'held'
      END AS outcome,
      coalesce(account.available, 0) AS available
    FROM (SELECT 1) AS one LEFT JOIN (
      SELECT available FROM accounts WHERE player_id = $4 AND currency = $5 FOR UPDATE
    ) AS account ON true
  )`,
  claimWhen: `(SELECT outcome FROM decision) <> 'short'`,
  effects: `go AS (
    SELECT $3::text AS bet_id, $4::text AS player_id, $5::text AS currency, $6::int8 AS amount
    FROM decision, claimed WHERE decision.outcome = 'held'
  ),
  added AS (
    INSERT INTO bets (bet_id, player_id, currency, stake, freebet, state, settled)
    SELECT go.bet_id, go.player_id, go.currency, go.amount, $7::boolean, 'held', 0 FROM go
  ),
  ${movementCtes('hold', { reason: "'place'" })}`,
  columns: `(SELECT outcome FROM decision) AS outcome, (SELECT available FROM decision) AS available`,
};

/**
 * `/bet/place`: outcome `known` (the bet exists: nothing, 204), `short` (available < stake: a refusal, with
 * `available`), or `held` (the bet recorded as held, the stake moved from available to held). The account is locked
 * first, so concurrent places of one player see each other's holds.
 */
export function placeStatement(p: PlaceInput): ClaimingStatement {
  return { ...PLACE_SQL, params: [p.betId, p.playerId, p.currency, p.stake, p.freebet] };
}

/** The SQL of {@link acceptStatement}, built once: the same text objects on every call. */
const ACCEPT_SQL: StatementSql = {
  decide: `decision AS (
    SELECT bet_id, player_id, currency, stake, state,
      CASE WHEN state = 'declined' THEN 'conflict' WHEN state <> 'held' THEN 'known' ELSE 'captured' END AS outcome
    FROM bets WHERE bet_id = $3 FOR UPDATE
  )`,
  claimWhen: `(SELECT outcome FROM decision) IN ('known', 'captured')`,
  effects: `go AS (
    SELECT d.bet_id, d.player_id, d.currency, d.stake AS amount FROM decision d, claimed WHERE d.outcome = 'captured'
  ),
  ${movementCtes('capture', { reason: "'accept'" })},
  ${betUpdate('accepted')}`,
  columns: `coalesce((SELECT outcome FROM decision), 'unknown') AS outcome, (SELECT state FROM decision) AS state`,
};

/**
 * `/bet/accept`: outcome `unknown`, `conflict` (declined), `known` (past held: nothing) or `captured` (the held stake
 * captured, the bet accepted).
 */
export function acceptStatement(betId: string): ClaimingStatement {
  return { ...ACCEPT_SQL, params: [betId] };
}

/** The bet a `/bet/decline` names, for its tombstone when the wallet never saw it. */
export interface DeclineInput {
  betId: string;
  playerId: string;
  currency: string;
}

/** The SQL of {@link declineStatement}, built once: the same text objects on every call. */
const DECLINE_SQL: StatementSql = {
  decide: `${LOCKED_BET},
  decision AS (
    SELECT CASE
        WHEN NOT EXISTS (SELECT 1 FROM bet) THEN 'tombstone'
        WHEN (SELECT state FROM bet) = 'declined' THEN 'known'
        WHEN (SELECT state FROM bet) <> 'held' THEN 'conflict'
        ELSE 'released'
      END AS outcome
  )`,
  claimWhen: `(SELECT outcome FROM decision) <> 'conflict'`,
  effects: `tombstone AS (
    INSERT INTO bets (bet_id, player_id, currency, stake, freebet, state, settled)
    SELECT $3, $4, $5, 0, false, 'declined', 0 FROM decision, claimed WHERE decision.outcome = 'tombstone'
  ),
  ${go('released', 'bet.stake')},
  ${movementCtes('release', { reason: "'decline'" })},
  ${betUpdate('declined')}`,
  columns: OUTCOME_AND_STATE,
};

/**
 * `/bet/decline`: outcome `tombstone` (unknown bet: recorded as declined with no stake, so a late place holds
 * nothing), `known` (declined already), `conflict` (past held) or `released` (the hold released, the bet declined).
 */
export function declineStatement(d: DeclineInput): ClaimingStatement {
  return { ...DECLINE_SQL, params: [d.betId, d.playerId, d.currency] };
}

/** A `/bet/settle`: the bet, the amount, and whom to credit when the bet is a reported one the wallet never saw. */
export interface SettleInput {
  betId: string;
  /** Micro-units to credit. */
  amount: bigint;
  /** The player of a reported bet (the callback's); `""` when the callback names none. */
  playerId: string;
  /** The currency of a reported bet (the session's or the declared one); `""` when none is known. */
  currency: string;
}

/** The SQL of {@link settleStatement}, built once: the same text objects on every call. */
const SETTLE_SQL: StatementSql = {
  decide: `${LOCKED_BET},
  decision AS (
    SELECT CASE
        WHEN NOT EXISTS (SELECT 1 FROM bet) AND ($5::text = '' OR $6::text = '') THEN 'unknown'
        WHEN NOT EXISTS (SELECT 1 FROM bet) THEN 'reported'
        WHEN (SELECT state = 'settled' AND settled = $4::int8 FROM bet) THEN 'known'
        WHEN (SELECT state NOT IN ('accepted', 'unsettled') FROM bet) THEN 'conflict'
        ELSE 'credited'
      END AS outcome
  )`,
  claimWhen: `(SELECT outcome FROM decision) IN ('known', 'credited', 'reported')`,
  effects: `go AS (
    SELECT bet.bet_id, bet.player_id, bet.currency, $4::int8 AS amount
    FROM bet, decision, claimed WHERE decision.outcome = 'credited'
    UNION ALL
    SELECT $3::text, $5::text, $6::text, $4::int8 FROM decision, claimed WHERE decision.outcome = 'reported'
  ),
  added AS (
    INSERT INTO bets (bet_id, player_id, currency, stake, freebet, state, settled, reported)
    SELECT $3, $5, $6, 0, false, 'settled', $4::int8, true FROM decision, claimed
    WHERE decision.outcome = 'reported'
  ),
  ${movementCtes('credit', { reason: "'settle'" })},
  ${betUpdate('settled', '$4::int8')}`,
  columns: OUTCOME_AND_STATE,
};

/**
 * `/bet/settle` of `amount` micro-units: outcome `unknown` (a bet never seen, and no player or currency to book it
 * to), `known` (settled with this amount already), `conflict` (neither accepted nor unsettled), `credited` (the
 * amount credited, the bet settled with it) or `reported` (a bet never seen: one the partner took and reported
 * itself, so no stake was held here; it is recorded settled, `reported`, and the amount credited to the player of
 * the callback in the given currency).
 */
export function settleStatement(s: SettleInput): ClaimingStatement {
  return { ...SETTLE_SQL, params: [s.betId, s.amount, s.playerId, s.currency] };
}

/** The SQL of {@link unsettleStatement}, built once: the same text objects on every call. */
const UNSETTLE_SQL: StatementSql = {
  decide: `${LOCKED_BET},
  decision AS (
    SELECT CASE
        WHEN NOT EXISTS (SELECT 1 FROM bet) THEN 'unknown'
        WHEN (SELECT state FROM bet) = 'unsettled' THEN 'known'
        WHEN (SELECT state FROM bet) <> 'settled' THEN 'conflict'
        ELSE 'debited'
      END AS outcome
  )`,
  claimWhen: `(SELECT outcome FROM decision) IN ('known', 'debited')`,
  effects: `${go('debited', '$4::int8')},
  ${movementCtes('debit', { reason: "'unsettle'" })},
  ${betUpdate('unsettled', '0')}`,
  columns: OUTCOME_AND_STATE,
};

/**
 * `/bet/unsettle` of `amount` micro-units: outcome `unknown`, `known` (unsettled already), `conflict` (not settled)
 * or `debited` (the amount debited, the bet unsettled with a net settled amount of 0).
 */
export function unsettleStatement(betId: string, amount: bigint): ClaimingStatement {
  return { ...UNSETTLE_SQL, params: [betId, amount] };
}
