import type { SelectionNames } from '@bookie/contracts';
import { INITIAL_BET_STATE, type Restriction } from '@bookie/core';
import { sql } from 'kysely';
import type { ResultSource } from '../../db/schema.js';
import type { Executor } from '../../db/transaction.js';
import type { Bet, BetRow, SelectionRow } from './bet.js';
import { assemble } from './bets.repo.js';

/**
 * The bet aggregate's inserts and the writes of its columns that do not change its state (docs/adr/0038-bet-owner.md):
 * with bet-state.repo.ts, the only writer of `bet` and `bet_selection`. Every bet is created in core's initial state.
 */

/** What every new bet states, placed or reported: who, in what currency, its type, stake and odds. */
export interface NewBetCommon {
  id: string;
  whiteLabelId: string;
  playerId: string;
  currency: string;
  betType: 'single' | 'express' | 'system';
  systemSizes: number[];
  stake: string;
  oddsStrategy: number;
  totalOdds: string;
  foreignParams: Record<string, unknown>;
  createdAt: Date;
}

/** A new bet and its selections, as placement creates them. */
export interface NewBet extends NewBetCommon {
  baseOdds: string;
  freebetId: string | null;
  insuranceId: string | null;
  boostId: string | null;
  sessionTokenHash: string | null;
  clientKey: string | null;
  placementDeadline: Date;
  selections: Array<
    NewSelection & {
      /** What the selection is called at placement (the history shows it after the event left the book). */
      names?: SelectionNames | null;
    }
  >;
}

/** A selection of a new bet, placed or reported: the odd, the odds asked and given, and the event as it was. */
export interface NewSelection {
  sportEventId: string;
  marketId: string;
  oddId: string;
  requestedOdds: string;
  odds: string;
  oddUpdatedAt: Date;
  matchStatus: number;
  eventInfo: Record<string, unknown>;
}

/** The `bet` columns every inserted bet sets the same way, whichever way it arrived; it starts in core's initial state. */
function betColumns(b: NewBetCommon) {
  return {
    id: b.id,
    white_label_id: b.whiteLabelId,
    player_id: b.playerId,
    currency: b.currency,
    bet_type: b.betType,
    system_sizes: JSON.stringify(b.systemSizes),
    stake: b.stake,
    odds_strategy: b.oddsStrategy,
    total_odds: b.totalOdds,
    state: INITIAL_BET_STATE,
    foreign_params: JSON.stringify(b.foreignParams),
    created_at: b.createdAt,
  };
}

/** The `bet_selection` columns every inserted selection sets the same way. */
function selectionColumns(betId: string, idx: number, s: NewSelection) {
  return {
    bet_id: betId,
    idx,
    sport_event_id: s.sportEventId,
    market_id: s.marketId,
    odd_id: s.oddId,
    requested_odds: s.requestedOdds,
    odds: s.odds,
    odd_updated_at: s.oddUpdatedAt,
    match_status: s.matchStatus,
    event_info: JSON.stringify(s.eventInfo),
  };
}

/** Inserts a bet in `hold_requested` with its selections; returns it as stored. */
export async function insertBet(tx: Executor, b: NewBet): Promise<Bet> {
  return (await insertBets(tx, [b]))[0] as Bet;
}

/**
 * Inserts bets in `hold_requested` with their selections — one statement per table, whatever the number of bets —
 * and returns them as stored, in the order given.
 */
export async function insertBets(tx: Executor, bets: readonly NewBet[]): Promise<Bet[]> {
  if (bets.length === 0) return [];
  const rows = await tx
    .insertInto('bet')
    .values(
      bets.map((b) => ({
        ...betColumns(b),
        base_odds: b.baseOdds,
        freebet_id: b.freebetId,
        insurance_id: b.insuranceId,
        boost_id: b.boostId,
        session_token_hash: b.sessionTokenHash,
        client_key: b.clientKey,
        placement_deadline: b.placementDeadline,
      })),
    )
    .returningAll()
    .execute();
  const selections = await tx
    .insertInto('bet_selection')
    .values(
      bets.flatMap((b) =>
        b.selections.map((s, idx) => ({
          ...selectionColumns(b.id, idx, s),
          names: s.names ? JSON.stringify(s.names) : null,
        })),
      ),
    )
    .returningAll()
    .execute();
  return assemble(
    bets.map((b) => b.id),
    rows,
    selections,
  );
}

