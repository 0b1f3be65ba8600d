import { FormatRegistry, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { BetView, CreateWhiteLabelBody, EXAMPLED_SCHEMAS, PlaceBetRequest } from './index.js';

// the formats the HTTP layer checks (Fastify's ajv-formats), for TypeBox's checker
FormatRegistry.Set('uuid', (v) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v));
FormatRegistry.Set('date-time', (v) =>
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(v),
);

describe('examples of the HTTP bodies and answers', () => {
  it('are attached to the schemas the routes use', () => {
    for (const s of [CreateWhiteLabelBody, PlaceBetRequest, BetView]) {
      expect((s as TSchema).examples?.length).toBeGreaterThan(0);
    }
    expect(Object.keys(EXAMPLED_SCHEMAS).length).toBeGreaterThan(40);
  });

  it('each satisfy their schema', () => {
    const bad: string[] = [];
    for (const [name, schema] of Object.entries(EXAMPLED_SCHEMAS)) {
      for (const example of schema.examples as unknown[]) {
        const first = [...Value.Errors(schema, example)][0];
        if (first) bad.push(`${name}: ${first.path} ${first.message}`);
      }
    }
    expect(bad).toEqual([]);
  });
});
