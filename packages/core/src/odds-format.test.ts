import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectFieldError } from '../test/helpers.js';
import { eq, formatOdds, parseDecimal, type Rational, rational } from './decimal.js';
import {
  displayOdds,
  formatFraction,
  fromOddsFormat,
  isOddsFormat,
  ODDS_FORMATS,
  type OddsFormat,
  parseFraction,
  parseOddsIn,
  toOddsFormat,
} from './odds-format.js';

const d = (s: string): Rational => parseDecimal(s, { field: 'x', allowNegative: true, maxDecimals: 12 });

/** Random decimal odds as Bookie stores them: 1.000001 … 1000.000000, 6 decimals. */
const decimalOdds = fc
  .bigInt({ min: 1_000_001n, max: 1_000_000_000n })
  .map((micros) => rational(micros, 1_000_000n));

describe('odds formats (D50): exact round trip', () => {
  for (const fmt of ODDS_FORMATS) {
    it(`${fmt}: 10,000 random decimal odds convert and convert back exactly`, () => {
      fc.assert(
        fc.property(decimalOdds, (odds) => {
          const back = fromOddsFormat(toOddsFormat(odds, fmt), fmt);
          expect(formatOdds(back)).toBe(formatOdds(odds));
          expect(eq(back, odds)).toBe(true);
        }),
        { numRuns: 10_000 },
      );
    });
  }
  it('fractional: 10,000 random decimal odds round-trip through the written fraction', () => {
    fc.assert(
      fc.property(decimalOdds, (odds) => {
        const text = formatFraction(toOddsFormat(odds, 'fractional'));
        expect(eq(parseOddsIn(text, 'fractional'), odds)).toBe(true);
      }),
      { numRuns: 10_000 },
    );
  });
});

// Published conversion tables (e.g. Wikipedia "Odds", "Fixed-odds betting" and bookmakers' conversion charts).
const VECTORS: [string, Partial<Record<OddsFormat, string>>][] = [
  ['1.25', { fractional: '1/4', american: '-400.00', hongkong: '0.25', malay: '0.25', indonesian: '-4.00' }],
  ['1.50', { fractional: '1/2', american: '-200.00', hongkong: '0.50', malay: '0.50', indonesian: '-2.00' }],
  ['1.80', { fractional: '4/5', american: '-125.00', hongkong: '0.80', malay: '0.80', indonesian: '-1.25' }],
  ['2.00', { fractional: '1/1', american: '+100.00', hongkong: '1.00', malay: '1.00', indonesian: '1.00' }],
  ['2.50', { fractional: '3/2', american: '+150.00', hongkong: '1.50', malay: '-0.67', indonesian: '1.50' }],
  ['3.00', { fractional: '2/1', american: '+200.00', hongkong: '2.00', malay: '-0.50', indonesian: '2.00' }],
  ['3.50', { fractional: '5/2', american: '+250.00', hongkong: '2.50', malay: '-0.40', indonesian: '2.50' }],
  ['5.00', { fractional: '4/1', american: '+400.00', hongkong: '4.00', malay: '-0.25', indonesian: '4.00' }],
  [
    '11.00',
    { fractional: '10/1', american: '+1000.00', hongkong: '10.00', malay: '-0.10', indonesian: '10.00' },
  ],
  [
    '1.91',
    { fractional: '91/100', american: '-109.89', hongkong: '0.91', malay: '0.91', indonesian: '-1.10' },
  ],
];

describe('odds formats (D50): published vectors', () => {
  for (const [dec, shown] of VECTORS) {
    it(`decimal ${dec}`, () => {
      expect(displayOdds(d(dec), 'decimal')).toBe(dec);
      for (const [fmt, text] of Object.entries(shown))
        expect(displayOdds(d(dec), fmt as OddsFormat)).toBe(text);
    });
  }
  it('-110 american is 21/11 decimal and 10/11 fractional, exactly', () => {
    expect(eq(parseOddsIn('-110', 'american'), rational(21n, 11n))).toBe(true);
    expect(formatFraction(toOddsFormat(rational(21n, 11n), 'fractional'))).toBe('10/11');
    expect(displayOdds(rational(21n, 11n), 'decimal')).toBe('1.91');
  });
  it('typed values of each format mean the same decimal odds', () => {
    expect(eq(parseOddsIn('+150', 'american'), d('2.5'))).toBe(true);
    expect(eq(parseOddsIn('-0.5', 'malay'), d('3'))).toBe(true);
    expect(eq(parseOddsIn('-2', 'indonesian'), d('1.5'))).toBe(true);
    expect(eq(parseOddsIn('0.8', 'hongkong'), d('1.8'))).toBe(true);
    expect(eq(parseOddsIn('7/4', 'fractional'), d('2.75'))).toBe(true);
  });
});

describe('odds formats (D50): bad input', () => {
  it('refuses decimal odds of 1 or less', () => {
    expectFieldError(() => toOddsFormat(d('1'), 'american'), 'odds', 'above 1');
    expectFieldError(() => displayOdds(d('0.5'), 'fractional'), 'odds');
  });
  it.each([
    ['american', '50'],
    ['american', '-99.99'],
    ['malay', '1.5'],
    ['malay', '-2'],
    ['malay', '0'],
    ['indonesian', '0.5'],
    ['indonesian', '-0.5'],
    ['hongkong', '0'],
    ['decimal', '1'],
  ] as const)('refuses %s value %s', (fmt, v) => {
    expectFieldError(() => fromOddsFormat(d(v), fmt), 'value', fmt);
  });
  it.each(['3:2', '0/1', '1/0', '', '1.5/2', 'abc'])('refuses the fraction "%s"', (s) => {
    expectFieldError(() => parseFraction(s, 'odds'), 'odds');
  });
  it('knows its formats', () => {
    expect(ODDS_FORMATS.every(isOddsFormat)).toBe(true);
    expect(isOddsFormat('us')).toBe(false);
  });
});
