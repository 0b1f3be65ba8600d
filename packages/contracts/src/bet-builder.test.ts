import { BUILDER_REFUSAL_CODES } from '@bookie/core';
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import {
  BuilderCalculateAnswer,
  BuilderCalculateBody,
  BuilderRefusalReason,
  BuilderSelectionsAnswer,
  BuilderSelectionsBody,
  BuilderSettingsBody,
  BuilderSettingsView,
} from './bet-builder.js';

describe('bet builder contracts', () => {
  it('each example satisfies its schema', () => {
    for (const s of [
      BuilderSelectionsBody,
      BuilderSelectionsAnswer,
      BuilderCalculateBody,
      BuilderCalculateAnswer,
      BuilderSettingsBody,
      BuilderSettingsView,
    ]) {
      const examples = (s as TSchema).examples as unknown[];
      expect(examples.length).toBeGreaterThan(0);
      for (const e of examples)
        expect([...Value.Errors(s, e)].map((x) => `${x.path} ${x.message}`)).toEqual([]);
    }
  });

  it("the refusal reasons are core's", () => {
    expect(BuilderRefusalReason.anyOf.map((l) => l.const)).toEqual([...BUILDER_REFUSAL_CODES]);
  });

  it('refuses a calculate body without legs, with too many, or with unknown fields', () => {
    const leg = { market_id: '1', odd_id: '1' };
    expect(Value.Check(BuilderCalculateBody, { sport_event_id: 'e', legs: [] })).toBe(false);
    expect(Value.Check(BuilderCalculateBody, { sport_event_id: 'e', legs: Array(11).fill(leg) })).toBe(false);
    expect(Value.Check(BuilderCalculateBody, { sport_event_id: 'e', legs: [{ ...leg, odds: '2.0' }] })).toBe(
      false,
    );
    expect(
      Value.Check(BuilderCalculateAnswer, { available: true, odds: '3.29', legs: [], selections: [] }),
    ).toBe(false);
  });
});
