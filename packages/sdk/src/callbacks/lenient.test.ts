import type { CallbackName } from '@bookie/contracts';
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { CALLBACK_FIXTURES, placeBody, prepareCallback, settleBody } from './fixtures.js';
import { createCallbackHandler } from './handler.js';
import { LENIENT_CALLBACK_BODIES, readCallbackBody } from './lenient.js';

type Json = Record<string, unknown>;

function without(body: Json, ...keys: string[]): Json {
  const out = { ...body };
  for (const k of keys) delete out[k];
  return out;
}

describe('readCallbackBody', () => {
  it('fills absent optional ids with "" and absent arrays with [], keeping unknown fields', () => {
    const sent = {
      ...without(placeBody() as unknown as Json, 'bet_freebet_id', 'bet_system_sizes', 'competitors'),
      x: 1,
    };
    const read = readCallbackBody('place', sent);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.body).toMatchObject({ bet_freebet_id: '', bet_system_sizes: [], competitors: [], x: 1 });
    expect(sent).not.toHaveProperty('bet_freebet_id');
  });

  it('fills every callback body as TypeBox fills its lenient schema, on a copy of what was sent', () => {
    for (const name of Object.keys(LENIENT_CALLBACK_BODIES) as CallbackName[]) {
      if (name === 'heartbeat') continue;
      const schema = LENIENT_CALLBACK_BODIES[name] as TSchema;
      const optional = Object.keys(schema.properties).filter((k) => !schema.required?.includes(k));
      const full = CALLBACK_FIXTURES[name]() as unknown as Json;
      for (const sent of [full, without(full, ...optional)]) {
        const read = readCallbackBody(name, sent);
        expect(read.ok, name).toBe(true);
        if (!read.ok) continue;
        expect(read.body, name).toEqual(Value.Default(schema, structuredClone(sent)));
        expect(read.body, name).not.toBe(sent);
      }
    }
  });

  it('inPlace fills the value it is handed and returns it; each filled array is new', () => {
    const sent = without(
      placeBody() as unknown as Json,
      'bet_bet_builder_odds',
      'bet_system_sizes',
      'competitors',
    );
    const read = readCallbackBody('place', sent, { inPlace: true });
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.body).toBe(sent);
    expect(sent).toMatchObject({ bet_bet_builder_odds: [], bet_system_sizes: [], competitors: [] });
    expect(sent.bet_system_sizes).not.toBe(sent.competitors);
    const again = readCallbackBody('place', without(sent, 'competitors'), { inPlace: true });
    if (!again.ok) throw new Error('refused');
    expect(again.body.competitors).toEqual([]);
    expect(again.body.competitors).not.toBe(sent.competitors);
  });

  it('settle without restrictions gets []; amounts keep the decimals they were sent with', () => {
    const read = readCallbackBody('settle', {
      ...without(settleBody() as unknown as Json, 'restrictions'),
      settle_amount: '18.5',
    });
    expect(read.ok && read.body.restrictions).toEqual([]);
    expect(read.ok && read.body.settle_amount).toBe('18.5');
  });

  it('strict checks the exact contract and names the field', () => {
    const read = readCallbackBody(
      'place',
      { ...(placeBody() as unknown as Json), bet_stake: '10' },
      { strict: true },
    );
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.issues[0]?.field).toBe('bet_stake');
  });

  it('refuses amounts with more than 12 decimals and exponents even when lenient', () => {
    for (const bet_stake of ['1.0000000000001', '1e3', '-1', '']) {
      expect(readCallbackBody('place', { ...(placeBody() as unknown as Json), bet_stake }).ok).toBe(false);
    }
  });
});

describe('createCallbackHandler strict option', () => {
  const loose = without(placeBody() as unknown as Json, 'bet_boost_id');
  const request = () => {
    const p = prepareCallback('place', loose as never);
    return { method: 'POST', path: p.path, headers: p.headers, body: p.body };
  };
  const handlers = { place: () => undefined };

  it('answers 204 by default and 400 validation_error with strict: true', async () => {
    const lenient = createCallbackHandler({ handlers, verifySignature: false });
    expect((await lenient.handle(request())).status).toBe(204);
    const strict = createCallbackHandler({ handlers, verifySignature: false, strict: true });
    const res = await strict.handle(request());
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error).toMatchObject({
      code: 'validation_error',
      data: { field: 'body.bet_boost_id' },
    });
  });
});
