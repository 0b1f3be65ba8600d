import { describe, expect, it } from 'vitest';
import { findTextViolation, hasControlCharacter, PLAIN_TEXT_PATTERN, textProblem } from './text.js';

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

  it('finds control and bidirectional formatting characters, and only those', () => {
    for (const c of [
      '\u0000',
      '\t',
      '\n',
      '\u001F',
      '\u007F',
      '\u0085',
      '\u009F',
      '\u061C',
      '\u200E',
      '\u200F',
    ]) {
      expect(hasControlCharacter(`a${c}b`), JSON.stringify(c)).toBe(true);
    }
    for (let c = 0x202a; c <= 0x202e; c++) expect(hasControlCharacter(String.fromCharCode(c))).toBe(true);
    for (let c = 0x2066; c <= 0x2069; c++) expect(hasControlCharacter(String.fromCharCode(c))).toBe(true);
    for (const ok of [
      'Arsenal – Chelsea',
      'Ünïcödé 😀',
      'עברית',
      'العربية',
      '{$competitor1} vs {$competitor2}',
      '\u200D',
    ]) {
      expect(hasControlCharacter(ok), ok).toBe(false);
      expect(new RegExp(PLAIN_TEXT_PATTERN, 'u').test(ok)).toBe(true);
    }
    expect(new RegExp(PLAIN_TEXT_PATTERN, 'u').test('a\u202Eb')).toBe(false);
  });
});
