import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Rational, rational, ZERO } from './decimal.js';
import { DomainError } from './errors.js';
import {
  assertLedger,
  isLedgerSettled,
  type LedgerEntry,
  ledgerBalance,
  nextUnsettleAmount,
  resettleEntries,
  unsettleEntries,
} from './settlement-ledger.js';

const m = (n: bigint): Rational => rational(n, 1000n);

describe('settle/unsettle ledger (DECISIONS D12)', () => {
  it('unsettle reverses the last settle in full, also 0', () => {
    let ledger: LedgerEntry[] = [];
    expect(() => nextUnsettleAmount(ledger)).toThrow(DomainError);
    ledger = [...ledger, ...resettleEntries(ledger, m(18_500n))];
    expect(ledgerBalance(ledger)).toEqual(m(18_500n));
    expect(nextUnsettleAmount(ledger)).toEqual(m(18_500n));
    ledger = [...ledger, ...resettleEntries(ledger, ZERO)];
    expect(ledger.map((e) => e.kind)).toEqual(['settle', 'unsettle', 'settle']);
    expect(ledgerBalance(ledger)).toEqual(ZERO);
    ledger = [...ledger, ...unsettleEntries(ledger)];
    expect(ledger.at(-1)).toEqual({ kind: 'unsettle', amount: ZERO });
    expect(isLedgerSettled(ledger)).toBe(false);
    expect(() => unsettleEntries(ledger)).toThrow(/not settled/);
    assertLedger(ledger);
  });

  it('rejects a ledger that does not alternate or does not reverse', () => {
    expect(() => assertLedger([{ kind: 'unsettle', amount: ZERO }])).toThrow(/entry 0/);
    expect(() =>
      assertLedger([
        { kind: 'settle', amount: m(1n) },
        { kind: 'unsettle', amount: m(2n) },
      ]),
    ).toThrow(/does not reverse/);
    expect(() => assertLedger([{ kind: 'settle', amount: m(-1n) }])).toThrow(/negative/);
  });

  it('any sequence of settles and unsettles nets to the current payout', () => {
    const op = fc.oneof(
      fc.bigInt({ min: 0n, max: 10n ** 12n }).map((n) => ({ op: 'settle' as const, amount: m(n) })),
      fc.constant({ op: 'unsettle' as const }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30 }), (ops) => {
        let ledger: LedgerEntry[] = [];
        let current: Rational = ZERO;
        for (const o of ops) {
          if (o.op === 'settle') {
            ledger = [...ledger, ...resettleEntries(ledger, o.amount)];
            current = o.amount;
          } else if (isLedgerSettled(ledger)) {
            ledger = [...ledger, ...unsettleEntries(ledger)];
            current = ZERO;
          }
          expect(ledgerBalance(ledger)).toEqual(current);
        }
        assertLedger(ledger);
      }),
    );
  });
});
