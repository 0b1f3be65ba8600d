import { describe, expect, it } from 'vitest';
import { withRequestId } from './enqueue-callbacks.js';

describe('a callback body with its request_id', () => {
  const id = 'a0c7c7a4-3f51-4c39-9a53-1f3f0d2a6c10';
  const spread = (body: Record<string, unknown>) => JSON.stringify({ request_id: id, ...body });

  it('is the bytes of the body copied behind request_id, for any body', () => {
    const bodies: Record<string, unknown>[] = [
      {},
      { bet_id: 'b', amount: '1.000000' },
      { bet_id: 'b', gone: undefined, list: [1, 'two', { x: null }], nested: { z: 1, a: '"q"\\' } },
      { only_undefined: undefined },
      { text: 'é – \u2028 \ud83d\ude00', n: -0, big: 1e21 },
      // array-index keys go first in an object: the copy puts them before request_id
      { bet_id: 'b', 7: 'seven', 10: 'ten' },
      { 4294967295: 'not an index', a: 1 },
      // a body's own request_id keeps the first place with its own value
      { bet_id: 'b', request_id: 'theirs' },
      { toJSON: () => ({ replaced: true }), bet_id: 'b' },
    ];
    for (const body of bodies) expect(withRequestId(id, body)).toBe(spread(body));
  });
});
