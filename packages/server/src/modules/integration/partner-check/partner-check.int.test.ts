import { generateSigningSecret } from '@bookie/sdk';
import { startTestWallet, type TestWallet } from '@bookie/wallet/testing/in-process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrokenPartner, startBrokenPartner } from './broken-partner.testing.js';
import { runPartnerCheck } from './run-partner-check.js';
import { SCENARIOS } from './scenarios.js';

const ids = (r: { scenarios: { id: string; status: string }[] }, status: string) =>
  r.scenarios.filter((s) => s.status === status).map((s) => s.id);

const NOT_PROVOKED = [
  'place_error_player_limit_crossed',
  'place_error_auth_session_unknown',
  'place_error_auth_credentials_expired',
];

/** The reference wallet (on the lenient SDK) passes every scenario the check can provoke: no failure at all. */
function expectNoFailure(report: Awaited<ReturnType<typeof runPartnerCheck>>) {
  expect(report.scenarios.filter((x) => x.status === 'fail').map((x) => `${x.id}: ${x.message}`)).toEqual([]);
}

describe(`the partner check against the reference wallet (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  const secret = generateSigningSecret();
  let wallet: TestWallet;
  beforeAll(async () => {
    wallet = await startTestWallet({ secret });
  });
  afterAll(async () => {
    await wallet?.close();
  });

  it('passes every scenario it can play, reading the balance from the wallet, and the ledger stays whole', async () => {
    await wallet.api.deposit('check-player', '100.000000');
    const report = await runPartnerCheck({ callbackUrl: wallet.url, secret, playerId: 'check-player' });
    expect(report.balance_source).toContain('/players/{player}/balance');
    expectNoFailure(report);
    expect(ids(report, 'unsupported')).toEqual([]);
    expect(ids(report, 'not_provoked')).toEqual(NOT_PROVOKED);
    expect(report.scenarios.map((s) => s.id)).toEqual(SCENARIOS.map((s) => s.id));
    const last = report.scenarios.at(-1);
    expect(last?.observed_balance).toEqual(last?.expected_balance);
    expect(await wallet.api.balance('check-player')).toEqual(last?.expected_balance);
    expect((await wallet.api.checkLedger('check-player')).ok).toBe(true);
  });

  it('accepts 201 as well as 204 (DECISIONS D8)', async () => {
    await wallet.api.deposit('check-201', '100.000000');
    wallet.faults.update({ created201Rate: 1 });
    try {
      const report = await runPartnerCheck({ callbackUrl: wallet.url, secret, playerId: 'check-201' });
      expectNoFailure(report);
      const statuses = new Set(report.scenarios.flatMap((s) => s.answers.map((a) => a.status)));
      expect(statuses.has(201)).toBe(true);
    } finally {
      wallet.faults.update({ created201Rate: 0 });
    }
  });

  it('fails every scenario when the signing secret is wrong (the wallet refuses unsigned callbacks)', async () => {
    const report = await runPartnerCheck({
      callbackUrl: wallet.url,
      secret: generateSigningSecret(),
      playerId: 'check-player',
      only: ['place_accept', 'settle_win'],
    });
    expect(ids(report, 'fail')).toEqual(['place_accept', 'settle_win']);
    expect(report.ok).toBe(false);
  });
});

describe('the partner check against a broken partner', () => {
  let partner: BrokenPartner;
  beforeAll(async () => {
    partner = await startBrokenPartner();
    partner.deposit('check-player', '100.000000');
  });
  afterAll(async () => {
    await partner?.close();
  });

  it('fails exactly the scenarios the partner gets wrong and reports missing cash-out as unsupported', async () => {
    const report = await runPartnerCheck({
      callbackUrl: partner.url,
      playerId: 'check-player',
      provoke: { unknownSession: { session: 'unknown' }, limitedPlayer: 'limited' },
    });
    expect(ids(report, 'fail')).toEqual([
      'place_error_player_limit_crossed',
      'duplicate_settle',
      'unknown_fields',
    ]);
    expect(ids(report, 'unsupported')).toEqual(['cash_out_accepted', 'cash_out_declined']);
    expect(ids(report, 'not_provoked')).toEqual(['place_error_auth_credentials_expired']);
    expect(report.scenarios.find((s) => s.id === 'place_error_auth_session_unknown')?.status).toBe('pass');
    expect(report.scenarios.find((s) => s.id === 'place_error_player_limit_crossed')?.message).toMatch(
      /expected 400 with error.code player_limit_crossed, got 400/,
    );
    expect(report.ok).toBe(false);
    const dup = report.scenarios.find((s) => s.id === 'duplicate_settle');
    expect(dup?.message).toMatch(/balance should be available/);
    expect(report.scenarios.find((s) => s.id === 'unknown_fields')?.message).toMatch(/500/);
  });

  it('reports the expected balance only when told not to read it, and refuses an unreadable balance URL', async () => {
    const report = await runPartnerCheck({
      callbackUrl: partner.url,
      playerId: 'check-player',
      balanceUrl: false,
      only: ['place_accept'],
    });
    expect(report.balance_source).toBeNull();
    expect(report.scenarios[0]).toMatchObject({
      status: 'pass',
      expected_balance: { available: '-2.000000' },
    });
    expect(report.scenarios[0]?.observed_balance).toBeUndefined();
    await expect(
      runPartnerCheck({
        callbackUrl: partner.url,
        playerId: 'check-player',
        balanceUrl: `${partner.url}/nowhere`,
      }),
    ).rejects.toThrow(
      /cannot read the balance at .*\/nowhere\/players\/\{player\}\/balance: balance answered 404/,
    );
  });
});
