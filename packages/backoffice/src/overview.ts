/** The operator home's figures as `GET /admin/overview` answers them (see @bookie/contracts OperatorOverview). */
export interface Figures {
  currency: string;
  bets_placed: number;
  bets_accepted: number;
  bets_declined: number;
  turnover: string;
  settled_stake: string;
  settle_amount: string;
  ggr: string;
  margin: string | null;
}
export interface ExposureItem {
  white_label_id: string;
  sport_event_id: string;
  market_id: string;
  odd_id: string;
  phase: string;
  market_type_id: string;
  exposure_eur: string;
  max_exposure_eur?: string;
  limit_eur: string | null;
}
export interface Overview {
  from: string;
  to: string;
  generated_at: string;
  white_labels: Array<{ id: string; name: string }>;
  totals: Figures[];
  by_white_label: Array<{ white_label_id: string; figures: Figures[] }>;
  days: Array<{ day: string; figures: Figures[] }>;
  liability: { total_eur: string; outcomes: number; largest: ExposureItem[] };
  callbacks_failing: Array<{ white_label_id: string; failing: number; oldest_at: string | null }>;
  settlement: {
    head: string;
    processed: string;
    lag_entries: string;
    last_entry_at: string | null;
    quarantined: number;
  };
  unsupported_callbacks: Array<{ white_label_id: string; callback: string }>;
}

/** A UTC day `YYYY-MM-DD` `n` days from today. */
export const utcDay = (n = 0) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
