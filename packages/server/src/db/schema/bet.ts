import type { SelectionNames } from '@bookie/contracts';
import type { BetState } from '@bookie/core';
import type { ColumnType } from 'kysely';
import type { ResultSource } from './settlement.js';

/** Internal named states of a bet: core's bet life cycle (docs/adr/0038-bet-owner.md); codes are mapped at the edge. */
export type { BetState };

/** A bet. Money columns are numeric, read as exact strings; odds numeric with 12 decimals. */
export interface BetTable {
  id: string;
  white_label_id: string;
  player_id: string;
  currency: string;
  bet_type: 'single' | 'express' | 'system';
  /** JSON array of sizes (system only; `[]` otherwise). */
  system_sizes: ColumnType<number[], string, string>;
  stake: string;
  odds_strategy: number;
  base_odds: string;
  total_odds: string;
  state: BetState;
  restrictions: ColumnType<unknown[], string | undefined, string>;
  freebet_id: string | null;
  insurance_id: string | null;
  boost_id: string | null;
  /** The boost multiplier of a boosted bet (docs/adr/0009-bonuses.md); null without a boost. */
  boost_multiplier: ColumnType<string | null, string | null | undefined, string | null>;
  foreign_params: ColumnType<Record<string, unknown>, string | undefined, string>;
  session_token_hash: string | null;
  client_key: string | null;
  created_at: ColumnType<Date, Date | string, Date | string>;
  placement_deadline: ColumnType<Date, Date | string, Date | string>;
  decided_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  payout: string | null;
  settle_amount: string | null;
  settle_type: number | null;
  settled_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  settlement_seq: ColumnType<number, number | undefined, number>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** D6 code of a settled bet: 3 settled, 5 refunded (every leg void), 6 refunded manually; null otherwise. */
  settle_status: ColumnType<number | null, number | null | undefined, number | null>;
  /** Who reported the bet: `frame` (placed through the frame) or `mts` (reported by the partner, POST /bets). */
  source: ColumnType<'frame' | 'mts', 'frame' | 'mts' | undefined, 'frame' | 'mts'>;
  /** The partner's own bet id of an MTS bet (its `{bet_id}`); null for frame bets. */
  partner_bet_id: ColumnType<string | null, string | null | undefined, string | null>;
  client_ip: ColumnType<string | null, string | null | undefined, string | null>;
  country_code: ColumnType<string | null, string | null | undefined, string | null>;
  /** Σ amount of the partner's accepted foreign cash-out orders (MTS); settlement pays on the stake left. */
  foreign_cashed_out: ColumnType<string, string | undefined, string>;
  /** Σ amount of the bet's accepted cash-out orders: the stake settlement pays on is `stake − cashed_out_stake`. */
  cashed_out_stake: ColumnType<string, string | undefined, string>;
  /** Σ refund_amount of the same orders: what the player received for them. */
  cashed_out_refund: ColumnType<string, string | undefined, string>;
  /** The request_id of the bet's `/bet/place` (frame bets); null for reported bets and bets placed before it. */
  place_request_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** The key cash-out quotes are signed with (one row). */
export interface CashOutKeyTable {
  id: number;
  secret: string;
}

/**
 * A cash-out order the platform decided (place/cancel). Orders the partner decided itself (foreign cash-out orders)
 * live in `mts_foreign_cash_out_order`; `source` is always `platform` (the column's `foreign` value is never written).
 */
export interface CashOutOrderTable {
  bet_id: string;
  id: string;
  source: 'platform';
  amount: string;
  refund_amount: string;
  status: 'pending' | 'accepted' | 'declined';
  reason: ColumnType<string, string | undefined, string>;
  quote_id: string | null;
  created_at: ColumnType<Date, Date | string, Date | string>;
  decided_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** A white label's own cash-out margin (a fraction in [0, 1)). */
export interface CashOutMarginTable {
  white_label_id: string;
  margin: string;
}

/** A selection (leg) of a bet. */
export interface BetSelectionTable {
  bet_id: string;
  idx: number;
  sport_event_id: string;
  market_id: string;
  odd_id: string;
  requested_odds: string;
  odds: string;
  status: ColumnType<number, number | undefined, number>;
  dead_heat: string | null;
  status_reason: ColumnType<string, string | undefined, string>;
  odd_updated_at: ColumnType<Date, Date | string, Date | string>;
  match_status: number;
  /** Sport event facts captured at placement (competitors, tournament, start time, state…). */
  event_info: ColumnType<Record<string, unknown>, string, string>;
  /** Where the result comes from: the feed, a bet_rollback, or an operator (the feed never overrides the others). */
  result_source: ColumnType<ResultSource, ResultSource | undefined, ResultSource>;
  /** The partner's id of a foreign selection (MTS mixed combo): its result comes from the partner; null otherwise. */
  foreign_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** What the selection was called at placement (event, market, outcome names and their templates); null before. */
  names: ColumnType<SelectionNames | null, string | null | undefined, string | null>;
  /**
   * The index of the bet builder (`bet_builder.builder`) this row is an inner leg of; null for a plain odds selection.
   * An inner leg's `odds` are the feed's odds at placement (information: the builder is priced as a whole).
   */
  builder: ColumnType<number | null, number | null | undefined, number | null>;
}

/**
 * A bet builder of a bet (docs/adr/0043-bet-builder-bets.md): one selection made of inner legs on one sport event
 * (`bet_selection` rows carrying this `builder` index), at one combined odds value. Result columns as a selection's.
 */
export interface BetBuilderTable {
  bet_id: string;
  /** The builder's index within its bet (0, 1, …). */
  builder: number;
  sport_event_id: string;
  /** The combined odds the player saw. */
  requested_odds: string;
  /** The combined odds accepted (the odds strategy applied to the repriced builder). */
  odds: string;
  /** The model's probability that every inner leg wins, at placement (12 decimals, rounded). */
  probability: string;
  /** The model's probability that no inner leg loses and some is refunded (the builder is then refunded whole). */
  refund_probability: ColumnType<string, string | undefined, string>;
  /** The white label's builder margin the builder was priced with. */
  margin: string;
  status: ColumnType<number, number | undefined, number>;
  dead_heat: string | null;
  status_reason: ColumnType<string, string | undefined, string>;
  result_source: ColumnType<ResultSource, ResultSource | undefined, ResultSource>;
}

/**
 * How far the recovery of interrupted placements has looked (one row, id 1): every bet whose placement deadline is
 * before `through` was found decided, or force-declined, by a run of the recovery.
 */
export interface PlacementRecoveryMarkTable {
  id: number;
  through: ColumnType<Date, Date | string, Date | string>;
}

/** Last accepted bet of a player on a sport event (bet_interval restriction). */
export interface PlayerEventBetTable {
  white_label_id: string;
  player_id: string;
  sport_event_id: string;
  last_bet_at: ColumnType<Date, Date | string, Date | string>;
}
