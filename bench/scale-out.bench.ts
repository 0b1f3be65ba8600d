/**
 * Scale-out (docs/adr/0025-scale-out.md): accepted bets/s through 1 and through 3 `bookie start` processes on the
 * same Postgres and the same cores, measured in the same run (target: 3 processes ≥ 0.9 × 1 process on a 2-core
 * machine, where a second process adds no CPU); and the doorbell — the cross-process NOTIFY after commit — on
 * against off (`DOORBELL=0`, processes poll), 3 processes each (target: within 5 %).
 *
 *   npm run bench -- scale-out [bets=3000] [inFlight=48]
 *
 * Needs Postgres: DATABASE_URL, or postgres://postgres@127.0.0.1:5432/postgres (bench databases are created and
 * dropped). The reference wallet is the partner, as another process.
 */
import { createTestDatabase } from '@bookie/storage';
import { startWalletProcess } from '@bookie/wallet/testing/process';
import { WalletApi } from '@bookie/wallet/testing/wallet-api';
import { sampleEvent } from '../packages/server/src/modules/trading/fixtures.js';
import {
  createPartner,
  createSession,
  partnerToken,
  TEST_ADMIN_TOKEN,
} from '../packages/server/src/testing/partner.js';
import { type BookieProcess, startBookie } from '../packages/server/src/testing/process.js';
import { ADMIN_HEADERS, frameAccepted, frameSingle } from './bookie-requests.js';
import { closedLoop, type LoadResult } from './load.js';
import type { BenchResult } from './types.js';

/** `processes` Bookie processes on one fresh database; `total` singles at `inFlight`, spread evenly over them. */
async function phase(processes: number, total: number, inFlight: number, env: Record<string, string>) {
  const bookieDb = await createTestDatabase({});
  const walletDb = await createTestDatabase({});
  const fullEnv = {
    BOOKIE_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    LOG_LEVEL: 'warn',
    DB_POOL_SIZE: String(Math.max(5, Math.floor(20 / processes))),
    PLAYER_RATE_LIMIT: '0',
    ...env,
  };
  const args = ['--db-url', bookieDb.url as string];
  // the first migrates the database; the others start on it together
  const bookies: BookieProcess[] = [await startBookie(args, { env: fullEnv })];
  bookies.push(
    ...(await Promise.all(Array.from({ length: processes - 1 }, () => startBookie(args, { env: fullEnv })))),
  );
  const url = bookies[0]!.url;
  const partner = await createPartner({ baseUrl: url });
  const wallet = await startWalletProcess({ secret: partner.signingSecret, dbUrl: walletDb.url as string });
  const api = new WalletApi(wallet.url);
  await fetch(`${url}/admin/white-labels/${partner.whiteLabelId}`, {
    method: 'PATCH',
    headers: ADMIN_HEADERS,
    body: JSON.stringify({ callback_url: wallet.url }),
  });
  const ev = sampleEvent({ markets: 4 });
  await fetch(`${url}/trading/sport-events`, {
    method: 'POST',
    headers: ADMIN_HEADERS,
    body: JSON.stringify(ev),
  });
  const access = await partnerToken(url, partner.clientId, partner.clientSecret);
  const sessions: string[] = [];
  for (let w = 0; w < inFlight; w++) {
    await api.deposit(`bench-${w}`, '1000000');
    sessions.push(await createSession(url, access, { player_id: `bench-${w}` }));
  }
  // every process sees the event before the load starts
  for (const b of bookies) {
    for (let i = 0; i < 600; i++) {
      const r = await fetch(`${b.url}/frame-api/sport-events/${ev.id}`, {
        headers: { authorization: `Bearer ${sessions[0]}` },
      });
      if (r.status === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const per = Math.floor(inFlight / processes);
  const drive = async (n: number): Promise<LoadResult[]> =>
    Promise.all(
      bookies.map((b, k) =>
        closedLoop({
          url: b.url,
          total: Math.floor(n / processes),
          inFlight: per,
          next: (w, i) => frameSingle(sessions[k * per + w] as string, ev.id as string, i),
          isOk: frameAccepted,
        }),
      ),
    );
  await drive(Math.min(600, total) * processes); // the same warm-up per process (the JIT of each)
  const t0 = performance.now();
  const results = await drive(total);
  const seconds = (performance.now() - t0) / 1000;
  const ok = results.reduce((s, r) => s + r.ok, 0);
  const other = results.reduce((s, r) => s + r.other, 0);
  for (const b of bookies) await b.kill('SIGTERM');
  await wallet.kill('SIGTERM');
  await bookieDb.close();
  await walletDb.close();
  return { perSecond: ok / seconds, other, p99Ms: Math.max(...results.map((r) => r.p99Ms)) };
}

export default async function run(args: string[]): Promise<BenchResult[]> {
  const total = Number(args[0] ?? 3000);
  const inFlight = Number(args[1] ?? 48);
  process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
  // interleaved, so a change of load on the shared machine hits both sides of each ratio
  const one = await phase(1, total, inFlight, {});
  const threeOn = await phase(3, total, inFlight, {});
  const threeOff = await phase(3, total, inFlight, { DOORBELL: '0' });
  const oneAgain = await phase(1, total, inFlight, {});
  const threeOff2 = await phase(3, total, inFlight, { DOORBELL: '0' });
  const threeOn2 = await phase(3, total, inFlight, {});
  const oneRate = (one.perSecond + oneAgain.perSecond) / 2;
  const onRate = (threeOn.perSecond + threeOn2.perSecond) / 2;
  const offRate = (threeOff.perSecond + threeOff2.perSecond) / 2;
  const three = {
    perSecond: onRate,
    p99Ms: Math.max(threeOn.p99Ms, threeOn2.p99Ms),
    other: threeOn.other + threeOn2.other,
  };
  const threeQuiet = { perSecond: offRate, other: threeOff.other + threeOff2.other };
  return [
    {
      name: 'processes',
      metrics: {
        one_process_bets_per_s: oneRate,
        three_processes_bets_per_s: three.perSecond,
        ratio_three_to_one: three.perSecond / oneRate,
        one_p99_ms: Math.max(one.p99Ms, oneAgain.p99Ms),
        three_p99_ms: three.p99Ms,
        not_accepted: one.other + three.other + oneAgain.other,
      },
      note: `${total} singles, ${inFlight} in flight; baseline: 1 process (mean of two runs interleaved with the 3-process ones), same run, same cores`,
    },
    {
      name: 'doorbell',
      metrics: {
        doorbell_on_bets_per_s: three.perSecond,
        doorbell_off_bets_per_s: threeQuiet.perSecond,
        ratio_on_to_off: three.perSecond / threeQuiet.perSecond,
        not_accepted: threeQuiet.other,
      },
      note: '3 processes, each side the mean of two runs (on, off, off, on); on: NOTIFY after commit wakes the other processes; off (DOORBELL=0): they poll',
    },
  ];
}
