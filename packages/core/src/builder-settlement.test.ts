/** Settlement of a bet builder from its inner legs: unit and property tests (fast-check). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type BuilderInnerResult,
  builderFactor,
  builderSettlementLeg,
  builderSettlementResult,
} from './builder-settlement.js';
import { compare, mul, ONE, parseDecimal, type Rational, rational, ZERO } from './decimal.js';
import { DomainError } from './errors.js';
import { EXPRESS_CAP_EUR, settleBet } from './settlement.js';
import { ODD_STATUS, type OddStatus } from './statuses.js';

const d = (s: string) => parseDecimal(s, { field: 't', maxDecimals: 12 });
const leg = (status: number, deadHeat?: string): BuilderInnerResult =>
  deadHeat ? { status: status as OddStatus, deadHeat: d(deadHeat) } : { status: status as OddStatus };
const eq = (a: Rational, b: Rational) => compare(a, b) === 0;

describe('builderSettlementResult', () => {
  it('every leg won → won at the combined odds', () => {
    expect(builderSettlementResult([leg(1), leg(1), leg(1)])).toEqual({ status: ODD_STATUS.WIN });
    expect(eq(builderFactor(d('7.35'), [leg(1), leg(1)]), d('7.35'))).toBe(true);
  });

  it('any lost leg → lost, even beside refunded, half or not yet resulted legs', () => {
    for (const other of [0, 1, 3, 4, 5, 6, 7]) {
      expect(builderSettlementResult([leg(other), leg(2)]).status).toBe(ODD_STATUS.LOSS);
      expect(eq(builderFactor(d('3.2'), [leg(2), leg(other)]), ZERO)).toBe(true);
    }
  });

  it('no lost leg and one not resulted → not resulted (settlement waits)', () => {
    expect(builderSettlementResult([leg(1), leg(0), leg(5)]).status).toBe(ODD_STATUS.NOT_RESULTED);
    expect(() => builderFactor(d('2'), [leg(1), leg(0)])).toThrow(DomainError);
  });

  it('a refunded, cancelled (voided inner market) or manually refunded leg with none lost → refunded whole', () => {
    expect(builderSettlementResult([leg(1), leg(5)]).status).toBe(ODD_STATUS.REFUNDED);
    expect(builderSettlementResult([leg(1), leg(6)]).status).toBe(ODD_STATUS.CANCELLED);
    expect(builderSettlementResult([leg(5), leg(6), leg(7)]).status).toBe(ODD_STATUS.REFUNDED_MANUALLY);
    expect(eq(builderFactor(d('5.5'), [leg(1), leg(6)]), ONE)).toBe(true);
  });

  it('a half result (a quarter line the model never priced) with none lost → refunded whole', () => {
    expect(builderSettlementResult([leg(1), leg(3)]).status).toBe(ODD_STATUS.REFUNDED);
    expect(builderSettlementResult([leg(4), leg(1)]).status).toBe(ODD_STATUS.REFUNDED);
  });

  it('dead heats on inner wins multiply into the builder win', () => {
    const r = builderSettlementResult([leg(1, '0.5'), leg(1), leg(1, '0.5')]);
    expect(r.status).toBe(ODD_STATUS.WIN);
    expect(r.deadHeat && eq(r.deadHeat, d('0.25'))).toBe(true);
    expect(eq(builderFactor(d('8'), [leg(1, '0.5'), leg(1, '0.5')]), d('2'))).toBe(true);
  });

  it('refuses bad input naming the field', () => {
    expect(() => builderSettlementResult([])).toThrow(/builder\.legs/);
    expect(() => builderSettlementResult([leg(1), leg(9)])).toThrow(/builder\.legs\[1\]\.status/);
    expect(() => builderSettlementResult([leg(2, '0.5')], 'selections[0]')).toThrow(
      /selections\[0\]\.legs\[0\]\.dead_heat/,
    );
    expect(() => builderSettlementResult([leg(1, '1.5')])).toThrow(/dead_heat/);
  });
});

describe('a builder as one selection of the bet arithmetic', () => {
  const cap = EXPRESS_CAP_EUR;
  it('single builder: won pays stake × combined odds, refunded pays the stake as a voided bet', () => {
    const won = settleBet({
      betType: 'single',
      stake: d('10'),
      legs: [builderSettlementLeg(d('6.125'), [leg(1), leg(1)])],
      expressCap: cap,
    });
    expect(eq(won.payout, d('61.25'))).toBe(true);
    expect(won.settleType).toBe(1);
    const refunded = settleBet({
      betType: 'single',
      stake: d('10'),
      legs: [builderSettlementLeg(d('6.125'), [leg(1), leg(6)])],
      expressCap: cap,
    });
    expect(refunded.voided).toBe(true);
    expect(refunded.settleType).toBe(2);
    expect(eq(refunded.payout, d('10'))).toBe(true);
  });

  it('express of a builder and a plain selection: the builder counts with its combined odds or as a void leg', () => {
    const plain = { odds: d('1.8'), status: ODD_STATUS.WIN };
    const won = settleBet({
      betType: 'express',
      stake: d('10'),
      legs: [builderSettlementLeg(d('4.5'), [leg(1), leg(1)]), plain],
      expressCap: cap,
    });
    expect(eq(won.payout, d('81'))).toBe(true);
    const refunded = settleBet({
      betType: 'express',
      stake: d('10'),
      legs: [builderSettlementLeg(d('4.5'), [leg(5), leg(1)]), plain],
      expressCap: cap,
    });
    expect(eq(refunded.payout, d('18'))).toBe(true);
    const lost = settleBet({
      betType: 'express',
      stake: d('10'),
      legs: [builderSettlementLeg(d('4.5'), [leg(1), leg(2)]), plain],
      expressCap: cap,
    });
    expect(lost.settleType).toBe(3);
  });
});

describe('builder settlement properties', () => {
  const arbOdds = fc.bigInt({ min: 1010n, max: 1_000_000n }).map((n) => rational(n, 1000n));
  const arbResolved = fc.constantFrom<OddStatus>(1, 3, 4, 5, 6, 7);
  const arbLeg = (statuses: fc.Arbitrary<OddStatus>) =>
    fc
      .tuple(statuses, fc.option(fc.bigInt({ min: 1n, max: 100n }), { nil: undefined }))
      .map(
        ([status, h]): BuilderInnerResult =>
          status === 1 && h !== undefined ? { status, deadHeat: rational(h, 100n) } : { status },
      );
  const arbLegs = fc.array(arbLeg(fc.constantFrom<OddStatus>(0, 1, 2, 3, 4, 5, 6, 7)), {
    minLength: 1,
    maxLength: 10,
  });

  it('any lost leg → lost (factor 0)', () => {
    fc.assert(
      fc.property(arbOdds, arbLegs, fc.nat(), (odds, legs, at) => {
        const withLoss = [...legs];
        withLoss.splice(at % (legs.length + 1), 0, { status: ODD_STATUS.LOSS });
        expect(builderSettlementResult(withLoss).status).toBe(ODD_STATUS.LOSS);
        expect(builderFactor(odds, withLoss).num).toBe(0n);
      }),
    );
  });

  it('all won → won at exactly the combined odds times the dead heats', () => {
    fc.assert(
      fc.property(
        arbOdds,
        fc.array(arbLeg(fc.constant<OddStatus>(1)), { minLength: 1, maxLength: 10 }),
        (odds, legs) => {
          const heat = legs.reduce((acc, l) => (l.deadHeat ? mul(acc, l.deadHeat) : acc), ONE);
          expect(builderSettlementResult(legs).status).toBe(ODD_STATUS.WIN);
          expect(eq(builderFactor(odds, legs), mul(odds, heat))).toBe(true);
        },
      ),
    );
  });

  it('a refunded leg with none lost and all resulted → refund (factor exactly 1), whatever the other legs', () => {
    fc.assert(
      fc.property(
        arbOdds,
        fc.array(arbLeg(arbResolved), { minLength: 0, maxLength: 9 }),
        fc.constantFrom<OddStatus>(5, 6, 7),
        fc.nat(),
        (odds, legs, refund, at) => {
          const all = [...legs];
          all.splice(at % (legs.length + 1), 0, { status: refund });
          expect([5, 6, 7]).toContain(builderSettlementResult(all).status);
          expect(eq(builderFactor(odds, all), ONE)).toBe(true);
        },
      ),
    );
  });

  it('the order of the legs never changes the result', () => {
    fc.assert(
      fc.property(arbLegs, (legs) => {
        expect(builderSettlementResult([...legs].reverse())).toEqual(builderSettlementResult(legs));
      }),
    );
  });
});
