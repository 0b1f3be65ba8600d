import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSigningSecret } from '@bookie/sdk';
import { placeBody } from '@bookie/sdk/callbacks/fixtures';
import { createTestDatabase, type TestDatabase } from '@bookie/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WALLET_MIGRATIONS_DIR } from '../db/database.js';
import { runWalletCli, startWalletProcess, type WalletProcess } from '../testing/process.js';
import { sendCallback } from '../testing/send-callback.js';
import { WalletApi } from '../testing/wallet-api.js';

const secret = generateSigningSecret();
let wallet: WalletProcess;
let pg: TestDatabase | undefined;
let api: WalletApi;

beforeAll(async () => {
  // on Postgres (DATABASE_URL set) the wallet gets a private database of its own; else an in-memory PGlite
  if (process.env.DATABASE_URL) pg = await createTestDatabase({ migrationsDir: WALLET_MIGRATIONS_DIR });
  wallet = await startWalletProcess({
    secret,
    dbUrl: pg?.url,
    // --currency: the operator declares the one currency of every session (the callbacks below name none)
    args: ['--created-rate', '1', '--fault-seed', '3', '--currency', 'EUR'],
  });
  api = new WalletApi(wallet.url);
});
afterAll(async () => {
  await wallet?.kill('SIGKILL');
  await pg?.close();
});

const player = 'e2e-player';
const place = (stake: string) =>
  sendCallback(
    wallet.url,
    'place',
    placeBody({ bet_player_id: player, bet_id: crypto.randomUUID(), bet_stake: stake }),
    { secret },
  );

describe('bookie-wallet as a process', () => {
  it('deposits and reports balances through the CLI against the running wallet', async () => {
    const dep = await runWalletCli(['deposit', player, '100.25', '--currency', 'EUR', '--url', wallet.url]);
    expect(dep.code, dep.stderr).toBe(0);
    expect(JSON.parse(dep.stdout)).toMatchObject({
      available: '100.250000',
      held: '0.000000',
      applied: true,
    });
    const bal = await runWalletCli(['balance', player, '--url', wallet.url]);
    expect(JSON.parse(bal.stdout)).toEqual({
      player_id: player,
      balances: [{ currency: 'EUR', available: '100.250000', held: '0.000000' }],
    });
  });

  it('injects faults configured at start and at runtime', async () => {
    // --created-rate 1 at start: successes come back 201 (D8)
    const created = await place('1.000000');
    expect(created.status).toBe(201);
    await api.setFaults({ created201Rate: 0, error500Rate: 1 });
    const failed = await place('1.000000');
    expect(failed.status).toBe(500);
    expect(await api.balance(player)).toEqual({ available: '99.250000', held: '1.000000' }); // nothing applied
    await api.setFaults({ error500Rate: 0, lostAnswerRate: 1 });
    const body = placeBody({ bet_player_id: player, bet_id: 'e2e-b2', bet_stake: '2.000000' });
    expect((await sendCallback(wallet.url, 'place', body, { secret })).status).toBe(500);
    expect(await api.balance(player)).toEqual({ available: '97.250000', held: '3.000000' }); // applied
    await api.setFaults({ lostAnswerRate: 0, dropRate: 1 });
    const dropped = placeBody({ bet_player_id: player, bet_id: 'e2e-b3', bet_stake: '3.000000' });
    await expect(sendCallback(wallet.url, 'place', dropped, { secret })).rejects.toThrow();
    await api.setFaults({ dropRate: 0, delayRate: 1, delayMs: 300 });
    const t0 = Date.now();
    // the retries replay the stored answers: nothing moves twice
    expect((await sendCallback(wallet.url, 'place', body, { secret })).status).toBe(204);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
    await api.setFaults({ delayRate: 0 });
    expect((await sendCallback(wallet.url, 'place', dropped, { secret })).status).toBe(204);
    expect(await api.balance(player)).toEqual({ available: '94.250000', held: '6.000000' });
    expect((await api.checkLedger()).ok).toBe(true);
  });

  it('shuts down gracefully on SIGTERM', async () => {
    expect(await wallet.kill('SIGTERM')).toBe(0);
    expect(wallet.output()).toContain(`bookie-wallet listening on ${wallet.url}`);
  });
});

describe('bookie-wallet straight on the database', () => {
  it('deposits and reads balances without a running wallet; bad input exits 2', async () => {
    // Postgres when DATABASE_URL is set (a private database), else a PGlite data directory
    const dir = mkdtempSync(join(tmpdir(), 'wallet-'));
    const db = process.env.DATABASE_URL ? await createTestDatabase() : undefined;
    const where = db?.url ? ['--db-url', db.url] : ['--data-dir', dir];
    try {
      const dep = await runWalletCli(['deposit', 'p9', '5', ...where, '--reference', 'r1']);
      expect(dep.code, dep.stderr).toBe(0);
      const bal = await runWalletCli(['balance', 'p9', ...where]);
      expect(JSON.parse(bal.stdout).balances).toEqual([
        { currency: 'EUR', available: '5.000000', held: '0.000000' },
      ]);
      const bad = await runWalletCli(['deposit', 'p9', '1.0000001', ...where]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/^error: amount: must be a whole number of micro-units/);
      const badFlag = await runWalletCli(['start', '--fail-rate', '2', '--data-dir', 'memory']);
      expect(badFlag.code).toBe(2);
      expect(badFlag.stderr).toContain('invalid setting --fail-rate');
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await db?.close();
    }
  }, 90_000); // on PGlite, two CLI processes each boot the database from disk: slow on a loaded machine
});
