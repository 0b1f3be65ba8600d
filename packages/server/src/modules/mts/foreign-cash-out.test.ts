import { parseDecimal } from '@bookie/core';
import { describe, expect, it } from 'vitest';
import { remainingStake } from '../settlement/results/remaining-stake.js';
import { mergeForeignCashOutOrders } from './foreign-cash-out.js';
import type { ForeignCashOutRow } from './mts.repo.js';

const stake = parseDecimal('10', { field: 'stake' });
const order = (id: string, code: 'pending' | 'accepted' | 'declined', amount: string) => ({
  id,
  amount,
  refund_amount: '3',
  status: { code },
  created_at: '2026-05-01T12:00:00Z',
});
const stored = (id: string, status: ForeignCashOutRow['status'], amount: string): ForeignCashOutRow => ({
  order_id: id,
  amount,
  refund_amount: '3.000000',
  status,
  reason: null,
  created_at: '2026-05-01T12:00:00Z',
});

describe('foreign cash-out orders', () => {
  it('adds up the accepted amounts, stored and reported, and knows a full cash-out', () => {
    const m = mergeForeignCashOutOrders(stake, [stored('a', 'accepted', '4')], [order('b', 'accepted', '6')]);
    expect(m).toMatchObject({ acceptedAmount: '10.000000', full: true, newlyAccepted: true });
    expect(m.written.map((o) => o.order_id)).toEqual(['b']);
    const partial = mergeForeignCashOutOrders(
      stake,
      [],
      [order('a', 'pending', '4'), order('b', 'declined', '5')],
    );
    expect(partial).toMatchObject({ acceptedAmount: '0.000000', full: false, newlyAccepted: false });
  });

  it('lets a pending order be decided, never a decided one changed; a repeat of the same is fine', () => {
    expect(
      mergeForeignCashOutOrders(stake, [stored('a', 'pending', '4')], [order('a', 'accepted', '4')])
        .acceptedAmount,
    ).toBe('4.000000');
    expect(() =>
      mergeForeignCashOutOrders(stake, [stored('a', 'accepted', '4')], [order('a', 'declined', '4')]),
    ).toThrow(expect.objectContaining({ code: 'conflict' }));
    expect(() =>
      mergeForeignCashOutOrders(stake, [stored('a', 'accepted', '4')], [order('a', 'accepted', '5')]),
    ).toThrow(expect.objectContaining({ code: 'conflict' }));
    expect(
      mergeForeignCashOutOrders(stake, [stored('a', 'accepted', '4')], [order('a', 'accepted', '4.0')])
        .written,
    ).toEqual([]);
  });

  it('refuses accepted amounts above the stake, a repeated id and a malformed amount, naming the field', () => {
    const field = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as { details?: { field?: string } }).details?.field;
      }
      return undefined;
    };
    expect(
      field(() =>
        mergeForeignCashOutOrders(
          stake,
          [stored('a', 'accepted', '4')],
          [order('b', 'accepted', '6.000001')],
        ),
      ),
    ).toBe('foreign_cash_out_orders');
    expect(
      field(() =>
        mergeForeignCashOutOrders(stake, [], [order('a', 'pending', '1'), order('a', 'pending', '1')]),
      ),
    ).toBe('foreign_cash_out_orders[1].id');
    expect(field(() => mergeForeignCashOutOrders(stake, [], [order('a', 'pending', '1.0000001')]))).toBe(
      'foreign_cash_out_orders[0].amount',
    );
  });

  it("takes only what the platform's own cash-outs left of the stake; reaching it is a full cash-out", () => {
    const room = parseDecimal('7', { field: 'room' });
    expect(mergeForeignCashOutOrders(room, [], [order('a', 'accepted', '7')])).toMatchObject({
      acceptedAmount: '7.000000',
      full: true,
    });
    expect(() => mergeForeignCashOutOrders(room, [], [order('a', 'accepted', '7.000001')])).toThrow(
      expect.objectContaining({ code: 'validation_error' }),
    );
  });

  it('settles on the stake less the accepted foreign cash-outs, never below 0', () => {
    expect(remainingStake({ stake: '10.000000', foreign_cashed_out: '4.000000' })).toEqual(
      parseDecimal('6', { field: 'x' }),
    );
    expect(remainingStake({ stake: '10.000000', foreign_cashed_out: '0' })).toEqual(stake);
  });
});
