/**
 * Cash-out quotes: `POST /bets/{bet_id}/cash-out-orders/calculate` at 32 in flight against a real `bookie start`
 * process (PGlite in memory, the reference wallet as the partner), next to a bare authenticated GET
 * (`GET /white-label`, the same partner token) measured in the same run — the ratio is the number to compare
 * (target ≥ 0.5). Plus the pure value function (core `cashOutValue` on a 3-leg express) in quotes/s.
 *
 *   npm run bench -- cash-out [quotes=4000] [inFlight=32]
 */
import { startWalletProcess } from '@bookie/wallet/testing/process';
import { WalletApi } from '@bookie/wallet/testing/wallet-api';
import { Agent, request } from 'undici';
import { cashOutValue, EXPRESS_CAP_EUR, parseDecimal } from '../packages/core/src/index.js';
import { sampleEvent } from '../packages/server/src/modules/trading/fixtures.js';
import {
  createPartner,
  createSession,
  partnerToken,
  TEST_ADMIN_TOKEN,
} from '../packages/server/src/testing/partner.js';
import { startBookie } from '../packages/server/src/testing/process.js';
import { type BenchResult, opsPerSecond } from './types.js';

const d = (s: string) => parseDecimal(s, { field: 'x', maxDecimals: 12 });

async function load(
  url: string,
  total: number,
  inFlight: number,
  next: (i: number) => { method: 'GET' | 'POST'; path: string; body?: string },
  headers: Record<string, string>,
): Promise<{ perSecond: number; ok: number }> {
  const agent = new Agent({ connections: inFlight, pipelining: 1 });
  let sent = 0;
  let ok = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (sent < total) {
        const r = next(sent++);
        const res = await request(`${url}${r.path}`, {
          method: r.method,
          headers: r.body ? { ...headers, 'content-type': 'application/json' } : headers,
          ...(r.body ? { body: r.body } : {}),
          dispatcher: agent,
        });
        await res.body.dump();
        if (res.statusCode === 200) ok++;
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  await agent.close();
  return { perSecond: total / seconds, ok };
}

export default async function run(args: string[]): Promise<BenchResult[]> {
  const total = Number(args[0] ?? 4000);
  const inFlight = Number(args[1] ?? 32);

  // the pure value function first (no I/O)
  const legs = [
    { odds: d('1.9'), status: 1 as const },
    { odds: d('2.1'), status: 0 as const, winProbability: d('0.471204188482') },
    { odds: d('3.4'), status: 0 as const, winProbability: d('0.281690140845') },
  ];
  const valueRate = await opsPerSecond(
    () =>
      cashOutValue({
        betType: 'express',
        stake: d('10'),
        legs,
        margin: d('0.05'),
        expressCap: EXPRESS_CAP_EUR,
      }),
    2000,
  );

  const bookie = await startBookie([], {
    env: {
      BOOKIE_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      LOG_LEVEL: 'warn',
      PLAYER_RATE_LIMIT: '0',
      PARTNER_RATE_LIMIT: '0',
    },
  });
  const partner = await createPartner({ baseUrl: bookie.url });
  const wallet = await startWalletProcess({ secret: partner.signingSecret });
  const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' };
  try {
    await fetch(`${bookie.url}/admin/white-labels/${partner.whiteLabelId}`, {
      method: 'PATCH',
      headers: admin,
      body: JSON.stringify({ callback_url: wallet.url }),
    });
    const ev = sampleEvent({ markets: 1 });
    await fetch(`${bookie.url}/trading/sport-events`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify(ev),
    });
    const token = await partnerToken(bookie.url, partner.clientId, partner.clientSecret);
    await new WalletApi(wallet.url, TEST_ADMIN_TOKEN).deposit('bench', '100000');
    const session = await createSession(bookie.url, token, {
      player_id: 'bench',
      params: { currency: 'EUR' },
    });
    const bets: string[] = [];
    for (let i = 0; bets.length < 50 && i < 500; i++) {
      const res = await fetch(`${bookie.url}/frame-api/bets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${session}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          bet_type: 'single',
          stake: '10',
          currency: 'EUR',
          odds_strategy: 3,
          selections: [{ sport_event_id: ev.id, market_id: '1', odd_id: String((i % 3) + 1), odds: '1' }],
        }),
      });
      const bet = (await res.json()) as { id?: string; status?: number };
      if (bet.status === 1 && bet.id) bets.push(bet.id);
      else await new Promise((r) => setTimeout(r, 50)); // the event reaches the catalog shortly after it is created
    }
    if (bets.length === 0) throw new Error('no bet was accepted');
    const headers = { authorization: `Bearer ${token}` };
    const get = () => ({ method: 'GET' as const, path: '/white-label' });
    const quote = (i: number) => ({
      method: 'POST' as const,
      path: `/bets/${bets[i % bets.length]}/cash-out-orders/calculate`,
      body: '{}',
    });
    await load(bookie.url, 500, inFlight, get, headers);
    await load(bookie.url, 500, inFlight, quote, headers);
    const base = await load(bookie.url, total, inFlight, get, headers);
    const q = await load(bookie.url, total, inFlight, quote, headers);
    return [
      {
        name: 'calculate',
        metrics: {
          quotes_per_s: q.perSecond,
          quotes_ok: q.ok,
          baseline_get_per_s: base.perSecond,
          ratio_to_baseline: q.perSecond / base.perSecond,
        },
        note: `${total} requests, ${inFlight} in flight, ${bets.length} bets, PGlite; baseline GET /white-label with the same token`,
      },
      {
        name: 'value-function',
        metrics: { quotes_per_s: valueRate },
        note: 'core cashOutValue, 3-leg express',
      },
    ];
  } finally {
    await bookie.kill('SIGTERM').catch(() => {});
    await wallet.kill('SIGTERM').catch(() => {});
  }
}
