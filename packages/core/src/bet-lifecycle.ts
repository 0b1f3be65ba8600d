/**
 * The bet's life cycle (the callback contract, "States and transitions" → "Bet"; docs/adr/0038-bet-owner.md): the
 * named states a bet is stored in, the table of the changes allowed between them (from → to) and, for each change,
 * the callbacks the platform sends the partner with it, and the states a bet may be created in, per how it arrives
 * ({@link BET_CREATIONS}). The server creates a bet only in a state {@link creation} allows and changes its state only
 * through {@link transition}; a pair missing from either table is a bug and is refused.
 *
 * @packageDocumentation
 */
import { DomainError } from './errors.js';

/**
 * The named states of a bet, as stored (the callback contract, "States and transitions" → "Bet"; the bet status
 * numbers are mapped at the edge: 1 accepted, 2 declined, 3/5/6 settled, 4 unsettled, 7 cashed out, 10 place error,
 * 11 force_decline; `hold_requested` shows as 0).
 * - `hold_requested`: formed, `/bet/place` asked the partner to hold the stake (the contract's "hold requested" and
 *   "processing"; a bet the partner reported is never in it: it is created decided);
 * - `accepted`, `declined`, `place_error`, `force_declined`: the decision;
 * - `settled`, `unsettled`: calculated, and a calculation revoked;
 * - `cashed_out`: the whole stake cashed out (Bookie's addition, docs/decisions.md "Cash-out").
 */
export const BET_STATES = [
  'hold_requested',
  'accepted',
  'declined',
  'place_error',
  'force_declined',
  'settled',
  'unsettled',
  'cashed_out',
] as const;

/** A named bet state: one of {@link BET_STATES}. */
export type BetState = (typeof BET_STATES)[number];

/**
 * The state a bet placed through the frame is created in: the decision comes later, by a transition. A bet the partner
 * reports is created in its decided state instead (see {@link BET_CREATIONS}).
 */
export const INITIAL_BET_STATE: BetState = 'hold_requested';

/** A callback path a bet's state change sends (the callback contract, "Endpoints"; Bookie's cash-out callbacks). */
export type BetCallbackPath =
  | '/bet/place'
  | '/bet/accept'
  | '/bet/decline'
  | '/bet/settle'
  | '/bet/unsettle'
  | '/bet/insurances/accepted'
  | '/bet/insurances/decline'
  | '/bet/insurances/cancel'
  | '/bet/cash-out-orders/accepted'
  | '/bet/cash-out-orders/declined';

/** Who brought a bet: the frame (the platform's own flow, with wallet callbacks) or the partner (`POST /bets`). */
export type BetSource = 'frame' | 'mts';

/** One allowed change of a bet's state. */
export interface BetTransition {
  /** The change's name, as the code and the docs call it. */
  readonly name:
    | 'accept'
    | 'decline'
    | 'place_error'
    | 'force_decline'
    | 'settle'
    | 'unsettle'
    | 'cash_out'
    | 'cash_out_given_back'
    | 'withdraw';
  readonly from: BetState;
  readonly to: BetState;
  /** The bets that take this change: placed through the frame, reported by the partner, or both. */
  readonly sources: readonly BetSource[];
  /**
   * The callbacks sent with the change to a frame bet's partner, in order, in the same transaction (the outbox).
   * A bet the partner reported gets only `/bet/settle` and `/bet/unsettle` (and its insurance callbacks): the
   * partner decided the rest itself.
   */
  readonly callbacks: readonly BetCallbackPath[];
  /** Callbacks that follow only when they apply (an insured bet; a cash-out paid through callbacks). */
  readonly when: readonly BetCallbackPath[];
  /** Where the change is specified. */
  readonly rule: string;
}

const PLACEMENT = 'the callback contract, "States and transitions" → "Bet"';

/**
 * The table of allowed bet state changes (from → to), with the callbacks each sends. A recalculation with another
 * result (a resettle) is the path settled → unsettled → settled: `/bet/unsettle` of the last amount, then
 * `/bet/settle` (docs/decisions.md, the full unsettle rule).
 */
