import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sampleEvent } from '@bookie/server/modules/trading/fixtures';
import { createPartner, type TestPartner } from '@bookie/server/testing/partner';
import { startPlatform, type TestPlatform } from '@bookie/server/testing/platform';
import { waitUntil } from '@bookie/server/testing/scripted-partner';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';

const PKG = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Where the screenshots go (git-ignored). */
export const SHOTS = join(PKG, 'test-results');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Every backoffice user's password. */
export const PASSWORD = 'backoffice test password';

/** A running platform with backoffice users, one accepted bet, and a browser. */
export interface BackofficeWorld {
  p: TestPlatform;
  /** Another partner's white label (isolation). */
  other: TestPartner;
  browser: Browser;
  /** The event the bets are on. */
  eventId: string;
  /** The accepted bet of player-1. */
  betId: string;
  /** Bookie's URL (it changes when Bookie is restarted). */
  base: string;
}

/**
 * Starts `bookie start` and the reference wallet (building the backoffice first when there is no build), makes an
 * operator and two partner admins (Acme Bets and another white label), places one accepted bet and opens Chromium.
 */
export async function startBackofficeWorld(): Promise<BackofficeWorld> {
  // the server serves the build it finds at start: build first when a fresh clone has none
  if (!existsSync(join(PKG, 'dist', 'index.html'))) {
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: PKG, stdio: 'inherit' });
  }
  mkdirSync(SHOTS, { recursive: true });
  const p = await startPlatform({ whiteLabel: { name: 'Acme Bets' } });
  const base = p.bookie.url;
  const other = await createPartner({ baseUrl: base }, { name: 'Other partner' });
  for (const body of [
    { email: 'ops@bookie.test', role: 'operator', password: PASSWORD },
    {
      email: 'admin@acme.test',
      role: 'partner_admin',
      white_label_id: p.partner.whiteLabelId,
      password: PASSWORD,
    },
    {
      email: 'admin@other.test',
      role: 'partner_admin',
      white_label_id: other.whiteLabelId,
      password: PASSWORD,
    },
  ]) {
    const r = await p.call('POST', '/admin/users', { body });
    expect(r.status, JSON.stringify(r.json)).toBe(201);
  }
  // one accepted bet of the white label, placed through the frame API with the player's money at the wallet
  const ev = sampleEvent({ markets: 2 });
  expect((await p.call('POST', '/trading/sport-events', { body: ev })).status).toBe(201);
  const eventId = ev.id as string;
  await p.walletApi.deposit('player-1', '100');
  const session = await p.session('player-1');
  let placed: { status: number; json: { id: string; status: number } } | undefined;
  await waitUntil(async () => {
    placed = await p.call('POST', '/frame-api/bets', {
      token: session,
      body: {
        bet_type: 'single',
        stake: '10',
        currency: 'EUR',
        odds_strategy: 3,
        selections: [{ sport_event_id: eventId, market_id: '1', odd_id: '1', odds: '1.5' }],
      },
    });
    return placed.status === 200 && placed.json.status === 1;
  }, 20_000);
  const betId = (placed as { json: { id: string } }).json.id;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-dev-shm-usage'],
  });
  return { p, other, browser, eventId, betId, base };
}

/** What the backoffice browser tests do: call Bookie's admin API, log a user in, place a bet. */
export function backofficeHelpers(world: () => Pick<BackofficeWorld, 'p' | 'browser' | 'eventId' | 'base'>) {
  async function admin(method: string, path: string, body?: unknown) {
    const { p } = world();
    return p.call(method, path, body === undefined ? {} : { body });
  }

  async function logIn(email: string): Promise<{ context: BrowserContext; page: Page }> {
    const { browser, base } = world();
    const context = await browser.newContext({
      viewport: { width: 1100, height: 720 },
      acceptDownloads: true,
    });
    const page = await context.newPage();
    await page.goto(`${base}/backoffice/`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByTestId('who').waitFor();
    return { context, page };
  }

  /** Places an accepted single of `playerId` on the event's outcome 1|1 through the frame API. */
  async function placeBet(playerId: string): Promise<string> {
    const { p, eventId } = world();
    await p.walletApi.deposit(playerId, '100');
    const session = await p.session(playerId);
    let placed: { status: number; json: { id: string; status: number } } | undefined;
    await waitUntil(async () => {
      placed = await p.call('POST', '/frame-api/bets', {
        token: session,
        body: {
          bet_type: 'single',
          stake: '10',
          currency: 'EUR',
          odds_strategy: 3,
          selections: [{ sport_event_id: eventId, market_id: '1', odd_id: '1', odds: '1.5' }],
        },
      });
      return placed.status === 200 && placed.json.status === 1;
    }, 20_000);
    return (placed as { json: { id: string } }).json.id;
  }

  return { admin, logIn, placeBet };
}
