/**
 * The pure bet calculator behind `bookie calc`: validates a bet given as JSON in the shape of the cases of
 * the settlement vectors and settles it (the settle type rule, the settlement arithmetic rules).
 *
 * @packageDocumentation
 */
import { assertBetShape, type BetType, isBetType } from './bet-types.js';
import {
  compare,
  formatMoney,
  ONE,
  parseDecimal,
  parseMoney,
  parseOdds,
  parseStake,
  type Rational,
} from './decimal.js';
import { validationError } from './errors.js';
import { type InsuranceRule, parseInsuranceRule, settleInsurance } from './insurance.js';
import { type Boost, EXPRESS_CAP_EUR, type SettlementLeg, settleBet } from './settlement.js';
import { ODD_STATUS, type OddStatus, type SettleType } from './statuses.js';

/**
 * The calculator's input (JSON). Decimal fields are decimal strings (the decimal strings rule), never JSON numbers.
 *
 * - `bet_type`: `"single" | "express" | "system"`.
 * - `stake`: money, > 0, ≤ 6 decimals.
 * - `system_sizes`: system only; distinct integers in 2..n.
 * - `legs`: `[{odds, status, dead_heat?}]`; odds ≥ 1 with ≤ 12 decimals; status 1–7 (the odd statuses in callbacks rule); dead_heat a
 *   factor in (0, 1], only on a win.
 * - `freebet_amount`: money > 0 when the bet was placed with a freebet (the freebet payout rule).
 * - `boost`: `{multiplier}` ≥ 1 on the total odds (the boosted odds rule).
 * - `insurance`: `{type: "amount"|"percent", amount?, percent?, max_amount?, max_odds_count_lose?}` (the insurance payout rule).
 * - `express_cap`: cap per express / system combination in the bet currency (default `"50000"`, i.e. EUR; the express cap rule).
 * - `max_payout`: white-label max payout of the whole bet, bet currency (the express cap rule).
 * - `id`: an optional label, ignored.
 */
export interface CalcInput {
  /** Optional label, ignored. */
  id?: string;
  bet_type: 'single' | 'express' | 'system';
  stake: string;
  system_sizes?: number[];
  legs: { odds: string; status: number; dead_heat?: string }[];
  freebet_amount?: string;
  boost?: { multiplier: string };
  insurance?: {
    type: 'amount' | 'percent';
    amount?: string;
    percent?: string;
    max_amount?: string;
    max_odds_count_lose?: number;
  };
  express_cap?: string;
  max_payout?: string;
}

/** The calculator's output: amounts are decimal strings with 6 decimals (the decimal strings rule). */
export interface CalcOutput {
  /** Gross payout (stake included), rounded half-up to 3 decimals (the exact, then rounded once rule). */
  payout: string;
  /** `settle_amount` of `/bet/settle`: the freebet credit for a freebet bet (the freebet payout rule), otherwise the payout. */
  settle_amount: string;
  /** `settle_type` (the settle type rule): 1 win, 2 refund, 3 lost. */
  settle_type: SettleType;
  /** Insurance `refund_amount` when the insurance pays (the insurance payout rule), `"0.000000"` otherwise or without insurance. */
  insurance_refund: string;
}

/** A validated calculator bet, exact values. */
export interface CalcBet {
  /** Bet type. */
  betType: BetType;
  /** Stake, bet currency, > 0. */
  stake: Rational;
  /** System sizes (system only). */
  systemSizes?: number[];
  /** Resulted legs. */
  legs: SettlementLeg[];
  /** Freebet amount, bet currency (the freebet payout rule). */
  freebetAmount?: Rational;
  /** Boost on the total odds (the boosted odds rule). */
  boost?: Boost;
  /** Insurance rule (the insurance payout rule). */
  insurance?: InsuranceRule;
  /** Cap per express / system combination, bet currency (the express cap rule; default 50,000 = EUR). */
  expressCap: Rational;
  /** White-label max payout of the whole bet, bet currency (the express cap rule). */
  maxPayout?: Rational;
}

const ALLOWED_KEYS = new Set([
  'id',
  'bet_type',
  'stake',
  'system_sizes',
  'legs',
  'freebet_amount',
  'boost',
  'insurance',
  'express_cap',
  'max_payout',
]);
const LEG_KEYS = new Set(['odds', 'status', 'dead_heat']);
/** Most legs the calculator accepts. */
export const MAX_CALC_LEGS = 100;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function rejectUnknown(o: Record<string, unknown>, allowed: Set<string>, prefix: string): void {
  for (const key of Object.keys(o)) {
    if (!allowed.has(key)) throw validationError(`${prefix}${key}`, 'is not an allowed field');
  }
}

function parseLeg(raw: unknown, i: number): SettlementLeg {
  const field = `legs[${i}]`;
  if (!isObject(raw)) throw validationError(field, 'must be an object {odds, status, dead_heat?}');
  rejectUnknown(raw, LEG_KEYS, `${field}.`);
  const odds = parseOdds(raw.odds, `${field}.odds`, { maxDecimals: 12, allowOne: true });
  const s = raw.status;
  if (typeof s !== 'number' || !Number.isInteger(s) || s < 0 || s > 7) {
    throw validationError(
      `${field}.status`,
      `must be an odd status 1–7, got ${JSON.stringify(s) ?? 'nothing'}`,
    );
  }
  if (s === ODD_STATUS.NOT_RESULTED) {
    throw validationError(`${field}.status`, 'is 0 (not resulted); every leg must be resulted to settle');
  }
  const leg: SettlementLeg = { odds, status: s as OddStatus };
  if (raw.dead_heat !== undefined) {
    const h = parseDecimal(raw.dead_heat, { field: `${field}.dead_heat`, maxDecimals: 12, allowZero: false });
    if (compare(h, ONE) > 0) throw validationError(`${field}.dead_heat`, 'must be at most 1');
    if (s !== ODD_STATUS.WIN) throw validationError(`${field}.dead_heat`, 'applies only to a win (status 1)');
    leg.deadHeat = h;
  }
  return leg;
}

