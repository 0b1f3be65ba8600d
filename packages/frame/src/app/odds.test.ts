import { ODDS_FORMATS } from '@bookie/core/odds-format';
import { describe, expect, it } from 'vitest';
import { oddButtonState, oddsFormatOf, priceText } from './odds.js';

describe('odds format names', () => {
  it.each([
    ['Decimal', 'decimal'],
    ['decimal', 'decimal'],
    ['Fractional', 'fractional'],
    ['AMERICAN', 'american'],
    ['HongKong', 'hongkong'],
    ['Hong Kong', 'hongkong'],
    ['hong_kong', 'hongkong'],
    ['Malay', 'malay'],
    ['Indonesian', 'indonesian'],
  ])('%s → %s', (name, format) => {
    expect(oddsFormatOf(name)).toBe(format);
  });

  it("takes Bookie's own six names", () => {
    for (const f of ODDS_FORMATS) expect(oddsFormatOf(f)).toBe(f);
  });

  it.each([['Roman'], [''], [undefined], [3]])('refuses %j with a clear error', (name) => {
    expect(() => oddsFormatOf(name)).toThrow(RangeError);
    expect(() => oddsFormatOf(name)).toThrow(/unknown odds format .*use Decimal, Fractional, American/);
  });
});

describe('a price on a button', () => {
  it('shows the price in the chosen format', () => {
    expect(priceText('2.5', 'decimal')).toBe('2.50');
    expect(priceText('2.5', 'fractional')).toBe('3/2');
    expect(priceText('2.5', 'american')).toBe('+150.00');
    expect(oddButtonState('2.5', 'hongkong', true)).toEqual({ text: '1.50', disabled: false });
  });

  it('falls back to the decimal price when the format cannot show it, and stays clickable', () => {
    // a format name the type system would refuse, as a host page could pass before names were checked
    const unknown = 'Decimal' as never;
    expect(priceText('1.85', unknown)).toBe('1.85');
    expect(oddButtonState('1.85', unknown, true)).toEqual({ text: '1.85', disabled: false });
    // 1.004 rounds to 1.00: no fraction of it, its decimal is shown
    expect(priceText('1.004', 'fractional')).toBe('1.00');
  });

  it('is never "—" on a clickable button: a price that cannot be shown disables the button', () => {
    for (const value of ['1', '0.5', 'abc', '', '-2']) {
      expect(priceText(value, 'decimal')).toBeUndefined();
      expect(oddButtonState(value, 'decimal', true)).toEqual({ text: '—', disabled: true });
    }
    for (const f of ODDS_FORMATS)
      for (const value of ['1', '1.01', '1.5', '2', '3.333333', 'x']) {
        const state = oddButtonState(value, f, true);
        expect(state.text === '—' ? state.disabled : true, `${value} ${f}`).toBe(true);
      }
  });

  it('keeps a closed odd disabled whatever its price', () => {
    expect(oddButtonState('2.5', 'decimal', false)).toEqual({ text: '2.50', disabled: true });
  });
});