export const BET_TRANSITIONS: readonly BetTransition[] = [
  {
    name: 'accept',
    from: 'hold_requested',
    to: 'accepted',
    sources: ['frame'],
    callbacks: ['/bet/accept'],
    when: [],
    rule: `${PLACEMENT}: processing → Accept`,
  },
  {
    name: 'decline',
    from: 'hold_requested',
    to: 'declined',
    sources: ['frame'],
    callbacks: ['/bet/decline'],
    when: [],
    rule: `${PLACEMENT}: processing → Decline`,
  },
  {
    name: 'place_error',
    from: 'hold_requested',
    to: 'place_error',
    sources: ['frame'],
    callbacks: [],
    when: [],
    rule: `${PLACEMENT}: hold requested → Place Error (the partner refused the hold)`,
  },
  {
    name: 'force_decline',
    from: 'hold_requested',
    to: 'force_declined',
    sources: ['frame'],
    callbacks: ['/bet/decline'],
    when: [],
    rule: `${PLACEMENT}: /bet/place retries exhausted → force_decline (11); also a placement a crash interrupted`,
  },
  {
    name: 'settle',
    from: 'accepted',
    to: 'settled',
    sources: ['frame', 'mts'],
    callbacks: ['/bet/settle'],
    when: ['/bet/insurances/accepted', '/bet/insurances/decline'],
    rule: `${PLACEMENT}: Accept → Settle`,
  },
  {
    name: 'settle',
    from: 'unsettled',
    to: 'settled',
    sources: ['frame', 'mts'],
    callbacks: ['/bet/settle'],
    when: ['/bet/insurances/accepted', '/bet/insurances/decline'],
    rule: `${PLACEMENT}: UnSettle → Settle`,
  },
  {
    name: 'unsettle',
    from: 'settled',
    to: 'unsettled',
    sources: ['frame', 'mts'],
    callbacks: ['/bet/unsettle'],
    when: ['/bet/insurances/cancel'],
    rule: `${PLACEMENT}: Settle → UnSettle`,
  },
  {
    name: 'cash_out',
    from: 'accepted',
    to: 'cashed_out',
    sources: ['frame', 'mts'],
    callbacks: [],
    when: ['/bet/cash-out-orders/accepted'],
    rule: 'docs/decisions.md "Cash-out": an order for the whole stake left (the platform\'s or the partner\'s own)',
  },
  {
    name: 'cash_out',
    from: 'unsettled',
    to: 'cashed_out',
    sources: ['frame', 'mts'],
    callbacks: [],
    when: ['/bet/cash-out-orders/accepted'],
    rule: 'docs/decisions.md "Cash-out": an order for the whole stake left (the platform\'s or the partner\'s own)',
  },
  {
    name: 'cash_out_given_back',
    from: 'cashed_out',
    to: 'accepted',
    sources: ['frame', 'mts'],
    callbacks: [],
    when: ['/bet/cash-out-orders/declined'],
    rule: 'docs/decisions.md "Cash-out": the partner cancels an accepted order, or its payment proved undeliverable',
  },
  {
    name: 'withdraw',
    from: 'accepted',
    to: 'declined',
    sources: ['mts'],
    callbacks: [],
    when: [],
    rule: "the partner-reported bets rule: DELETE /bets declines a reported bet on the partner's side",
  },
  {
    name: 'withdraw',
    from: 'unsettled',
    to: 'declined',
    sources: ['mts'],
    callbacks: [],
    when: [],
    rule: "the partner-reported bets rule: DELETE /bets declines a reported bet on the partner's side",
  },
];

/** One allowed way for a bet to come into existence: how it arrives, and the state it is created in. */
export interface BetCreation {
  /** The creation's name: `place` (formed by the frame's placement) or `report` (the partner reports it decided). */
  readonly name: 'place' | 'report';
  /** How the bet arrives: placed through the frame, or reported by the partner (`POST /bets`). */
  readonly source: BetSource;
  /** The state the bet is stored in by the statement that creates it. */
  readonly state: BetState;
  /** Where the creation is specified. */
  readonly rule: string;
}

const REPORTED =
  'the partner-reported bets rule: the partner holds the money, Bookie records the bet with its decision (POST /bets)';

/**
 * The table of states a bet may be created in, per how it arrives. A frame bet is created in
 * {@link INITIAL_BET_STATE} and decided later by a transition (the partner holds its stake in between). A bet the
 * partner reports is decided before it is recorded, so it is created in the state its decision leads to — the `to`
 * of the decision transitions out of {@link INITIAL_BET_STATE} (accept, decline) — in one row version, with the
 * exposure an accepted bet adds moving in the same statement: the record of a decision made at once, not a state
 * change.
 */
export const BET_CREATIONS: readonly BetCreation[] = [
  { name: 'place', source: 'frame', state: INITIAL_BET_STATE, rule: `${PLACEMENT}: the bet is formed` },
  { name: 'report', source: 'mts', state: 'accepted', rule: `${REPORTED}: accepted` },
  { name: 'report', source: 'mts', state: 'declined', rule: `${REPORTED}: declined` },
];

const byCreation = new Map(BET_CREATIONS.map((c) => [`${c.source}>${c.state}`, c] as const));

/**
 * The allowed creation of a bet arriving from `source` in `state` (see {@link BET_CREATIONS}).
 *
 * @returns the creation.
 * @throws DomainError `conflict` naming the source and the state when the table has no such creation (e.g. a frame
 * bet created accepted, or a reported bet created in `hold_requested`).
 */
export function creation(source: BetSource, state: BetState): BetCreation {
  const c = byCreation.get(`${source}>${state}`);
  if (!c) {
    throw new DomainError('conflict', `a ${source} bet cannot be created ${state}`, { source, state });
  }
  return c;
}

/** True when the table allows a bet arriving from `source` to be created in `state`. */
export function canCreate(source: BetSource, state: BetState): boolean {
  return byCreation.has(`${source}>${state}`);
}

const byPair = new Map(BET_TRANSITIONS.map((t) => [`${t.from}>${t.to}`, t] as const));

/** True when `s` names a bet state. */
export function isBetState(s: unknown): s is BetState {
  return typeof s === 'string' && (BET_STATES as readonly string[]).includes(s);
}

/**
 * The allowed change of a bet from `from` to `to` (see {@link BET_TRANSITIONS}).
 *
 * @returns the transition, with the callbacks it sends.
 * @throws DomainError `conflict` naming both states when the table has no such change (e.g. declined → settled).
 */
export function transition(from: BetState, to: BetState): BetTransition {
  const t = byPair.get(`${from}>${to}`);
  if (!t) {
    throw new DomainError('conflict', `a bet cannot go from ${from} to ${to}`, { from, to });
  }
  return t;
}

/** True when the table allows a bet to go from `from` to `to`. */
export function canTransition(from: BetState, to: BetState): boolean {
  return byPair.has(`${from}>${to}`);
}
