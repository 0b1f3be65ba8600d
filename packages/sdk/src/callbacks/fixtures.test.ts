import { CALLBACK_NAMES, callbackBodyIssues } from '@bookie/contracts';
import { describe, expect, it } from 'vitest';
import { buildCallbackFixture, CALLBACK_FIXTURES } from './fixtures.js';

describe('callback fixtures', () => {
  it('has a builder for every callback, each making a body valid against its schema', () => {
    expect(Object.keys(CALLBACK_FIXTURES)).toEqual(CALLBACK_NAMES);
    for (const name of CALLBACK_NAMES)
      expect(callbackBodyIssues(name, buildCallbackFixture(name))).toEqual([]);
  });

  it("writes a decline's max_bet as callbacks carry it: a JSON number, and the contract refuses a string", () => {
    const decline = buildCallbackFixture('decline');
    expect(decline?.restrictions[0]?.context).toEqual({ max_bet: 5 });
    const asString = { ...decline, restrictions: [{ type: 'max_bet', context: { max_bet: '5.000000' } }] };
    expect(callbackBodyIssues('decline', asString).map((i) => i.field)).toContain(
      'restrictions[0].context.max_bet',
    );
  });

  it('lays overrides over the top-level fields and makes a fresh request_id each time', () => {
    const a = buildCallbackFixture('settle', { bet_id: 'b-9', settle_amount: '0.000000', settle_type: 3 });
    const b = buildCallbackFixture('settle');
    expect(a).toMatchObject({ bet_id: 'b-9', settle_amount: '0.000000', settle_type: 3 });
    expect(a?.request_id).not.toBe(b?.request_id);
    expect(buildCallbackFixture('heartbeat')).toBeNull();
  });
});
