import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CreateWhiteLabelBody } from '@bookie/contracts';
import { startWalletProcess, type WalletProcess } from '@bookie/wallet/testing/process';
import { WalletApi } from '@bookie/wallet/testing/wallet-api';
import { sampleEvent } from '../modules/trading/fixtures.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { createPartner, createSession, partnerToken, TEST_ADMIN_TOKEN, type TestPartner } from './partner.js';
import { type BookieProcess, startBookie } from './process.js';
import { waitUntil } from './scripted-partner.js';

/**
 * The whole platform as separate real processes for end-to-end tests: a `bookie start` process on its own
 * database (a Postgres test database when DATABASE_URL is set, else PGlite in a temporary directory, so it survives
 * a restart), the reference wallet as another process (the partner's callback server, verifying signatures), and
 * a white label wired to it.
 */
export interface TestPlatform {
  bookie: BookieProcess;
  wallet: WalletProcess;
  walletApi: WalletApi;
  partner: TestPartner;
  accessToken: string;
  /** `bookie start` arguments naming its database (for restarts). */
  dbArgs: string[];
  /** Calls Bookie's HTTP API. */
  call(
    method: string,
    path: string,
    opts?: { token?: string; body?: unknown },
    // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the route answers
  ): Promise<{ status: number; json: any }>;
  /** Creates a session token for a player; its params carry the session's currency (EUR unless `params` name one). */
  session(playerId: string, params?: Record<string, unknown>): Promise<string>;
  /**
   * Kills Bookie (default SIGKILL) and starts it again on the same database; `whileStopped` runs in between (e.g.
   * to write to the database, which a PGlite process holds while it runs).
   */
  restartBookie(
    signal?: NodeJS.Signals,
    env?: NodeJS.ProcessEnv,
    whileStopped?: () => Promise<void>,
  ): Promise<void>;
  close(): Promise<void>;
}

export async function startPlatform(
  opts: { env?: NodeJS.ProcessEnv; whiteLabel?: Partial<CreateWhiteLabelBody>; walletArgs?: string[] } = {},
): Promise<TestPlatform> {
  let db: TestDatabase | undefined;
  let dir: string | undefined;
  let dbArgs: string[];
  if (process.env.DATABASE_URL) {
    db = await createTestDatabase({ migrate: false });
    dbArgs = ['--db-url', db.url as string];
  } else {
    dir = mkdtempSync(join(tmpdir(), 'bookie-e2e-'));
    dbArgs = ['--data-dir', dir];
  }
  const env = {
    BOOKIE_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    LOG_LEVEL: 'info',
    PLACEMENT_DEADLINE_MS: '6000',
    PLACEMENT_RECOVERY_MS: '500',
    CALLBACK_POLL_MS: '200',
    CALLBACK_TIMEOUT_MS: '2000',
    CALLBACK_LEASE_MS: '3000',
    // a restart after kill -9 takes the background roles over within seconds
    LEADER_LEASE_MS: '2000',
    ...opts.env,
  };
  let bookie = await startBookie(dbArgs, { env });
  const partner = await createPartner({ baseUrl: bookie.url }, opts.whiteLabel ?? {});
  const wallet = await startWalletProcess({
    secret: partner.signingSecret,
    args: opts.walletArgs ?? [],
    env: { WALLET_ADMIN_TOKEN: TEST_ADMIN_TOKEN },
  });
  const walletApi = new WalletApi(wallet.url, TEST_ADMIN_TOKEN);
  const call: TestPlatform['call'] = async (method, path, o = {}) => {
    const headers: Record<string, string> = { authorization: `Bearer ${o.token ?? TEST_ADMIN_TOKEN}` };
    if (o.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${bookie.url}${path}`, {
      method,
      headers,
      body: o.body === undefined ? undefined : JSON.stringify(o.body),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
  };
  const patched = await call('PATCH', `/admin/white-labels/${partner.whiteLabelId}`, {
    body: { callback_url: wallet.url },
  });
  if (patched.status !== 200)
    throw new Error(`callback_url: ${patched.status} ${JSON.stringify(patched.json)}`);
  let accessToken = await partnerToken(bookie.url, partner.clientId, partner.clientSecret);
  const platform: TestPlatform = {
    get bookie() {
      return bookie;
    },
    wallet,
    walletApi,
    partner,
    get accessToken() {
      return accessToken;
    },
    dbArgs,
    call,
    // the reference wallet books a bet in the currency its session's params name: EUR unless the test says
    session: (playerId, params) =>
      createSession(bookie.url, accessToken, { player_id: playerId, params: { currency: 'EUR', ...params } }),
    async restartBookie(signal = 'SIGKILL', extraEnv = {}, whileStopped) {
      await bookie.kill(signal);
      await whileStopped?.();
      bookie = await startBookie(dbArgs, { env: { ...env, ...extraEnv } });
      accessToken = await partnerToken(bookie.url, partner.clientId, partner.clientSecret);
    },
    async close() {
      await bookie.kill('SIGTERM').catch(() => {});
      await wallet.kill('SIGTERM').catch(() => {});
      await db?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
  return platform;
}

/**
 * Creates a sample sport event (`markets` markets of three odds) through the trading API and waits until the
 * frame's catalog shows it; answers its id.
 */
export async function newSportEvent(p: TestPlatform, markets = 1): Promise<string> {
  const ev = sampleEvent({ markets });
  const r = await p.call('POST', '/trading/sport-events', { body: ev });
  if (r.status !== 201) throw new Error(`POST /trading/sport-events: ${r.status} ${JSON.stringify(r.json)}`);
  const viewer = await p.session('viewer-x');
  await waitUntil(
    async () => (await p.call('GET', `/frame-api/sport-events/${ev.id}`, { token: viewer })).status === 200,
  );
  return ev.id as string;
}
