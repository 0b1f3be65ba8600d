import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomainError } from '@bookie/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBookie } from '../testing/process.js';
import { calcFromText } from './calc.js';

const E2 = {
  bet_type: 'express',
  stake: '100',
  legs: [
    { odds: '2.07', status: 4 },
    { odds: '2.36', status: 1 },
    { odds: '2.01', status: 1 },
  ],
};

describe('calcFromText', () => {
  it('settles a bet', () => {
    expect(calcFromText(JSON.stringify(E2))).toEqual({
      payout: '237.180000',
      settle_amount: '237.180000',
      settle_type: 1,
      insurance_refund: '0.000000',
    });
  });

  it('names the field on bad input', () => {
    expect(() => calcFromText('{')).toThrow(DomainError);
    expect(() => calcFromText('{')).toThrow(/^input: is not valid JSON/);
    expect(() => calcFromText(JSON.stringify({ ...E2, stake: '1e2' }))).toThrow(
      /^stake: must not use an exponent/,
    );
  });
});

describe('bookie calc (real process)', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bookie-calc-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads stdin and prints the result', async () => {
    const r = await runBookie(['calc'], { input: JSON.stringify(E2) });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      payout: '237.180000',
      settle_amount: '237.180000',
      settle_type: 1,
      insurance_refund: '0.000000',
    });
  });

  it('reads a file: a freebet bet', async () => {
    const file = join(dir, 'bet.json');
    await writeFile(
      file,
      JSON.stringify({
        bet_type: 'single',
        stake: '10',
        freebet_amount: '10',
        legs: [{ odds: '2.5', status: 1 }],
      }),
    );
    const r = await runBookie(['calc', file]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      payout: '25.000000',
      settle_amount: '15.000000',
      settle_type: 1,
    });
  });

  it('exits 2 with one line naming the field', async () => {
    const bad = { ...E2, legs: [E2.legs[0], { odds: '0.5', status: 1 }] };
    const r = await runBookie(['calc'], { input: JSON.stringify(bad) });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toEqual(['error: legs[1].odds: odds must be at least 1, got "0.5"']);
  });

  it('exits 2 on malformed JSON and on a missing file', async () => {
    const r = await runBookie(['calc'], { input: '{"bet_type":' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: input: is not valid JSON/);
    const missing = await runBookie(['calc', join(dir, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toMatch(/^error: file: cannot read .*nope\.json \(ENOENT\)/);
  });
});