/**
 * Validates calculator input (see {@link CalcInput}).
 *
 * @throws DomainError `validation_error` naming the field, e.g. `legs[0].odds: odds must be at least 1, got "0.9"`.
 */
export function parseCalcInput(input: unknown): CalcBet {
  if (!isObject(input)) throw validationError('input', 'must be a JSON object');
  rejectUnknown(input, ALLOWED_KEYS, '');
  if (input.id !== undefined && typeof input.id !== 'string') throw validationError('id', 'must be a string');
  const betType = input.bet_type;
  if (!isBetType(betType)) {
    throw validationError(
      'bet_type',
      `must be "single", "express" or "system", got ${JSON.stringify(betType) ?? 'nothing'}`,
    );
  }
  const stake = parseStake(input.stake, 'stake');
  if (!Array.isArray(input.legs)) throw validationError('legs', 'must be an array of legs');
  if (input.legs.length > MAX_CALC_LEGS)
    throw validationError('legs', `must have at most ${MAX_CALC_LEGS} legs`);
  const legs = input.legs.map(parseLeg);
  let systemSizes: number[] | undefined;
  if (betType === 'system') {
    const sizes = input.system_sizes;
    if (!Array.isArray(sizes))
      throw validationError('system_sizes', 'must be an array of sizes for a system');
    sizes.forEach((k, i) => {
      if (typeof k !== 'number' || !Number.isInteger(k))
        throw validationError(`system_sizes[${i}]`, 'must be an integer');
    });
    systemSizes = sizes as number[];
  } else if (input.system_sizes !== undefined) {
    throw validationError('system_sizes', `only a system has system sizes, this bet is a ${betType}`);
  }
  assertBetShape(betType, legs.length, systemSizes);
  const bet: CalcBet = {
    betType,
    stake,
    legs,
    expressCap:
      input.express_cap === undefined
        ? EXPRESS_CAP_EUR
        : parseMoney(input.express_cap, 'express_cap', { allowZero: false }),
  };
  if (systemSizes) bet.systemSizes = systemSizes;
  if (input.freebet_amount !== undefined) {
    bet.freebetAmount = parseMoney(input.freebet_amount, 'freebet_amount', { allowZero: false });
  }
  if (input.max_payout !== undefined)
    bet.maxPayout = parseMoney(input.max_payout, 'max_payout', { allowZero: false });
  if (input.boost !== undefined) {
    if (!isObject(input.boost)) throw validationError('boost', 'must be an object {multiplier}');
    rejectUnknown(input.boost, new Set(['multiplier']), 'boost.');
    const multiplier = parseDecimal(input.boost.multiplier, { field: 'boost.multiplier', maxDecimals: 12 });
    if (compare(multiplier, ONE) < 0) throw validationError('boost.multiplier', 'must be at least 1');
    bet.boost = { multiplier };
  }
  if (input.insurance !== undefined) {
    if (isObject(input.insurance)) {
      rejectUnknown(
        input.insurance,
        new Set(['type', 'amount', 'percent', 'max_amount', 'max_odds_count_lose']),
        'insurance.',
      );
    }
    bet.insurance = parseInsuranceRule(input.insurance, 'insurance');
  }
  return bet;
}

/** Settles a validated calculator bet (the settle type rule, the settlement arithmetic rules); see {@link CalcOutput}. */
export function calculate(bet: CalcBet): CalcOutput {
  const settlement = settleBet({
    betType: bet.betType,
    stake: bet.stake,
    legs: bet.legs,
    expressCap: bet.expressCap,
    ...(bet.systemSizes ? { systemSizes: bet.systemSizes } : {}),
    ...(bet.maxPayout ? { maxPayout: bet.maxPayout } : {}),
    ...(bet.boost ? { boost: bet.boost } : {}),
    ...(bet.freebetAmount ? { freebetAmount: bet.freebetAmount } : {}),
  });
  const insurance = bet.insurance
    ? settleInsurance(settlement.settleType, bet.legs, bet.stake, bet.insurance)
    : { accepted: false as const };
  return {
    payout: formatMoney(settlement.payout),
    settle_amount: formatMoney(settlement.settleAmount),
    settle_type: settlement.settleType,
    insurance_refund: insurance.accepted ? formatMoney(insurance.refundAmount) : '0.000000',
  };
}

/**
 * The bet calculator of `bookie calc`: validates `input` ({@link CalcInput}) and returns
 * `{payout, settle_amount, settle_type, insurance_refund}` ({@link CalcOutput}).
 *
 * @throws DomainError `validation_error` naming the field (`details.field` and the message).
 */
export function calculateBet(input: unknown): CalcOutput {
  return calculate(parseCalcInput(input));
}
