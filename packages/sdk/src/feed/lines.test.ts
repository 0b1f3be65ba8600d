import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineSplitter } from './lines.js';

function collect(chunks: Uint8Array[]): string[] {
  const out: string[] = [];
  const s = new LineSplitter((l) => out.push(l));
  for (const c of chunks) s.push(c);
  return out;
}

describe('LineSplitter', () => {
  const text = '{"name":"Zürich – 東京 ⚽"}\n{"a":1}\r\n\n{"b":"😀"}\n';
  const bytes = new TextEncoder().encode(text);
  const expected = ['{"name":"Zürich – 東京 ⚽"}', '{"a":1}', '{"b":"😀"}'];

  it('frames lines split at every byte position, multi-byte characters included', () => {
    for (let i = 0; i <= bytes.length; i++) {
      expect(collect([bytes.subarray(0, i), bytes.subarray(i)])).toEqual(expected);
    }
    expect(collect([...bytes].map((b) => Uint8Array.of(b)))).toEqual(expected);
  });

  it('frames any split into any number of chunks (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 12 }), (cuts) => {
        const points = [...new Set([0, ...cuts, bytes.length])].sort((a, b) => a - b);
        const chunks = points.slice(1).map((p, i) => bytes.slice(points[i], p));
        expect(collect(chunks)).toEqual(expected);
      }),
    );
  });

  it('holds back an incomplete last line and rejects invalid UTF-8 and endless lines', () => {
    const s = new LineSplitter(() => {});
    s.push(new TextEncoder().encode('{"x":'));
    expect(s.bufferedBytes).toBe(5);
    expect(() => new LineSplitter(() => {}).push(Uint8Array.of(0xff, 0x0a))).toThrow(TypeError);
    expect(() => new LineSplitter(() => {}, 4).push(new TextEncoder().encode('12345'))).toThrow(RangeError);
  });
});
