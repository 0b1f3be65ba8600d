import { DomainError, ERROR_CODES } from '@bookie/core';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { HTTP_STATUS, installErrorHandler } from './error-handler.js';

async function appWith(throwIt: () => never) {
  const app = Fastify({ ajv: { customOptions: { removeAdditional: false, coerceTypes: false } } });
  installErrorHandler(app);
  app.get('/boom', async () => throwIt());
  app.post(
    '/strict',
    {
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['stake'],
          properties: {
            stake: { type: 'string' },
            legs: { type: 'array', items: { type: 'object', properties: { odds: { type: 'string' } } } },
          },
        },
      },
    },
    async () => ({ ok: true }),
  );
  await app.ready();
  return app;
}

describe('error handler', () => {
  it('maps every domain code to its status with the standard body', async () => {
    for (const code of ERROR_CODES) {
      const app = await appWith(() => {
        throw new DomainError(code, `failed ${code}`, { field: 'x' });
      });
      const res = await app.inject({ method: 'GET', url: '/boom' });
      expect(res.statusCode).toBe(HTTP_STATUS[code]);
      if (code === 'internal_error') {
        expect(res.json()).toEqual({ error: { code, message: 'internal error', details: {} } });
      } else {
        expect(res.json()).toEqual({ error: { code, message: `failed ${code}`, details: { field: 'x' } } });
      }
    }
  });

  it('hides unexpected errors behind internal_error', async () => {
    const app = await appWith(() => {
      throw new Error('secret stack');
    });
    const res = await app.inject({ method: 'GET', url: '/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret');
    expect(res.json().error.code).toBe('internal_error');
  });

  it('names the field of a schema violation', async () => {
    const app = await appWith(() => {
      throw new Error('unused');
    });
    const missing = await app.inject({ method: 'POST', url: '/strict', payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatchObject({
      code: 'validation_error',
      details: { field: 'body.stake' },
    });
    const unknown = await app.inject({ method: 'POST', url: '/strict', payload: { stake: '1', bogus: 1 } });
    expect(unknown.json().error.details.field).toBe('body.bogus');
    const wrongType = await app.inject({
      method: 'POST',
      url: '/strict',
      payload: { stake: '1', legs: [{ odds: 2 }] },
    });
    expect(wrongType.json().error.details.field).toBe('body.legs[0].odds');
  });

  it('answers unknown routes with not_found', async () => {
    const app = await appWith(() => {
      throw new Error('unused');
    });
    const res = await app.inject({ method: 'GET', url: '/missing?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toEqual({ code: 'not_found', message: 'no route GET /missing', details: {} });
  });
});
