/** The replay report's shape: what a replay found, and everything it is built from. */
import type { BetView } from '@bookie/contracts';
import type { BetKind } from './bettors.js';
import type { BuilderCalibration } from './builder-calibration.js';
import type { MarketKind, ParsedSeason } from './football-data.js';
import type { InPlayReport } from './in-play-report.js';
import type { BetOutcome, CashOutOutcome } from './outcomes.js';
import type { ReportedBetsReport } from './reported-bets.js';
import type { RiskReport } from './risk-report.js';
import type { SeasonScript } from './season-script.js';

/** Stakes and payouts of one group of settled bets. */
export interface MarketLine {
  /** `1x2`, `total`, `asian_handicap` (singles), `express`, `system`, or `all`. */
  market: string;
  bets: number;
  stakes: string;
  payouts: string;
  /** Gross gaming revenue: stakes − payouts. */
  ggr: string;
  /** GGR / stakes, in percent with 2 decimals ("4.87"); null without stakes. */
  margin_pct: string | null;
}

/** The reconciliation of the wallet (the partner's money) against Bookie's bets and callbacks. */
export interface Reconciliation {
  ok: boolean;
  /** Each player's wallet balance = deposits − captured stakes + settled payouts, per Bookie's bets. */
  wallet_balances_match: boolean;
  /**
   * Per bet, the wallet's capture = the accepted stake and its credits − debits = Bookie's settle amount, every
   * movement in the bet's currency.
   */
  wallet_ledger_matches_bets: boolean;
  /** No money held at the wallet (every /bet/place ended in accept or decline). */
  no_holds_left: boolean;
  /** Every accepted bet is settled. */
  every_accepted_bet_settled: boolean;
  /** Bookie's own report: no ledger mismatch, nothing open; its totals equal the bets'. */
  bookie_report_ok: boolean;
  /** The wallet's own invariant (`/admin/ledger/check`). */
  wallet_invariant_ok: boolean;
  /** No callback waiting in Bookie's outbox. */
  outbox_drained: boolean;
  players: number;
  deposits: string;
  wallet_available: string;
  wallet_held: string;
  /** Σ accepted stakes and Σ settle amounts from Bookie's bets. */
  stakes_accepted: string;
  settled_payouts: string;
  /**
   * In play: each cash-out the replay saw accepted was paid once — the wallet's `cash_out` credits of the bet, and
   * the refund amounts of Bookie's delivered `/bet/cash-out-orders/accepted` callbacks, each equal Σ accepted orders.
   */
  cash_outs_match?: boolean;
  /** Σ refund amounts of the accepted cash-out orders (in play). */
  cash_out_paid?: string;
  /** Bookie's reconciliation report (`/admin/reports/reconcile`). */
  bookie: { stakes_accepted: string; net_payout: string; open_bets: number; ledger_mismatches: number };
  /** The first problems found (at most 20). */
  problems: string[];
}

/** The replay report. */
export interface ReplayReport {
  /** The risk engine's section, when the replay configured liability limits (`--risk-limit`). */
  risk?: RiskReport;
  seed: string;
  seasons: { file: string; league: string; season: string; matches: number }[];
  fixtures: {
    matches: number;
    markets: Record<MarketKind, number>;
    skipped_markets: number;
    /** How many odds ended with each status (1 win … 5 refunded), over every market of the season(s). */
    odd_statuses: Record<string, number>;
  };
  bets: {
    planned: number;
    placed: number;
    accepted: number;
    declined: number;
    place_errors: number;
    force_declined: number;
    /** Requests refused without a bet (or not sent). */
    not_placed: number;
    by_type: Record<BetKind, number>;
    /** Declined and place-error bets by restriction type (a bet may have several). */
    declined_by_restriction: Record<string, number>;
  };
  settled: {
    bets: number;
    /** D3 settle types: win (1), refund (2), lost (3). */
    by_settle_type: { win: number; refund: number; lost: number };
    /** Odd statuses of the selections of settled bets. */
    selection_statuses: Record<string, number>;
  };
  markets: MarketLine[];
  currency: string;
  reconciliation: Reconciliation;
  /**
   * The bet builder's score model against the replayed matches: fitted to each match's odds at kick-off, its mean
   * probability of common 2–3-leg combinations beside their hit rate on the real scores.
   */
  builder_calibration: BuilderCalibration;
  /** The bets the other white labels reported (risk decision and advice), when the replay ran them. */
  reported?: ReportedBetsReport;
  /** The in-play phase, when the replay ran it (`--in-play`). */
  in_play?: InPlayReport;
  timing: {
    elapsed_s: number;
    trading_commands: number;
    bets_per_s: number;
    /** From the first trading command to the last bet settled (and its callbacks delivered). */
    replay_s: number;
    /** From the first trading command to the last one (bets included), before waiting for settlement. */
    timeline_s: number;
  };
}

/** Everything the report is made of. */
export interface ReportInput {
  seed: string;
  currency: string;
  seasons: readonly ParsedSeason[];
  script: SeasonScript;
  outcomes: readonly BetOutcome[];
  /** Final state of every bet (by id), read after settlement. */
  finalBets: ReadonlyMap<string, BetView>;
  /** Deposits made per player (decimal strings). */
  deposits: ReadonlyMap<string, string[]>;
  wallet: ReadonlyMap<
    string,
    {
      available: string;
      held: string;
      ledger: { kind: string; reason: string; amount: string; bet_id: string | null; currency?: string }[];
    }
  >;
  walletInvariantOk: boolean;
  bookie: { stakes_accepted: string; net_payout: string; open_bets: number; ledger_mismatches: number };
  pendingCallbacks: number;
  timing: ReplayReport['timing'];
  /** The in-play phase: the cash-outs and Bookie's cash-out callbacks per bet (live bets are in `outcomes`). */
  inPlay?: {
    cashOuts: readonly CashOutOutcome[];
    cashOutCallbacks: ReadonlyMap<string, readonly { status: string; refund_amount: string }[]>;
    commands: number;
    matches?: number;
  };
}
