import { describe, expect, it } from 'vitest';
import { BoundedMemo } from './bounded-memo.js';

describe('BoundedMemo', () => {
  it('keeps values by key, false included, and empties itself when full before keeping the next', () => {
    const m = new BoundedMemo<boolean>(2);
    expect(m.get('a')).toBeUndefined();
    expect(m.keep('a', false)).toBe(false);
    expect(m.get('a')).toBe(false);
    m.keep('b', true);
    expect(m.get('b')).toBe(true);
    m.keep('c', true);
    expect(m.get('a')).toBeUndefined();
    expect(m.get('b')).toBeUndefined();
    expect(m.get('c')).toBe(true);
  });
});
