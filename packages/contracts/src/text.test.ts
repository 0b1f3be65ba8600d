import { describe, expect, it } from 'vitest';
import { findTextViolation, textProblem } from './text.js';

describe('the text rule', () => {
  it('accepts text, including paired surrogates (emoji)', () => {
    expect(textProblem('Arsenal – Chelsea 😀')).toBeUndefined();
    expect(findTextViolation({ a: ['x', { b: 'y' }], ключ: 1 }, 'body')).toBeUndefined();
  });
  it('refuses NUL and lone surrogates, naming the field', () => {
    expect(textProblem('a\u0000')).toBe('contains a NUL character');
    expect(textProblem('\uD83D')).toBe('contains a lone UTF-16 surrogate');
    expect(textProblem('\uDE00x')).toBe('contains a lone UTF-16 surrogate');
    expect(findTextViolation({ market_ids: ['1', 'a\u0000'] }, 'body')).toEqual({
      field: 'body.market_ids[1]',
      reason: 'contains a NUL character',
    });
    expect(findTextViolation({ '\uD800': 1 }, 'body')?.field).toBe('body["\\ud800"]');
    expect(findTextViolation('x\u0000', 'params')?.field).toBe('params');
  });
});
