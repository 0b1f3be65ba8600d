/**
 * Applicability of each bonus to a bet (the restrictions of the callback contract, "Restriction"): freebet, bet insurance
 * and bet boost, and the boost multiplier's parsing.
 */
import type { ConditionBet } from './condition-matching.js';
import { evaluateConditions } from './condition-matching.js';
import { inValue } from './condition-ranges.js';
import type { Conditions, ValueRange } from './conditions.js';
import { compare, fromInteger, ONE, parseDecimal, type Rational } from './decimal.js';
import { validationError } from './errors.js';
import { type Restriction, restriction } from './restrictions.js';

/** A bet as the bonus checks see it: its conditions facts, stake and currency. */
export interface BonusBet extends ConditionBet {
  /** Stake, bet currency, exact. */
  stake: Rational;
  /** ISO 4217 code of the bet. */
  currency: string;
}

/** The facts of a freebet that decide whether it applies (the callback contract, "Freebet conditions"). */
export interface FreebetTerms {
  id: string;
  /** ISO 4217 code the freebet is bound to (no conversion). */
  currency: string;
  /** Freebet amount: the stake of the bet must equal it. */
  amount: Rational;
  conditions: Conditions;
}

/**
 * Why a freebet does not apply to a bet (the callback contract, "Freebet conditions", this work), every failing restriction:
 * - another currency → `freebet_not_applicable` with condition `currency_code` (a freebet is bound to its currency);
 * - a stake other than the freebet amount → `freebet_amount` (both 6-decimal strings);
 * - a failing condition → `freebet_not_applicable` naming it.
 * The freebet's status (available, reserved for this bet…) is the caller's to check (`freebet_status`).
 *
 * @param formatAmount - writes money with 6 decimals (pass `formatMoney`).
 */
export function freebetRestrictions(
  terms: FreebetTerms,
  bet: BonusBet,
  formatAmount: (v: Rational) => string,
): Restriction[] {
  const out: Restriction[] = [];
  if (terms.currency !== bet.currency) {
    out.push(restriction('freebet_not_applicable', { freebet_id: terms.id, condition: 'currency_code' }));
  }
  if (compare(terms.amount, bet.stake) !== 0) {
    out.push(
      restriction('freebet_amount', {
        freebet_id: terms.id,
        freebet_amount: formatAmount(terms.amount),
        stake: formatAmount(bet.stake),
      }),
    );
  }
  const v = evaluateConditions(terms.conditions, bet);
  if (!v.ok)
    out.push(restriction('freebet_not_applicable', { freebet_id: terms.id, condition: v.condition }));
  return out;
}

/** The facts of a bet insurance that decide whether it applies (the callback contract, "Bet insurance conditions"). */
export interface InsuranceTerms {
  id: string;
  /** ISO 4217 code the insurance is bound to. */
  currency: string;
  conditions: Conditions;
  /** Range of the stake (bet currency); absent: any stake. */
  stakeAmountRange?: ValueRange;
}

/**
 * Why a bet insurance does not apply to a bet (the callback contract, "Bet insurance conditions"), every failing restriction:
 * - another currency → `insurance_not_applicable` with condition `currency_code`;
 * - a freebet bet → `insurance_not_applicable` with condition `freebet` (only a stake of the player's money is
 *   insured; docs/adr/0009-bonuses.md);
 * - a failing condition → `insurance_not_applicable` naming it;
 * - a stake outside `stake_amount_range` → `insurance_value` with reason `stake_amount_range`.
 */
export function insuranceRestrictions(
  terms: InsuranceTerms,
  bet: BonusBet & { freebet?: boolean },
): Restriction[] {
  const out: Restriction[] = [];
  const na = (condition: string) =>
    restriction('insurance_not_applicable', { insurance_id: terms.id, condition });
  if (terms.currency !== bet.currency) out.push(na('currency_code'));
  if (bet.freebet) out.push(na('freebet'));
  const v = evaluateConditions(terms.conditions, bet);
  if (!v.ok) out.push(na(v.condition));
  if (terms.stakeAmountRange && !inValue(terms.stakeAmountRange, bet.stake)) {
    out.push(restriction('insurance_value', { insurance_id: terms.id, reason: 'stake_amount_range' }));
  }
  return out;
}

/** The facts of a bet boost that decide whether it applies. */
export interface BoostTerms {
  id: string;
  conditions: Conditions;
}

/** Why a bet boost does not apply to a bet: a failing condition → `bonus_not_applicable` with its name as reason. */
export function boostRestrictions(terms: BoostTerms, bet: BonusBet): Restriction[] {
  const v = evaluateConditions(terms.conditions, bet);
  return v.ok ? [] : [restriction('bonus_not_applicable', { bonus_id: terms.id, reason: v.condition })];
}

/** Largest boost multiplier accepted (a guard against typing errors such as 110 for 1.10). */
export const MAX_BOOST_MULTIPLIER: Rational = fromInteger(100);

/**
 * Parses a bet boost multiplier (the boosted odds rule): a decimal string above 1 and at most 100, with at most 6 decimals,
 * e.g. `"1.1"` for a 10 % odds boost.
 *
 * @throws DomainError `validation_error` naming `field`.
 */
export function parseBoostMultiplier(input: unknown, field = 'multiplier'): Rational {
  const m = parseDecimal(input, { field, maxDecimals: 6 });
  if (compare(m, ONE) <= 0) throw validationError(field, 'must be above 1');
  if (compare(m, MAX_BOOST_MULTIPLIER) > 0) throw validationError(field, 'must be at most 100');
  return m;
}
