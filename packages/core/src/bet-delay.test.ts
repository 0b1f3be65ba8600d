import { describe, expect, it } from 'vitest';
import { expectFieldError } from '../test/helpers.js';
import { clientAppliedDelay, configuredBetDelay, platformBetDelay, remainingBetDelay } from './bet-delay.js';

describe('bet delay (spec 03 "Bet delay")', () => {
  it.each([
    [0, 9, 9],
    [6, 9, 3],
    [9, 9, 0],
    [12, 9, 0],
  ])('client %is, configured %is → platform %is', (client, configured, applied) => {
    expect(remainingBetDelay(configured, client)).toBe(applied);
  });

  it('takes the largest configured level; delays do not add up', () => {
    expect(configuredBetDelay(3, undefined, 9, 5)).toBe(9);
    expect(configuredBetDelay()).toBe(0);
  });

  it('derives the client delay from the creation time', () => {
    expect(clientAppliedDelay(1_000, 7_000)).toBe(6);
    expect(clientAppliedDelay(7_000, 1_000)).toBe(0);
    expect(remainingBetDelay(9, clientAppliedDelay(1_000, 7_000))).toBe(3);
  });

  it('rejects negative or non-finite seconds', () => {
    expectFieldError(() => remainingBetDelay(-1, 0), 'configured_delay');
    expectFieldError(() => remainingBetDelay(9, Number.NaN), 'client_delay');
    expectFieldError(() => configuredBetDelay(Number.POSITIVE_INFINITY), 'configured_delay');
    expectFieldError(() => clientAppliedDelay(Number.NaN, 0), 'created_at');
  });
});

describe('platformBetDelay (D34)', () => {
  it('holds the spec 03 table with the largest configured level', () => {
    for (const [client, expected] of [
      [0, 9],
      [6, 3],
      [9, 0],
      [12, 0],
    ] as const) {
      expect(
        platformBetDelay({
          levels: [2, 9, undefined, 5],
          clientAppliedS: client,
          unstable: false,
          instabilityExtraS: 3,
        }),
      ).toBe(expected);
    }
  });

  it('adds the instability extra while the feed is unstable', () => {
    expect(platformBetDelay({ levels: [9], clientAppliedS: 6, unstable: true, instabilityExtraS: 3 })).toBe(
      6,
    );
    expect(() =>
      platformBetDelay({ levels: [9], clientAppliedS: 0, unstable: true, instabilityExtraS: -1 }),
    ).toThrow(/instability_extra/);
  });
});
