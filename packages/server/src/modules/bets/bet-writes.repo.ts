import { INITIAL_BET_STATE, type Restriction } from '@bookie/core';
import { CompiledQuery, sql } from 'kysely';
import { inJsonbKeyOrder } from '../../db/jsonb.js';
import { type Executor, sendQuery, sendWrite } from '../../db/transaction.js';
import type { Bet, BetRow, BuilderRow, SelectionRow } from './bet.js';
import { checkCreation } from './bet-state.repo.js';
import { assemble } from './bets.repo.js';
import type { PartnerBetRow, PartnerBetSource } from './partner-bet-view.js';
import { type NewBuilder, type NewSelection, selectionRows } from './selection-rows.js';

// settlement's result writes moved to their own file; importers of this one keep their imports
export * from './result-writes.repo.js';
export type { NewBuilder, NewSelection } from './selection-rows.js';

/**
 * The bet aggregate's inserts and the writes of its columns that do not change its state (docs/adr/0038-bet-owner.md):
 * with bet-state.repo.ts, the only writer of `bet` and `bet_selection`. Every bet is created in a state core's table of
 * creations allows for how it arrives (`checkCreation`): a placed bet held, a reported bet decided.
 */

/** Inserts the builders of new bets (one statement); returns them as stored. */
async function insertBuilders(
  tx: Executor,
  rows: ReturnType<typeof selectionRows>['builders'],
): Promise<BuilderRow[]> {
  return rows.length > 0 ? tx.insertInto('bet_builder').values(rows).returningAll().execute() : [];
}

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
  /** The request_id its `/bet/place` is sent with (the recovery of an interrupted placement writes that row). */
  placeRequestId?: string;
  /** The plain odds selections. */
  selections: NewSelection[];
  /** The bet builders (none: a bet of plain odds only). */
  builders?: readonly NewBuilder[];
}

/** Inserts a bet in `hold_requested` with its selections; returns it as stored. */
export async function insertBet(tx: Executor, b: NewBet): Promise<Bet> {
  return (await insertBets(tx, [b]))[0] as Bet;
}

/**
 * The insert of placed bets: the batch goes as one JSON document of rows (one text whatever the number of bets,
 * prepared once; serialized by `JSON.stringify`, not value by value).
 */
const INSERT_BETS = `
  INSERT INTO bet (id, white_label_id, player_id, currency, bet_type, system_sizes, stake, odds_strategy, total_odds,
    state, foreign_params, created_at, base_odds, freebet_id, insurance_id, boost_id, session_token_hash, client_key,
    placement_deadline, place_request_id)
  SELECT id, white_label_id, player_id, currency, bet_type, system_sizes, stake, odds_strategy, total_odds,
    state, foreign_params, created_at, base_odds, freebet_id, insurance_id, boost_id, session_token_hash, client_key,
    placement_deadline, place_request_id
  FROM jsonb_to_recordset($1::jsonb) AS v(id uuid, white_label_id text, player_id text, currency text, bet_type text,
    system_sizes jsonb, stake numeric, odds_strategy int2, total_odds numeric, state text, foreign_params jsonb,
    created_at timestamptz, base_odds numeric, freebet_id text, insurance_id text, boost_id text,
    session_token_hash text, client_key text, placement_deadline timestamptz, place_request_id uuid)
  RETURNING id, stake, base_odds, total_odds, foreign_params, updated_at`;

/**
 * What {@link INSERT_BETS} reads back of each bet: what the database keeps in a form other than the one written
 * (numerics at their column's scale, jsonb's key order) and the time of the transaction; the rest of the row is
 * what was written and the columns' defaults.
 */
type InsertedBet = Pick<
  BetRow,
  'id' | 'stake' | 'base_odds' | 'total_odds' | 'foreign_params' | 'updated_at'
>;

/**
 * Inserts selection rows (one statement, one text); returns them as stored: the columns written, those the database
 * fills by default, and what it keeps in another form than written (odds at 12 decimals, jsonb's key order) as read
 * back by {@link INSERT_SELECTIONS_RETURNING}.
 */
async function insertSelections(
  tx: Executor,
  rows: ReturnType<typeof selectionRows>['selections'],
): Promise<SelectionRow[]> {
  if (rows.length === 0) return [];
  const stored = (
    await tx.executeQuery<InsertedSelection>(
      CompiledQuery.raw(INSERT_SELECTIONS_RETURNING, [JSON.stringify(rows)]),
    )
  ).rows;
  const byKey = new Map<string, InsertedSelection>();
  for (const r of stored) byKey.set(`${r.bet_id}/${r.idx}`, r);
  return rows.map((r) => {
    const back = byKey.get(`${r.bet_id}/${r.idx}`) as InsertedSelection;
    return {
      bet_id: r.bet_id,
      idx: r.idx,
      sport_event_id: r.sport_event_id,
      market_id: r.market_id,
      odd_id: r.odd_id,
      requested_odds: back.requested_odds,
      odds: back.odds,
      status: 0,
      dead_heat: null,
      status_reason: '',
      odd_updated_at: r.odd_updated_at,
      match_status: r.match_status,
      event_info: back.event_info,
      result_source: r.result_source,
      foreign_id: r.foreign_id,
      names: back.names,
      builder: r.builder,
    };
  });
}

