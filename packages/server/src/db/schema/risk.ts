import type { ColumnType } from 'kysely';

/** Live or prematch (D34, D37, D38). */
export type RiskPhase = 'live' | 'prematch';

/** An outcome as the risk tables key it: the odd of a market of a sport event, and the market's type. */
export interface RiskOutcomeColumns {
  sport_event_id: string;
  market_id: string;
  odd_id: string;
  market_type_id: string;
}

/** The exposure of an outcome in one white label and phase, EUR; numeric read as strings. */
export interface ExposureColumns extends RiskOutcomeColumns {
  white_label_id: string;
  phase: RiskPhase;
  amount: string;
}

/** The exposure one leg of an accepted bet adds to its outcome (D37), EUR; numeric read as strings. */
export interface BetExposureTable extends ExposureColumns {
  bet_id: string;
  idx: number;
  eur_rate: string;
}

/** Exposure per outcome (D37): Σ bet_exposure of the open bets, kept by a trigger on bet state changes. */
export interface RiskExposureTable extends ExposureColumns {
  /** The largest exposure the outcome has had. */
  max_amount: ColumnType<string, string | undefined, string>;
}

/** A liability limit per outcome (D38), per white label and market type (`*` = any), EUR. */
export interface RiskLimitTable {
  white_label_id: string;
  market_type_id: string;
  phase: RiskPhase;
  liability_eur: string;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** A risk group (D38). */
export interface RiskGroupTable {
  name: string;
  stake_factor: string;
  max_payout_eur: string | null;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** A player's risk group and the closing-line values behind the score (D38, D40). */
export interface PlayerRiskTable {
  white_label_id: string;
  player_id: string;
  group_name: string;
  group_source: 'default' | 'recommended' | 'partner' | 'operator';
  clv_sum: ColumnType<string, string | undefined, string>;
  clv_count: ColumnType<number, number | undefined, number>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** The closing price of an odd (D40): its value just before the sport event started. */
export interface RiskClosingOddsTable {
  sport_event_id: string;
  market_id: string;
  odd_id: string;
  odds: string;
}

/** A shaded outcome (D39): the base odds trading set and the shaded value last published. */
export interface RiskShadingTable {
  sport_event_id: string;
  market_id: string;
  odd_id: string;
  base_odds: string;
  shaded_odds: string;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** What shading did to one outcome: publications of lowered odds, the lowest published, the base lowered from. */
export interface RiskShadingHistoryTable extends RiskOutcomeColumns {
  base_odds: string;
  lowest_odds: string;
  publications: number;
  last_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** A bet delay level (D34), seconds. */
export interface RiskDelayTable {
  level: 'sport_event' | 'market_type' | 'risk_group';
  key: string;
  phase: RiskPhase;
  seconds: string;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}
