import { CashOutReason } from '@bookie/contracts';
import { RESTRICTION_TYPES } from '@bookie/core';
import { describe, expect, it } from 'vitest';
import {
  ar,
  cashOutReasonText,
  de,
  dirOf,
  en,
  LOCALES,
  type MessageKey,
  reasonText,
  rootCause,
  rootCauseText,
  t,
} from './i18n.js';

describe('the frame catalogue', () => {
  it('has every English key in German and Arabic too, with the same placeholders', () => {
    for (const cat of [de, ar])
      for (const key of Object.keys(en) as MessageKey[]) {
        expect(cat[key], key).toBeTypeOf('string');
        const vars = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
        expect(vars(cat[key]!), key).toEqual(vars(en[key]));
      }
  });
  it('writes Arabic right to left, the others left to right', () => {
    expect(dirOf('ar')).toBe('rtl');
    expect(dirOf('ar-EG')).toBe('rtl');
    expect(dirOf('de')).toBe('ltr');
    expect(t('ar', 'nav.history')).toBe('رهاناتي');
  });
  it('explains a decline by one root cause', () => {
    const bet = {
      restrictions: [
        { type: 'odd_status', context: {} },
        { type: 'max_bet', context: { max_bet: '42.000000' } },
      ],
    };
    expect(rootCause(bet.restrictions)?.type).toBe('max_bet');
    expect(rootCauseText('en', { restrictions: [{ type: 'market_status', context: {} }] })).toBe(
      'This market is suspended.',
    );
  });
  it('says every restriction of spec 01 in plain words', () => {
    for (const type of RESTRICTION_TYPES) {
      expect(`reason.${type}` in en, type).toBe(true);
    }
    expect(reasonText('en', { type: 'max_bet', context: { max_bet: '100.000000' } })).toBe(
      'The stake is above the maximum of 100.000000.',
    );
    expect(reasonText('de', { type: 'brand_new', context: {} })).toBe(
      'Die Wette wurde nicht angenommen (brand_new).',
    );
  });
  it('falls back to English for an unknown locale', () => {
    expect(t('fr-FR', 'nav.live')).toBe(en['nav.live']);
    expect(t('de-AT', 'nav.history')).toBe('Meine Wetten');
  });
  it('says every cash-out reason of the contract in plain words, in every locale', () => {
    const reasons = CashOutReason.anyOf.map((l) => l.const as string);
    expect(reasons.length).toBeGreaterThanOrEqual(11);
    for (const locale of LOCALES)
      for (const reason of reasons) {
        expect(`cashout.reason.${reason}` in en, reason).toBe(true);
        const text = cashOutReasonText(locale, reason);
        expect(text, `${locale} ${reason}`).not.toMatch(/[{}]|cashout\./);
        expect(text).not.toBe(cashOutReasonText(locale, 'brand_new'));
      }
    expect(cashOutReasonText('en', 'market_suspended')).toBe('A market of this bet is suspended right now.');
    expect(cashOutReasonText('de', 'price_moved')).toBe('Der Preis hat sich geändert.');
    expect(cashOutReasonText('de', 'brand_new')).toBe('Cashout ist gerade nicht möglich (brand_new).');
  });
  it('fills the cash-out button with the amount as given', () => {
    expect(t('en', 'cashout.button', { amount: '13.458', currency: 'EUR' })).toBe('Cash out 13.458 EUR');
    expect(t('de', 'cashout.button', { amount: '13.458', currency: 'EUR' })).toBe('Cashout 13.458 EUR');
  });
});