/**
 * Inserts bets in `hold_requested` with their selections — one statement per table, whatever the number of bets —
 * and returns them as stored, in the order given.
 */
export async function insertBets(tx: Executor, bets: readonly NewBet[]): Promise<Bet[]> {
  if (bets.length === 0) return [];
  checkCreation('frame', INITIAL_BET_STATE);
  // every placed bet starts in core's initial state; the JSON columns as values (the document is serialized once, whole)
  const values = bets.map((b) => ({
    id: b.id,
    white_label_id: b.whiteLabelId,
    player_id: b.playerId,
    currency: b.currency,
    bet_type: b.betType,
    system_sizes: b.systemSizes,
    stake: b.stake,
    odds_strategy: b.oddsStrategy,
    total_odds: b.totalOdds,
    state: INITIAL_BET_STATE,
    foreign_params: b.foreignParams,
    created_at: b.createdAt,
    base_odds: b.baseOdds,
    freebet_id: b.freebetId,
    insurance_id: b.insuranceId,
    boost_id: b.boostId,
    session_token_hash: b.sessionTokenHash,
    client_key: b.clientKey,
    placement_deadline: b.placementDeadline,
    place_request_id: b.placeRequestId ?? null,
  }));
  // the bets' insert is sent with the selections' (one round trip): its rows are read once both are answered
  const sent = await sendQuery<InsertedBet>(tx, CompiledQuery.raw(INSERT_BETS, [JSON.stringify(values)]));
  const parts = bets.map((b) => selectionRows(b.id, b.selections, b.builders ?? []));
  const selections = await insertSelections(
    tx,
    parts.flatMap((p) => p.selections),
  );
  const byId = new Map<string, InsertedBet>();
  for (const r of await sent.rows) byId.set(r.id, r);
  // the bets as stored: what was written, what the database keeps in its own form, and the columns' defaults
  const rows: BetRow[] = bets.map((b, i) => {
    const v = values[i] as (typeof values)[number];
    const back = byId.get(b.id) as InsertedBet;
    return {
      id: b.id,
      white_label_id: v.white_label_id,
      player_id: v.player_id,
      currency: v.currency,
      bet_type: v.bet_type,
      system_sizes: v.system_sizes,
      stake: back.stake,
      odds_strategy: v.odds_strategy,
      base_odds: back.base_odds,
      total_odds: back.total_odds,
      state: v.state,
      restrictions: [],
      freebet_id: v.freebet_id,
      insurance_id: v.insurance_id,
      boost_id: v.boost_id,
      boost_multiplier: null,
      foreign_params: back.foreign_params,
      session_token_hash: v.session_token_hash,
      client_key: v.client_key,
      created_at: v.created_at,
      placement_deadline: v.placement_deadline,
      decided_at: null,
      payout: null,
      settle_amount: null,
      settle_type: null,
      settled_at: null,
      settlement_seq: 0,
      updated_at: back.updated_at,
      settle_status: null,
      source: 'frame',
      partner_bet_id: null,
      client_ip: null,
      country_code: null,
      foreign_cashed_out: ZERO_MONEY,
      cashed_out_stake: ZERO_MONEY,
      cashed_out_refund: ZERO_MONEY,
      place_request_id: v.place_request_id,
    };
  });
  return withSelections(tx, rows, parts, selections);
}

/** A selection of a reported bet as stored: a platform one, or a foreign one (`foreignId`). */
export interface ReportedSelectionRow extends Omit<NewSelection, 'names'> {
  foreignId: string | null;
}

/** A bet the partner reported (`POST /bets`), to insert. */
export interface ReportedBetRow extends NewBetCommon {
  partnerBetId: string;
  /** The state its decision leads to: a reported bet is created decided (core's table of creations). */
  state: 'accepted' | 'declined';
  /** The decision's restrictions (none for an accepted bet). */
  restrictions: readonly Restriction[];
  clientIp: string | null;
  countryCode: string | null;
  decidedAt: Date;
  selections: readonly ReportedSelectionRow[];
  /** The bet builders (none: a bet of plain and foreign odds only). */
  builders?: readonly NewBuilder[];
}

