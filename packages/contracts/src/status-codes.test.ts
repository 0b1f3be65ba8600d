import { describe, expect, it } from 'vitest';
import {
  BET_STATUS_CODES,
  codeBounds,
  describeCodes,
  FIXTURE_STATUS_CODES,
  MARKET_STATUS_CODES,
  ODD_STATUS_CODES,
  SETTLE_TYPE_CODES,
  STATUS_FAMILIES,
  statusName,
} from './status-codes.js';

const pairs = (f: { codes: readonly { code: number; name: string }[] }) =>
  f.codes.map((c) => [c.code, c.name]);

describe('status codes (the feed contract "States and transitions"; docs/decisions.md D3, D4, D6)', () => {
  it('numbers odd statuses as the feed does: 3 half win, 4 half loss, 5 refunded; 7 refunded manually', () => {
    expect(pairs(ODD_STATUS_CODES)).toEqual([
      [0, 'not resulted'],
      [1, 'win'],
      [2, 'loss'],
      [3, 'half win'],
      [4, 'half loss'],
      [5, 'refunded'],
      [6, 'cancelled'],
      [7, 'refunded manually'],
    ]);
  });

  it('numbers fixture and market statuses as the feed does', () => {
    expect(pairs(FIXTURE_STATUS_CODES)).toEqual([
      [0, 'not started'],
      [1, 'live'],
      [2, 'suspended'],
      [3, 'ended'],
      [4, 'closed'],
      [5, 'cancelled'],
      [6, 'abandoned'],
      [7, 'delayed'],
      [8, 'unknown'],
    ]);
    expect(pairs(MARKET_STATUS_CODES)).toEqual([
      [0, 'active'],
      [1, 'suspended'],
      [2, 'deactivated'],
      [3, 'resulted'],
      [4, 'cancelled'],
    ]);
  });

  it('numbers bet statuses (D6) and settle types (D3)', () => {
    expect(pairs(BET_STATUS_CODES)).toEqual([
      [1, 'accepted'],
      [2, 'declined'],
      [3, 'settled'],
      [4, 'unsettled'],
      [5, 'refunded'],
      [6, 'refunded manually'],
      [7, 'cashed out'],
      [10, 'place error'],
      [11, 'force-declined'],
    ]);
    expect(pairs(SETTLE_TYPE_CODES)).toEqual([
      [1, 'win'],
      [2, 'refund'],
      [3, 'lost'],
    ]);
  });

  it('gives every code one name and no two codes of a family the same number or name', () => {
    for (const f of STATUS_FAMILIES) {
      expect(new Set(f.codes.map((c) => c.code)).size, f.title).toBe(f.codes.length);
      expect(new Set(f.codes.map((c) => c.name)).size, f.title).toBe(f.codes.length);
      for (const c of f.codes) expect(c.name, `${f.title} ${c.code}`).toMatch(/^[a-z][a-z -]*$/);
    }
  });

  it('builds sentences, bounds and names from the table', () => {
    expect(describeCodes(ODD_STATUS_CODES, { min: 1, max: 6 })).toBe(
      '1 win, 2 loss, 3 half win, 4 half loss, 5 refunded, 6 cancelled',
    );
    expect(describeCodes(SETTLE_TYPE_CODES)).toBe('1 win, 2 refund, 3 lost');
    expect(codeBounds(ODD_STATUS_CODES, { max: 6 })).toEqual({ minimum: 0, maximum: 6 });
    expect(codeBounds(BET_STATUS_CODES)).toEqual({ minimum: 1, maximum: 11 });
    expect(statusName(ODD_STATUS_CODES, 5)).toBe('refunded');
    expect(statusName(BET_STATUS_CODES, 8)).toBeUndefined();
    expect(() => describeCodes(MARKET_STATUS_CODES, { min: 5 })).toThrow(RangeError);
    expect(() => codeBounds(BET_STATUS_CODES, { min: 8, max: 9 })).toThrow(RangeError);
  });
});
