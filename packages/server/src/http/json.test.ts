import { describe, expect, it } from 'vitest';
import { jsonDepthExceeds, MAX_JSON_DEPTH, parseStrictJson } from './json.js';

function fieldOf(text: string): unknown {
  try {
    parseStrictJson(text);
  } catch (e) {
    return (e as { details?: { field?: string } }).details?.field;
  }
  return 'parsed';
}

describe('strict JSON bodies', () => {
  it('parses plain JSON exactly like JSON.parse', () => {
    const text = '{"a":1,"b":[{"c":"x"},{"c":"y"}],"d":{"e":null},"f":"\\u00e9"}';
    expect(parseStrictJson(text)).toEqual(JSON.parse(text));
    expect(parseStrictJson('[1,2]')).toEqual([1, 2]);
    expect(parseStrictJson('"s"')).toBe('s');
  });

  it('reads an empty body as no body', () => {
    expect(parseStrictJson('')).toBeUndefined();
    expect(parseStrictJson('  \n')).toBeUndefined();
  });

  it('refuses duplicate keys, naming the key with its path', () => {
    expect(fieldOf('{"stake":"1","stake":"2"}')).toBe('body.stake');
    expect(fieldOf('{"legs":[{"odds":"1"},{"odds":"2","odds":"3"}]}')).toBe('body.legs[1].odds');
    expect(fieldOf('{"a":{"b":{"c":1,"c":1}}}')).toBe('body.a.b.c');
    expect(() => parseStrictJson('{"a":1,"a":1}')).toThrow('body.a: duplicate key');
  });

  it('allows the same key in different objects', () => {
    expect(parseStrictJson('[{"a":1},{"a":2}]')).toEqual([{ a: 1 }, { a: 2 }]);
    expect(parseStrictJson('{"a":{"a":{"a":1}}}')).toEqual({ a: { a: { a: 1 } } });
  });

  it('answers a text without a refused key at once and names every refused one, colons in strings included', () => {
    const clean = '{"a":"{\\"a\\":1}","b":[{"a":1},{"a":2}],"c":{"a":{"a":"a:b"}}}';
    expect(parseStrictJson(clean)).toEqual(JSON.parse(clean));
    expect(parseStrictJson('[{"a":1,"b":"a","c":["a","a"]}]')).toEqual([{ a: 1, b: 'a', c: ['a', 'a'] }]);
    expect(fieldOf('{"a":1,"b":{},"a":2}')).toBe('body.a');
    expect(fieldOf('{"a":1,"\\u0061":2}')).toBe('body.a');
    expect(fieldOf('{"x":{"__proto__":{}}}')).toBe('body.x.__proto__');
    const many = `{${Array.from({ length: 65 }, (_, i) => `"k${i}":${i}`).join(',')}}`;
    expect(parseStrictJson(many)).toEqual(JSON.parse(many));
  });

  it('refuses prototype-poisoning keys', () => {
    expect(fieldOf('{"__proto__":{"admin":true}}')).toBe('body.__proto__');
    expect(fieldOf('{"x":{"constructor":{"prototype":{}}}}')).toBe('body.x.constructor.prototype');
    expect(parseStrictJson('{"constructor":"ok"}')).toEqual({ constructor: 'ok' });
  });

  it('refuses what is not JSON', () => {
    for (const bad of ['{"a":1,}', '{a:1}', "{'a':1}", '{"a":1} // c', '{"a":01}', '{"a":1}x', 'NaN']) {
      expect(fieldOf(bad)).toBe('body');
    }
  });

  it('refuses a body nested deeper than the limit before parsing it, naming the body', () => {
    const deep = (n: number, open: string, close: string) => open.repeat(n) + close.repeat(n);
    expect(parseStrictJson(deep(MAX_JSON_DEPTH, '[', ']'))).toBeInstanceOf(Array);
    expect(fieldOf(deep(MAX_JSON_DEPTH + 1, '[', ']'))).toBe('body');
    expect(fieldOf(deep(100_000, '[', ']'))).toBe('body');
    expect(fieldOf(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`)).toBe('body');
    // unbalanced and unclosed: refused all the same, without a stack overflow
    expect(fieldOf('['.repeat(100_000))).toBe('body');
    expect(() => parseStrictJson(deep(100_000, '[', ']'))).toThrow('body: nested deeper than 64');
  });

  it('counts only brackets outside strings', () => {
    const brackets = '[{'.repeat(200);
    expect(jsonDepthExceeds(JSON.stringify({ name: brackets }), 2)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify({ name: `"${brackets}` }), 2)).toBe(false);
    expect(parseStrictJson(JSON.stringify({ name: brackets }))).toEqual({ name: brackets });
    expect(jsonDepthExceeds('[[["]"]]]', 3)).toBe(false);
    expect(jsonDepthExceeds('[[[["]"]]]]', 3)).toBe(true);
  });
});
