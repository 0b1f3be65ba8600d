import type { BetView, FramePlayerBonus, SportEvent } from '@bookie/contracts';
import { isOddsFormat, type OddsFormat } from '@bookie/core/odds-format';
import type { FrameBanner, FrameOptions, Palette } from '../types.js';

/** A selection in the bet slip: the odd and the odds the player saw (decimal string). */
export interface SlipSelection {
  sportEventId: string;
  marketId: string;
  oddId: string;
  odds: string;
}

export type Route = 'prematch' | 'live' | 'history';

/** Where the player is in the book: a sport, a tournament of it, one event's page, a search. */
export interface Nav {
  sport: string | undefined;
  tournament: string | undefined;
  eventId: string | undefined;
  query: string;
}

/** The history's filters: which bets, and how far back (days; 0 = all). */
export interface HistoryFilter {
  show: 'all' | 'open' | 'settled' | 'declined';
  days: 0 | 1 | 7 | 30;
}
export type BetType = 'single' | 'express' | 'system';

/** The result of the last placement: the bets (accepted or declined), or an error message. */
export type PlaceResult = { bets: BetView[] } | { error: string };

/** Everything the frame shows. */
export interface FrameState {
  locale: string;
  currency: string;
  oddsFormat: OddsFormat;
  palette: Palette;
  route: Route;
  events: Record<string, SportEvent>;
  eventsLoaded: boolean;
  /** Odd ids whose odds just moved, with the direction, for a short highlight. */
  moved: Record<string, 'up' | 'down'>;
  slip: {
    selections: SlipSelection[];
    type: BetType;
    sizes: number[];
    stake: string;
    strategy: 1 | 2 | 3;
    bonusId: string;
  };
  bonuses: FramePlayerBonus[];
  banners: FrameBanner[];
  history: BetView[];
  placing: boolean;
  result: PlaceResult | undefined;
  sessionEnded: boolean;
  offline: boolean;
  nav: Nav;
  /** The largest stake the slip can place now (GET /frame-api/restrictions), a decimal string; undefined unknown. */
  maxBet: string | undefined;
  /** The last announcement for screen readers (accepted, declined, odds changed). */
  announce: string;
  /** On a narrow screen: whether the bet slip's bottom sheet is open. */
  sheetOpen: boolean;
  /** Quick bet (the host switches it on): the stake one tap places, after a confirmation; undefined off. */
  quickBet: string | undefined;
  /** The selection a quick bet waits to be confirmed for. */
  quick: SlipSelection | undefined;
  historyFilter: HistoryFilter;
  /** This page's origin when Bookie says it is not allowed for the session's white label: the frame stops. */
  blocked: string | undefined;
}

const STRATEGY_KEY = 'bookie.frame.strategy';

function savedStrategy(): 1 | 2 | 3 {
  try {
    const v = Number(localStorage.getItem(STRATEGY_KEY));
    return v === 1 || v === 2 || v === 3 ? v : 1;
  } catch {
    return 1;
  }
}

/** Keeps the player's odds-change strategy for the next visit. */
export function saveStrategy(strategy: 1 | 2 | 3): void {
  try {
    localStorage.setItem(STRATEGY_KEY, String(strategy));
  } catch {
    // storage may be off in the host's iframe policy: the setting then lasts for this page
  }
}

/** The frame's state before anything is loaded: the host's options, the book's first screen and an empty slip. */
export function initialState(options: FrameOptions): FrameState {
  return {
    locale: options.locale ?? 'en',
    currency: options.currency ?? 'EUR',
    oddsFormat: isOddsFormat(options.oddsFormat) ? options.oddsFormat : 'decimal',
    palette: options.palette ?? {},
    route: 'prematch',
    events: {},
    eventsLoaded: false,
    moved: {},
    slip: { selections: [], type: 'single', sizes: [2], stake: '', strategy: savedStrategy(), bonusId: '' },
    bonuses: [],
    banners: [],
    history: [],
    placing: false,
    result: undefined,
    sessionEnded: false,
    offline: false,
    blocked: undefined,
    nav: { sport: undefined, tournament: undefined, eventId: undefined, query: '' },
    maxBet: undefined,
    announce: '',
    sheetOpen: false,
    quickBet: options.quickBet,
    quick: undefined,
    historyFilter: { show: 'all', days: 0 },
  };
}
