import { describe, expect, it } from 'vitest';
import { applyChanges, ChangePathError, orderedChangeKeys, parseChangePath } from './changes.js';

describe('match_update changes (DECISIONS D24)', () => {
  it('rejects empty segments and prototype names', () => {
    for (const bad of ['', '/a', 'a/', 'a//b', '__proto__', 'a/constructor', 'prototype/x']) {
      expect(() => parseChangePath(bad)).toThrow(ChangePathError);
    }
    expect(parseChangePath('markets/1/odds/2/value')).toEqual(['markets', '1', 'odds', '2', 'value']);
  });

  it('applies shallower paths before deeper ones, whatever the key order', () => {
    const target: Record<string, unknown> = { markets: {} };
    applyChanges(target, { 'markets/1/status': 1, 'markets/1': { id: '1', status: 0, odds: {} } });
    expect(target).toEqual({ markets: { '1': { id: '1', status: 1, odds: {} } } });
    expect(orderedChangeKeys({ 'a/b/c': 1, a: 2, 'a/b': 3, x: 4 })).toEqual(['a', 'x', 'a/b', 'a/b/c']);
  });

  it('never pollutes prototypes and, lenient, replaces a non-object on the way', () => {
    const target: Record<string, unknown> = { meta: 5 };
    expect(() => applyChanges(target, { '__proto__/polluted': 1 })).toThrow(ChangePathError);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    applyChanges(target, { 'meta/a/b': 1 });
    expect(target).toEqual({ meta: { a: { b: 1 } } });
    expect(() => applyChanges({ meta: 5 }, { 'meta/a': 1 }, true)).toThrow(/not an object/);
  });
});
