import { describe, expect, it } from 'vitest';
import { sseParser } from './sse.js';

describe('sseParser', () => {
  it('splits events across chunks, skips comments, joins data lines', () => {
    const parse = sseParser();
    expect(parse('event: odds\ndata: {"a"')).toEqual([]);
    expect(parse(':1}\n\n: ping\n\nevent: bet\r\ndata: x\r\ndata: y\r\n\r\ndata: z\n\n')).toEqual([
      { event: 'odds', data: '{"a":1}' },
      { event: 'bet', data: 'x\ny' },
      { event: 'message', data: 'z' },
    ]);
  });
});