/**
 * The insert of reported bets: one text whatever their number (the rows as one JSON parameter, which the client
 * serialises natively and no array literal escapes), compiled once here and prepared once per connection; it returns
 * nothing (the caller knows what it wrote). An accepted bet's leg exposures are written before it: the insert's
 * statement trigger adds them to its outcomes' exposure (migration 0032).
 */
const INSERT_REPORTED_BETS = `INSERT INTO bet (id, white_label_id, player_id, currency, bet_type, system_sizes, stake,
    odds_strategy, base_odds, total_odds, state, restrictions, foreign_params, created_at, placement_deadline,
    decided_at, source, partner_bet_id, client_ip, country_code)
  SELECT v.id, v.white_label_id, v.player_id, v.currency, v.bet_type, v.system_sizes, v.stake, v.odds_strategy,
    v.total_odds, v.total_odds, v.state, v.restrictions, v.foreign_params, v.created_at, v.decided_at, v.decided_at,
    'mts', v.partner_bet_id, v.client_ip, v.country_code
  FROM jsonb_to_recordset($1::jsonb) AS v(id uuid, white_label_id text, player_id text, currency text, bet_type text,
    system_sizes jsonb, stake numeric, odds_strategy int2, total_odds numeric, state text, restrictions jsonb,
    foreign_params jsonb, created_at timestamptz, decided_at timestamptz, partner_bet_id text, client_ip text,
    country_code text)`;

/** The insert of new bets' selections, as {@link INSERT_REPORTED_BETS}: one text, one JSON parameter, no rows returned. */
const INSERT_SELECTIONS = `INSERT INTO bet_selection (bet_id, idx, sport_event_id, market_id, odd_id, requested_odds,
    odds, odd_updated_at, match_status, event_info, names, builder, foreign_id, result_source)
  SELECT v.bet_id, v.idx, v.sport_event_id, v.market_id, v.odd_id, v.requested_odds, v.odds, v.odd_updated_at,
    v.match_status, v.event_info, v.names, v.builder, v.foreign_id, v.result_source
  FROM jsonb_to_recordset($1::jsonb) AS v(bet_id uuid, idx int2, sport_event_id text, market_id text, odd_id text,
    requested_odds numeric, odds numeric, odd_updated_at timestamptz, match_status int2, event_info jsonb,
    names jsonb, builder int2, foreign_id text, result_source text)`;

/**
 * {@link INSERT_SELECTIONS} returning what the database keeps in another form than written (placement's bets are
 * answered from the rows as stored): the odds at the column's scale, the jsonb columns in jsonb's key order.
 */
const INSERT_SELECTIONS_RETURNING = `${INSERT_SELECTIONS} RETURNING bet_id, idx, requested_odds, odds, event_info, names`;

/** What {@link INSERT_SELECTIONS_RETURNING} reads back of each selection. */
type InsertedSelection = Pick<
  SelectionRow,
  'bet_id' | 'idx' | 'requested_odds' | 'odds' | 'event_info' | 'names'
>;

/** A money column's default (`numeric(30, 6) DEFAULT 0`), as the column reads. */
const ZERO_MONEY = '0.000000';

/**
 * Inserts reported bets (source `mts`), each created in its decided state (checked against core's table of
 * creations), with their selections (foreign ones are resulted by the partner only), one statement per table; no
 * row is read back. Returns the bets as stored, in the order given, built from what was written: the columns the
 * partner bet object shows (restrictions in the key order jsonb keeps, so an answer reads as the stored bet does; the
 * settlement columns empty, as a new bet's are) and the selections with the columns the database fills by default.
 */
