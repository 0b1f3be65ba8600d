import { describe, expect, it } from 'vitest';
import { statementNames } from './database.js';

describe('statementNames', () => {
  const long = (middle: string) =>
    `SELECT ${'a, '.repeat(60)}${middle}${', b'.repeat(60)} FROM t WHERE id = $1`;

  it('names each distinct text once, in order of first use, short or long, built anew or not', () => {
    const nameOf = statementNames(10);
    expect(nameOf('SELECT 1 WHERE $1')).toBe('bookie_0');
    expect(nameOf(long('x'))).toBe('bookie_1');
    expect(nameOf(['SELECT 1', 'WHERE $1'].join(' '))).toBe('bookie_0');
    expect(nameOf(`${long('x').slice(0, 100)}${long('x').slice(100)}`)).toBe('bookie_1');
  });

  it('tells apart long texts of one length, head and tail', () => {
    const nameOf = statementNames(10);
    const [x, y, z] = [long('x'), long('y'), long('z')];
    expect(x.length).toBe(y.length);
    expect([nameOf(x), nameOf(y), nameOf(z), nameOf(y), nameOf(x)]).toEqual([
      'bookie_0',
      'bookie_1',
      'bookie_2',
      'bookie_1',
      'bookie_0',
    ]);
  });

  it('names no text past the first max, short or long, and keeps the names given', () => {
    const nameOf = statementNames(2);
    expect(nameOf(long('x'))).toBe('bookie_0');
    expect(nameOf('SELECT $1')).toBe('bookie_1');
    expect(nameOf(long('y'))).toBeUndefined();
    expect(nameOf('SELECT $2')).toBeUndefined();
    expect(nameOf(long('x'))).toBe('bookie_0');
    expect(nameOf('SELECT $1')).toBe('bookie_1');
  });
});