/** A selection of a reported bet as stored: a platform one, or a foreign one (`foreignId`). */
export interface ReportedSelectionRow extends NewSelection {
  foreignId: string | null;
}

/** A bet the partner reported (`POST /bets`), to insert. */
export interface ReportedBetRow extends NewBetCommon {
  partnerBetId: string;
  restrictions: readonly Restriction[];
  clientIp: string | null;
  countryCode: string | null;
  decidedAt: Date;
  selections: readonly ReportedSelectionRow[];
}

/**
 * Inserts reported bets (source `mts`) in `hold_requested` with their selections (foreign ones are resulted by the
 * partner only), one statement per table; returns the stored rows and selections, in order.
 */
export async function insertReportedBets(
  tx: Executor,
  bets: readonly ReportedBetRow[],
): Promise<{ rows: BetRow[]; selections: SelectionRow[] }> {
  if (bets.length === 0) return { rows: [], selections: [] };
  const rows = await tx
    .insertInto('bet')
    .values(
      bets.map((b) => ({
        ...betColumns(b),
        base_odds: b.totalOdds,
        restrictions: JSON.stringify(b.restrictions),
        freebet_id: null,
        insurance_id: null,
        boost_id: null,
        session_token_hash: null,
        client_key: null,
        placement_deadline: b.decidedAt,
        decided_at: b.decidedAt,
        source: 'mts',
        partner_bet_id: b.partnerBetId,
        client_ip: b.clientIp,
        country_code: b.countryCode,
      })),
    )
    .returningAll()
    .execute();
  const selections = bets.flatMap((b) =>
    b.selections.map((s, idx) => ({
      ...selectionColumns(b.id, idx, s),
      foreign_id: s.foreignId,
      result_source: s.foreignId ? ('manual' as const) : ('feed' as const),
    })),
  );
  const stored =
    selections.length > 0
      ? await tx.insertInto('bet_selection').values(selections).returningAll().execute()
      : [];
  return { rows, selections: stored };
}

/** Writes the odds selections were accepted at, in one statement; returns the updated selections. */
export async function setAcceptedOdds(
  tx: Executor,
  items: ReadonlyArray<{ betId: string; idx: number; odds: string }>,
): Promise<SelectionRow[]> {
  if (items.length === 0) return [];
  const res = await sql<SelectionRow>`
    UPDATE bet_selection s SET odds = v.odds
    FROM unnest(${items.map((i) => i.betId)}::uuid[], ${items.map((i) => i.idx)}::int2[],
      ${items.map((i) => i.odds)}::numeric[]) AS v(bet_id, idx, odds)
    WHERE s.bet_id = v.bet_id AND s.idx = v.idx
    RETURNING s.*`.execute(tx);
  return res.rows;
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
export async function writeSelectionResults(tx: Executor, rows: readonly SelectionChange[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`update bet_selection s set status = v.status, dead_heat = v.dead_heat::numeric,
      status_reason = v.reason, result_source = v.source
    from unnest(${rows.map((r) => r.betId)}::uuid[], ${rows.map((r) => r.idx)}::int2[],
                ${rows.map((r) => r.status)}::int2[], ${rows.map((r) => r.deadHeat)}::text[],
                ${rows.map((r) => r.reason)}::text[], ${rows.map((r) => r.source)}::text[])
      as v(bet_id, idx, status, dead_heat, reason, source)
    where s.bet_id = v.bet_id and s.idx = v.idx`.execute(tx);
}

/**
 * Writes a boosted bet's multiplier and boosted total odds (12 decimals) as its boost is reserved, in the
 * transaction that creates it (docs/adr/0009-bonuses.md).
 */
export async function setBoost(
  tx: Executor,
  betId: string,
  boost: { multiplier: string; totalOdds: string },
): Promise<void> {
  await tx
    .updateTable('bet')
    .set({ boost_multiplier: boost.multiplier, total_odds: boost.totalOdds, updated_at: sql`now()` })
    .where('id', '=', betId)
    .execute();
}

/** Sets the sum of a reported bet's accepted foreign cash-outs (what settlement deducts from the stake). */
export async function setForeignCashedOut(tx: Executor, betId: string, amount: string): Promise<void> {
  await tx.updateTable('bet').set({ foreign_cashed_out: amount }).where('id', '=', betId).execute();
}
