import { describe, expect, it } from 'vitest';
import { pgArray } from './pg-array.js';

describe('Postgres array literals', () => {
  it('quotes every element, in one join when nothing needs escaping', () => {
    expect(pgArray([])).toBe('{}');
    expect(pgArray(['a', 'b c'])).toBe('{"a","b c"}');
    expect(pgArray([1, 2n, '1.5'])).toBe('{"1","2","1.5"}');
    expect(pgArray([true, false])).toBe('{"true","false"}');
  });

  it('escapes quotes and backslashes, writes null as NULL and a date as ISO 8601', () => {
    expect(pgArray(['a"b', 'c\\d', null])).toBe('{"a\\"b","c\\\\d",NULL}');
    expect(pgArray([new Date(Date.UTC(2030, 0, 2, 3, 4, 5, 6)), 'x'])).toBe(
      '{"2030-01-02T03:04:05.006Z","x"}',
    );
    expect(pgArray([null, 'plain', '{"k":"v\\\\"}', true])).toBe(
      '{NULL,"plain","{\\"k\\":\\"v\\\\\\\\\\"}","true"}',
    );
  });

  it('quotes a text with quotes the same whatever else it holds: control characters, surrogates, emoji', () => {
    const manual = (t: string) => `"${t.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
    const texts = ['"a\nb"', '"\u0000\t\\"', '"\ud800" alone', '"😀"', '"\u2028\u007f"', '{"k":"v\\\\"}'];
    for (const t of texts) expect(pgArray([t, null])).toBe(`{${manual(t)},NULL}`);
  });
});
