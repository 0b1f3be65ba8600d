import {
  fixtureOf,
  openingMarkets,
  readFootballData,
  sportEventIdOf,
  toMarketInput,
} from '@bookie/simulator';
import { type Browser, chromium } from 'playwright-core';
import { DEMO_SEASON } from '../cli/demo.js';
import type { ReplayPlatform } from '../cli/replay.js';

/** Polls `fn` every 100 ms until it answers something truthy (a condition, not a clock); throws after `timeoutMs`. */
export async function until<T>(
  what: string,
  fn: () => Promise<T | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** An operator API call on the platform; throws with the status and body unless 2xx. */
export async function admin(
  p: ReplayPlatform,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const res = await fetch(p.bookieUrl + path, {
    method,
    headers: { authorization: `Bearer ${p.adminToken}`, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** A player's available EUR balance in the reference wallet (decimal string). */
export async function walletBalance(p: ReplayPlatform, player: string): Promise<string> {
  const r = (await (await fetch(`${p.walletUrl}/players/${player}/balance`)).json()) as {
    balances: { currency: string; available: string }[];
  };
  return r.balances.find((b) => b.currency === 'EUR')?.available ?? '0';
}

/** A real fixture the browser tests trade: its sport event id and the markets it opened with. */
export interface TradedFixture {
  id: string;
  markets: ReturnType<typeof openingMarkets>;
}

/**
 * Puts real Premier League fixtures (rows `from`…`to` of the demo season) on the book, kicking off tomorrow an hour
 * apart, with their opening markets.
 */
export async function tradeDemoFixtures(
  p: ReplayPlatform,
  from: number,
  to: number,
): Promise<TradedFixture[]> {
  const season = await readFootballData(DEMO_SEASON);
  const tomorrow = new Date(Date.now() + 86_400_000);
  const out: TradedFixture[] = [];
  for (const [i, row] of season.matches.slice(from, to).entries()) {
    const fixture = {
      ...fixtureOf(row),
      start_time: new Date(tomorrow.getTime() + i * 3_600_000).toISOString(),
    };
    const markets = openingMarkets(row);
    const id = sportEventIdOf(row);
    await admin(p, 'POST', '/trading/sport-events', { id, fixture, markets: markets.map(toMarketInput) });
    out.push({ id, markets });
  }
  return out;
}

/** A headless Debian Chromium (never a downloaded browser). */
export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-dev-shm-usage'],
  });
}