export async function insertReportedBets(
  tx: Executor,
  bets: readonly ReportedBetRow[],
): Promise<PartnerBetSource[]> {
  if (bets.length === 0) return [];
  const n = bets.length;
  const rows: PartnerBetRow[] = new Array(n);
  // the insert's parameter: times as text (JSON writes a Date through its toJSON, off the serializer's fast path)
  const params: object[] = new Array(n);
  const parts: Array<ReturnType<typeof selectionRows>> = new Array(n);
  const written: ReturnType<typeof selectionRows>['selections'] = [];
  for (let i = 0; i < n; i++) {
    const b = bets[i] as ReportedBetRow;
    checkCreation('mts', b.state);
    const restrictions = b.restrictions.length === 0 ? [] : inJsonbKeyOrder([...b.restrictions]);
    rows[i] = {
      id: b.id,
      partner_bet_id: b.partnerBetId,
      player_id: b.playerId,
      source: 'mts',
      state: b.state,
      settle_type: null,
      settle_status: null,
      bet_type: b.betType,
      system_sizes: b.systemSizes,
      stake: b.stake,
      currency: b.currency,
      total_odds: b.totalOdds,
      client_ip: b.clientIp,
      country_code: b.countryCode,
      restrictions,
      created_at: b.createdAt,
      decided_at: b.decidedAt,
      payout: null,
      settle_amount: null,
      settled_at: null,
    };
    params[i] = {
      id: b.id,
      white_label_id: b.whiteLabelId,
      player_id: b.playerId,
      currency: b.currency,
      bet_type: b.betType,
      system_sizes: b.systemSizes,
      stake: b.stake,
      odds_strategy: b.oddsStrategy,
      total_odds: b.totalOdds,
      state: b.state,
      restrictions,
      foreign_params: b.foreignParams,
      created_at: b.createdAt.toISOString(),
      decided_at: b.decidedAt.toISOString(),
      partner_bet_id: b.partnerBetId,
      client_ip: b.clientIp,
      country_code: b.countryCode,
    };
    const p = selectionRows(b.id, b.selections, b.builders ?? []);
    parts[i] = p;
    for (const r of p.selections) written.push(r);
  }
  await sendWrite(tx, CompiledQuery.raw(INSERT_REPORTED_BETS, [JSON.stringify(params)]));
  if (written.length > 0) {
    await sendWrite(
      tx,
      CompiledQuery.raw(INSERT_SELECTIONS, [
        JSON.stringify(written.map((r) => ({ ...r, odd_updated_at: r.odd_updated_at.toISOString() }))),
      ]),
    );
  }
  // the selections as stored: the columns written, and those the database fills by default
  const selections: SelectionRow[] = written.map((r) => ({
    ...r,
    status: 0,
    dead_heat: null,
    status_reason: '',
  }));
  return withSelections(tx, rows, parts, selections);
}

/**
 * Writes the combined odds builders were accepted at and the model's probabilities of the price they were decided
 * on, in one statement; returns the updated builders.
 */
export async function setAcceptedBuilderOdds(
  tx: Executor,
  items: ReadonlyArray<{
    betId: string;
    builder: number;
    odds: string;
    probability: string;
    refundProbability: string;
  }>,
): Promise<BuilderRow[]> {
  if (items.length === 0) return [];
  const res = await sql<BuilderRow>`
    UPDATE bet_builder b SET odds = v.odds, probability = v.probability, refund_probability = v.refund_probability
    FROM unnest(${items.map((i) => i.betId)}::uuid[], ${items.map((i) => i.builder)}::int2[],
      ${items.map((i) => i.odds)}::numeric[], ${items.map((i) => i.probability)}::numeric[],
      ${items.map((i) => i.refundProbability)}::numeric[]) AS v(bet_id, builder, odds, probability, refund_probability)
    WHERE b.bet_id = v.bet_id AND b.builder = v.builder
    RETURNING b.*`.execute(tx);
  return res.rows;
}

/** The write of accepted odds: one text whatever the count (arrays), prepared once; nothing read back. */
const SET_ACCEPTED_ODDS = `
  UPDATE bet_selection s SET odds = v.odds
  FROM unnest($1::uuid[], $2::int2[], $3::numeric[]) AS v(bet_id, idx, odds)
  WHERE s.bet_id = v.bet_id AND s.idx = v.idx`;

/**
 * Writes the odds selections were accepted at (decimal strings with 12 decimals, as the column keeps them), in one
 * statement; returns the given selections with their new odds.
 */
export async function setAcceptedOdds(
  tx: Executor,
  items: ReadonlyArray<{ selection: SelectionRow; odds: string }>,
): Promise<SelectionRow[]> {
  if (items.length === 0) return [];
  await tx.executeQuery(
    CompiledQuery.raw(SET_ACCEPTED_ODDS, [
      items.map((i) => i.selection.bet_id),
      items.map((i) => i.selection.idx),
      items.map((i) => i.odds),
    ]),
  );
  return items.map((i) => ({ ...i.selection, odds: i.odds }));
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

/**
 * Inserted bets with their selections as written (in `parts`' order: each bet's selections, in idx order) and their
 * builders, inserted here; a batch without builders is answered without regrouping.
 */
async function withSelections<R extends Pick<BetRow, 'id'>>(
  tx: Executor,
  rows: readonly R[],
  parts: ReadonlyArray<{
    selections: readonly unknown[];
    builders: ReturnType<typeof selectionRows>['builders'];
  }>,
  selections: SelectionRow[],
) {
  const builderRows = parts.flatMap((p) => p.builders);
  if (builderRows.length === 0) {
    let at = 0;
    return rows.map((row, i) => {
      const n = (parts[i] as (typeof parts)[number]).selections.length;
      at += n;
      return { row, selections: selections.slice(at - n, at), builders: [] };
    });
  }
  return assemble(
    rows.map((r) => r.id),
    rows,
    selections,
    await insertBuilders(tx, builderRows),
  );
}
