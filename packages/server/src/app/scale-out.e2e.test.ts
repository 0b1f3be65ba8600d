import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { sampleEvent } from '../modules/trading/fixtures.js';
import { TEST_ADMIN_TOKEN } from '../testing/partner.js';
import { startPlatform, type TestPlatform } from '../testing/platform.js';
import { type BookieProcess, runBookie, startBookie } from '../testing/process.js';
import { waitUntil } from '../testing/scripted-partner.js';

/** The lease of every one-process role in this test (short, so that the failover is quick). */
const LEASE_MS = 3000;
const ROLES = ['settlement', 'retention', 'placement-recovery', 'heartbeats'];
const STAKE_MICROS = 10_000_000n;
/** Odd "1" of the sample event pays 1.5. */
const WIN_PAYOUT_MICROS = 15_000_000n;

const micros = (m: bigint) => `${m / 1_000_000n}.${(m % 1_000_000n).toString().padStart(6, '0')}`;

async function call(
  url: string,
  method: string,
  path: string,
  o: { token?: string; body?: unknown } = {},
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the route answers
): Promise<{ status: number; json: any }> {
  const headers: Record<string, string> = { authorization: `Bearer ${o.token ?? TEST_ADMIN_TOKEN}` };
  if (o.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${url}${path}`, {
    method,
    headers,
    body: o.body === undefined ? undefined : JSON.stringify(o.body),
  });
  const text = await res.text();
  return {
    status: res.status,
    json: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text,
  };
}

/** The roles this process leads, from its /metrics. */
async function rolesLed(url: string): Promise<string[]> {
  const r = await call(url, 'GET', '/metrics');
  if (r.status !== 200) return [];
  return ROLES.filter((role) => (r.json as string).includes(`bookie_leader{role="${role}"} 1`));
}

if (process.env.DATABASE_URL) {
  describe('several server processes on one Postgres: leader failover under kill -9 (postgres)', () => {
    let p: TestPlatform | undefined;
    const extra: BookieProcess[] = [];
    afterAll(async () => {
      for (const b of extra) await b.kill('SIGTERM').catch(() => {});
      await p?.close();
    });

    it('3 processes take bets and settle them; the leader is killed mid-run; nothing lost, nothing twice', async () => {
      const env = {
        BOOKIE_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
        LOG_LEVEL: 'warn',
        LEADER_LEASE_MS: String(LEASE_MS),
        SETTLEMENT_LEASE_TTL_MS: String(LEASE_MS),
        SETTLEMENT_SWEEP_MS: '500',
        PLACEMENT_DEADLINE_MS: '6000',
        PLACEMENT_RECOVERY_MS: '500',
        CALLBACK_POLL_MS: '200',
        CALLBACK_TIMEOUT_MS: '2000',
        CALLBACK_LEASE_MS: '3000',
      };
      p = await startPlatform({
        env,
        whiteLabel: { limits: { min_stake: '1', max_stake: '1000', max_payout: null } },
      });
      const platform = p;
      extra.push(...(await Promise.all([startBookie(p.dbArgs, { env }), startBookie(p.dbArgs, { env })])));
      const procs = [p.bookie, ...extra];
      const urls = procs.map((b) => b.url);

      // a sport event with two markets, seen by every process's catalogue
      const ev = sampleEvent({ markets: 2 });
      expect((await call(urls[0]!, 'POST', '/trading/sport-events', { body: ev })).status).toBe(201);
      const viewer = await p.session('viewer');
      for (const url of urls) {
        await waitUntil(
          async () =>
            (await call(url, 'GET', `/frame-api/sport-events/${ev.id}`, { token: viewer })).status === 200,
          60_000,
        );
      }
      const players = ['a', 'b', 'c', 'd', 'e', 'f'].map((x) => `so-${x}`);
      const sessions = new Map<string, string>();
      for (const id of players) {
        await p.walletApi.deposit(id, '1000');
        sessions.set(id, await p.session(id, { sid: id, currency: 'EUR' }));
      }
      /** Bets per player: id, market, odd. */
      const bets: Array<{ id: string; player: string; market: string; odd: string }> = [];
      const place = async (url: string, player: string, market: string, odd: string) => {
        const r = await call(url, 'POST', '/frame-api/bets', {
          token: sessions.get(player),
          body: {
            bet_type: 'single',
            stake: micros(STAKE_MICROS),
            currency: 'EUR',
            odds_strategy: 3,
            selections: [{ sport_event_id: ev.id, market_id: market, odd_id: odd, odds: '1.01' }],
          },
        });
        expect(r.json.status, JSON.stringify(r.json)).toBe(1);
        bets.push({ id: r.json.id, player, market, odd });
      };

      // every one-process role has exactly one leader among the three
      let leaders: string[][] = [];
      await waitUntil(async () => {
        leaders = await Promise.all(urls.map(rolesLed));
        return ROLES.every((role) => leaders.filter((l) => l.includes(role)).length === 1);
      }, 60_000);

      // bets through all three processes on market 1
      for (let i = 0; i < 12; i++)
        await place(urls[i % 3]!, players[i % players.length]!, '1', i % 2 ? '2' : '1');

      // result market 1 through a follower, and kill -9 the settlement leader at once (mid-settlement)
      const victim = leaders.findIndex((l) => l.includes('settlement'));
      const survivors = urls.filter((_, i) => i !== victim);
      const db = new pg.Client({ connectionString: p.dbArgs[1] });
      await db.connect();
      try {
        /** Holder and epoch of every role's lease. */
        const holders = async () => {
          const r = await db.query<{ role: string; holder: string | null; epoch: string; live: boolean }>(
            `select role, holder, epoch::text, expires_at > now() as live from leader_lease`,
          );
          return new Map(r.rows.map((x) => [x.role, x]));
        };
        // what the victim leads right now, and who holds each role
        const victimRoles = await rolesLed(urls[victim]!);
        expect(victimRoles).toContain('settlement');
        const before = await holders();
        const first = await call(survivors[0]!, 'PATCH', `/trading/sport-events/${ev.id}/markets`, {
          body: {
            markets: [
              {
                id: '1',
                odds: [
                  { id: '1', status: 1 },
                  { id: '2', status: 2 },
                ],
              },
            ],
          },
        });
        expect(first.status).toBe(200);
        const killedAt = Date.now();
        await procs[victim]!.kill('SIGKILL');

        // a new leader (another holder, the next epoch) for every role the victim held, within twice the lease,
        // watched on the lease rows while bets go on through the survivors (market 2)
        const taken = (async () => {
          await waitUntil(async () => {
            const now = await holders();
            return victimRoles.every((role) => {
              const was = before.get(role)!;
              const is = now.get(role);
              return is?.live && is.holder !== was.holder && BigInt(is.epoch) > BigInt(was.epoch);
            });
          }, 30_000);
          return Date.now() - killedAt;
        })();
        for (let i = 0; i < 8; i++) {
          await place(survivors[i % 2]!, players[i % players.length]!, '2', i % 2 ? '2' : '1');
        }
        expect(await taken).toBeLessThan(2 * LEASE_MS);

        const second = await call(survivors[1]!, 'PATCH', `/trading/sport-events/${ev.id}/markets`, {
          body: {
            markets: [
              {
                id: '2',
                odds: [
                  { id: '1', status: 1 },
                  { id: '2', status: 2 },
                ],
              },
            ],
          },
        });
        expect(second.status).toBe(200);
        // the new leader processes both results; the outbox drains
        await waitUntil(async () => {
          for (const url of survivors) {
            const s = await call(url, 'GET', '/admin/settlement/status');
            if (s.json.leader && BigInt(s.json.processed) >= BigInt(second.json.version)) return true;
          }
          return false;
        }, 60_000);
        await waitUntil(async () => {
          const r = await db.query<{ n: string }>(
            `select count(*)::text as n from callback_delivery where mode = 'async' and status <> 'delivered'`,
          );
          return r.rows[0]?.n === '0';
        }, 60_000);

        // every bet settled once: one settle in Bookie's ledger and one /bet/settle in the outbox, delivered
        const settles = await db.query<{ bet_id: string; n: string }>(
          `select bet_id::text, count(*)::text as n from bet_settlement where kind = 'settle' group by bet_id`,
        );
        const settleCount = new Map(settles.rows.map((r) => [r.bet_id, r.n]));
        const unsettles = await db.query<{ n: string }>(
          `select count(*)::text as n from bet_settlement where kind = 'unsettle'`,
        );
        expect(unsettles.rows[0]?.n).toBe('0');
        const outbox = await db.query<{ bet_id: string; path: string; n: string }>(
          `select bet_id::text, path, count(*)::text as n from callback_delivery group by bet_id, path`,
        );
        for (const b of bets) {
          expect(settleCount.get(b.id), b.id).toBe('1');
          const paths = outbox.rows.filter((r) => r.bet_id === b.id);
          expect(paths.map((r) => `${r.path} ${r.n}`).sort()).toEqual([
            '/bet/accept 1',
            '/bet/place 1',
            '/bet/settle 1',
          ]);
        }
        // the partner saw each payout once (never again under a new request_id): the wallet's credits per bet
        for (const player of players) {
          const ledger = (await platform.walletApi.ledger(player)).entries;
          const mine = bets.filter((b) => b.player === player);
          let expected = 1000_000_000n;
          for (const b of mine) {
            const credits = ledger.filter((x) => x.bet_id === b.id && x.kind === 'credit');
            expect(credits).toHaveLength(b.odd === '1' ? 1 : 0);
            expected += (b.odd === '1' ? WIN_PAYOUT_MICROS : 0n) - STAKE_MICROS;
          }
          expect((await platform.walletApi.balance(player)).available).toBe(micros(expected));
        }
        expect((await platform.walletApi.checkLedger()).ok).toBe(true);

        // exposure and the reconciliation are exact
        const recompute = await call(survivors[0]!, 'POST', '/admin/risk/recompute');
        expect(recompute.json.ok, JSON.stringify(recompute.json)).toBe(true);
        const from = new Date(Date.now() - 3_600_000).toISOString();
        const to = new Date(Date.now() + 60_000).toISOString();
        const report = await call(
          survivors[0]!,
          'GET',
          `/admin/reports/reconcile?from=${from}&to=${to}&bets=true`,
        );
        expect(report.json.bets.mismatched).toBe(0);
      } finally {
        await db.end();
      }
    }, 240_000);
  });
} else {
  describe('the embedded database is single-process (pglite)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bookie-scale-'));
    let first: BookieProcess | undefined;
    afterAll(async () => {
      await first?.kill('SIGTERM').catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    });

    it('refuses a second process on the same data directory, and a feed node without Postgres', async () => {
      first = await startBookie(['--data-dir', dir], { env: { BOOKIE_ADMIN_TOKEN: TEST_ADMIN_TOKEN } });
      const second = await runBookie(['start', '--port', '0', '--data-dir', dir], {
        env: { BOOKIE_ADMIN_TOKEN: TEST_ADMIN_TOKEN },
      });
      expect(second.code).not.toBe(0);
      expect(second.stderr + second.stdout).toMatch(/in use|locked|another/i);
      const feed = await runBookie(['start', '--port', '0', '--role', 'feed', '--data-dir', 'memory']);
      expect(feed.code).toBe(2);
      expect(feed.stderr).toMatch(/--role/);
      expect(feed.stderr).toMatch(/Postgres/);
    }, 120_000);
  });
}
