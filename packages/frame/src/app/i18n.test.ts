import { RESTRICTION_TYPES } from '@bookie/core';
import { describe, expect, it } from 'vitest';
import { de, en, type MessageKey, reasonText, t } from './i18n.js';

describe('the frame catalogue', () => {
  it('has every English key in German too, with the same placeholders', () => {
    for (const key of Object.keys(en) as MessageKey[]) {
      expect(de[key], key).toBeTypeOf('string');
      const vars = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(vars(de[key]!), key).toEqual(vars(en[key]));
    }
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
});
