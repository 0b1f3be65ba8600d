/** The audit lines of `--bets-out`: one JSON object per placed bet, with what it was on and how it ended. */
import type { BetView } from '@bookie/contracts';
import type { BetKind } from './bettors.js';
import type { MarketKind } from './football-data.js';
import { LINE_SPECIFIER, marketKindOf } from './markets.js';
import type { ScriptMatch } from './season-script.js';

/** One line of `--bets-out`. */
export interface BetsOutLine {
  bet_id: string;
  player_id: string;
  bet_type: BetKind;
  system_sizes: number[];
  stake: string;
  currency: string;
  /** D6 bet status: 1 accepted, 2 declined, 3 settled, 4 unsettled, 10 place error, 11 force declined. */
  status: number;
  state: string;
  settle_amount: string | null;
  /** D3: 1 win, 2 refund, 3 lost; null unless settled. */
  settle_type: number | null;
  /** Restriction types of a declined bet. */
  restrictions: string[];
  selections: {
    sport_event_id: string;
    /** Match date, UK local (`YYYY-MM-DD`), as in the CSV. */
    date: string;
    home: string;
    away: string;
    market_type: MarketKind;
    /** The total or the home team's handicap as written in the CSV; null for 1X2. */
    line: string | null;
    outcome: string;
    /** Accepted odds (6 decimals). */
    odds: string;
    /** Odd status (spec 02; D4). */
    status: number;
  }[];
}

/** The audit line of a bet (`matches` by sport event id, from the script). */
export function betsOutLine(
  bet: BetView,
  playerId: string,
  matches: ReadonlyMap<string, ScriptMatch>,
): BetsOutLine {
  return {
    bet_id: bet.id,
    player_id: playerId,
    bet_type: bet.bet_type as BetKind,
    system_sizes: bet.system_sizes,
    stake: bet.stake,
    currency: bet.currency,
    status: bet.status,
    state: bet.state,
    settle_amount: bet.settle_amount,
    settle_type: bet.settle_type,
    restrictions: bet.restrictions.map((r) => r.type),
    selections: bet.selections.map((s) => {
      const m = matches.get(s.sport_event_id);
      const market = m?.finalMarkets.find((x) => x.id === s.market_id);
      const kind = market ? marketKindOf(market.type_id) : undefined;
      if (!m || !market || !kind)
        throw new Error(`betsOutLine: unknown selection ${s.sport_event_id}/${s.market_id}`);
      const spec = LINE_SPECIFIER[kind];
      return {
        sport_event_id: s.sport_event_id,
        date: m.row.date,
        home: m.row.home,
        away: m.row.away,
        market_type: kind,
        line: spec === undefined ? null : (market.specifiers[spec] ?? null),
        outcome: s.odd_id,
        odds: s.odds,
        status: s.status,
      };
    }),
  };
}
