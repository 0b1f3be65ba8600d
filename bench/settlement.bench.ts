/**
 * The time to settle 100,000 bets on one market with the callbacks delivered to the reference wallet.
 *
 *   npm run bench -- settlement [bets=100000] [pageSize=1000] [concurrency=256]
 *
 * Bookie runs in this process on Postgres (DATABASE_URL, or postgres://postgres@127.0.0.1:5432/postgres; a bench
 * database is created and dropped) with its real settlement consumer and callback dispatcher; the reference wallet
 * runs as another process on its own Postgres database, verifying signatures. The bets (singles on one odd, 10 bets
 * per player) are written straight into both databases — placement is not what is measured. The clock starts when
 * the trading command that results the market commits and stops when the wallet has acknowledged every
 * `/bet/settle`. In the same run, the baselines: the time to just UPDATE the same 100,000 bet rows once, the
 * wallet's own rate on signed `/bet/settle` callbacks posted straight at it (no Bookie), and the same dispatcher
 * re-sending the same callbacks to a bare HTTP server process answering 204, as ratios; and the dispatcher's claims
 * per callback (docs/adr/0014-settlement-and-delivery-throughput.md).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BetOdd } from '@bookie/contracts';
import { prepareCallback, settleBody } from '@bookie/sdk/callbacks/fixtures';
import { createTestDatabase as createStorageDatabase } from '@bookie/storage';
import { startWalletProcess } from '@bookie/wallet/testing/process';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { Agent, request } from 'undici';
import { buildDeps, startBackground } from '../packages/server/src/app/wiring.js';
import type { DB } from '../packages/server/src/db/schema.js';
import { CLAIM_DUE_SQL } from '../packages/server/src/modules/callbacks/callbacks.repo.js';
import { createSportEvent } from '../packages/server/src/modules/trading/create-sport-event.js';
import { sampleEvent } from '../packages/server/src/modules/trading/fixtures.js';
import { patchMarkets } from '../packages/server/src/modules/trading/patch-markets.js';
import { loadConfig } from '../packages/server/src/platform/config.js';
import { createTestDatabase } from '../packages/server/src/testing/database.js';
import { createPartner } from '../packages/server/src/testing/partner.js';
import { WALLET_MIGRATIONS_DIR } from '../packages/wallet/src/db/database.js';
import type { WalletDB } from '../packages/wallet/src/db/schema.js';
import { spawnBare } from './bare-process.js';
import type { BenchResult } from './types.js';

const secs = (ms: number) => ms / 1000;

/** What a backend runs, by the text of its statement (the sampler's rows). */
function statementKind(q: string): string {
  if (q.includes('SET lease_owner = $1')) return 'claim';
  if (q.includes("SET status = 'delivered'")) return 'flush';
  if (q.includes('INSERT INTO callback_delivery')) return 'enqueue';
  if (/^\s*(BEGIN|COMMIT)/i.test(q)) return q.trim().split(/\s/)[0]?.toUpperCase() ?? 'tx';
  return q.replace(/\s+/g, ' ').trim().slice(0, 48);
}

/**
 * With BENCH_PG_SAMPLE=1 (Postgres only), samples `pg_stat_activity` of Bookie's and the wallet's databases every
 * 25 ms until `stop`, then prints how often each kind of statement was seen active, by wait event (CPU: none).
 */
function startActivitySampler(dbNames: { bookie: string; wallet: string }, url: string) {
  const counts = new Map<string, number>();
  let samples = 0;
  let running = true;
  const client = new pg.Client({ connectionString: url });
  const explains: string[] = [];
  let prepared = false;
  let lastExplain = performance.now();
  const loop = (async () => {
    await client.connect();
    while (running) {
      if (process.env.BENCH_PG_EXPLAIN && performance.now() - lastExplain > 2000) {
        // the claim as the dispatcher runs it, rolled back (its rows stay unleased)
        lastExplain = performance.now();
        const c = await client.query<{ p: string; leased: string }>(`select count(*) filter (where status =
          'pending') p, count(*) filter (where status = 'pending' and lease_until > now()) leased
          from callback_delivery`);
        // the plan a connection caches after five runs (generic: `LIMIT $3` unknown when it is made)
        if (!prepared) {
          await client.query(`prepare bench_claim(text, int8, int8) as ${CLAIM_DUE_SQL}`);
          prepared = true;
        }
        await client.query('begin');
        await client.query(`set local plan_cache_mode = ${process.env.BENCH_PG_EXPLAIN}`);
        const e = await client.query<{ 'QUERY PLAN': string }>(
          `explain (analyze, buffers) execute bench_claim('explain', 60000, 128)`,
        );
        await client.query('rollback');
        explains.push(
          `pending ${c.rows[0]?.p}, leased ${c.rows[0]?.leased}\n${e.rows.map((r) => r['QUERY PLAN']).join('\n')}`,
        );
      }
      const r = await client.query<{ datname: string; query: string; wait: string | null }>(
        `select datname, query, wait_event_type || ':' || wait_event as wait from pg_stat_activity
         where datname = any($1) and state = 'active' and pid <> pg_backend_pid()`,
        [[dbNames.bookie, dbNames.wallet]],
      );
      samples++;
      for (const row of r.rows) {
        const who = row.datname === dbNames.bookie ? 'bookie' : 'wallet';
        const key = `${who} ${statementKind(row.query)} | ${row.wait ?? 'CPU'}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      await new Promise((res) => setTimeout(res, 25));
    }
    await client.end();
  })();
  return {
    async stop(tag: string) {
      running = false;
      await loop;
      const rows = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 25);
      process.stderr.write(
        `pg_stat_activity (${tag}, ${samples} samples, backends seen active per sample):\n`,
      );
      for (const [k, v] of rows) process.stderr.write(`  ${(v / samples).toFixed(3)}  ${k}\n`);
      for (const e of explains) process.stderr.write(`${e}\n`);
    },
  };
}

/** Writes `n` accepted singles of 10 EUR on (event, market 1, odd 1) at 1.5, `perPlayer` per player, in Bookie. */
async function seedBookie(
  db: Kysely<DB>,
  o: { whiteLabelId: string; eventId: string; n: number; perPlayer: number; tag: string },
) {
  const info = JSON.stringify({
    provider_id: 'bookie',
    sport_id: 'football',
    tournament_id: 't1',
    market_type: '1',
    state: 'prematch',
    start_time: '2030-06-01T18:00:00Z',
    competitors: [
      { id: 'c1', type: 2 },
      { id: 'c2', type: 2 },
    ],
  });
  await sql`
    with b as (
      insert into bet (id, white_label_id, player_id, currency, bet_type, system_sizes, stake, odds_strategy,
        base_odds, total_odds, state, foreign_params, created_at, placement_deadline, decided_at)
      select gen_random_uuid(), ${o.whiteLabelId}, ${o.tag} || '-' || (g / ${o.perPlayer}), 'EUR', 'single', '[]',
        10, 3, 1.5, 1.5, 'accepted', '{}', now(), now(), now()
      from generate_series(0, ${o.n - 1}) g
      returning id)
    insert into bet_selection (bet_id, idx, sport_event_id, market_id, odd_id, requested_odds, odds, odd_updated_at,
      match_status, event_info)
    select id, 0, ${o.eventId}, '1', '1', 1.5, 1.5, now(), 0, ${info}::jsonb from b`.execute(db);
  const r = await sql<{ id: string; player_id: string }>`
    select b.id, b.player_id from bet b join bet_selection s on s.bet_id = b.id
    where s.sport_event_id = ${o.eventId}`.execute(db);
  return r.rows;
}

/** Writes the same bets into the wallet, accepted (stake captured), and their players' accounts. */
async function seedWallet(db: Kysely<WalletDB>, bets: Array<{ id: string; player_id: string }>) {
  const players = [...new Set(bets.map((b) => b.player_id))];
  for (let i = 0; i < players.length; i += 5000) {
    const chunk = players.slice(i, i + 5000);
    await sql`insert into accounts (player_id, currency, available, held)
      select p, 'EUR', 0, 0 from unnest(${chunk}::text[]) p on conflict do nothing`.execute(db);
  }
  for (let i = 0; i < bets.length; i += 10_000) {
    const chunk = bets.slice(i, i + 10_000);
    await sql`insert into bets (bet_id, player_id, currency, stake, state)
      select b, p, 'EUR', 10000000, 'accepted'
      from unnest(${chunk.map((b) => b.id)}::text[], ${chunk.map((b) => b.player_id)}::text[]) as x(b, p)`.execute(
      db,
    );
  }
}

/** True while an async callback is pending (an index probe: the bench's own load on the database stays small). */
async function anyPending(db: Kysely<DB>): Promise<boolean> {
  const r = await sql<{ yes: boolean }>`select exists (select 1 from callback_delivery
    where status = 'pending' and mode = 'async') as yes`.execute(db);
  return r.rows[0]?.yes === true;
}

/** A bet odd as Bookie's `/bet/settle` carries it (spec 01 "Bet odd"). */
const BET_ODD: BetOdd = {
  odd_id: '1',
  odd_ratio: '1.500000',
  odd_status: 1,
  match_id: 'e',
  match_status: 0,
  market_id: '1',
  odd_updated_at: '2030-06-01T18:00:00+00:00',
  status_reason: '',
  meta: {
    sport_event_info_provider_id: 'bookie',
    sport_event_info_sport_id: 'football',
    sport_event_info_tournament_id: 't1',
    sport_event_info_market_type: '1',
    sport_event_info_state: 'prematch',
    sport_event_info_start_time: '2030-06-01T18:00:00Z',
    sport_event_info_competitors: [{ id: 'c1', type: 2 }],
  },
};

/** Signed `/bet/settle` posts straight at the wallet, `inFlight` at a time: the wallet's own rate (callbacks/s). */
async function walletRate(
  url: string,
  secret: string,
  bets: Array<{ id: string; player_id: string }>,
  inFlight: number,
) {
  const agent = new Agent({ connections: inFlight });
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < bets.length) {
        const b = bets[next++] as { id: string; player_id: string };
        const p = prepareCallback(
          'settle',
          settleBody({
            bet_id: b.id,
            bet_player_id: b.player_id,
            total_odds_value: '1.500000',
            base_odds_value: '1.500000',
            bet_odds: [BET_ODD],
            settle_amount: '15.000000',
            settle_type: 1,
          }),
          { secret },
        );
        const res = await request(`${url}${p.path}`, {
          method: 'POST',
          dispatcher: agent,
          headers: p.headers,
          body: p.body,
        });
        const text = await res.body.text();
        if (res.statusCode >= 300) throw new Error(`wallet answered ${res.statusCode} ${text}`);
      }
    }),
  );
  await agent.close();
  return bets.length / secs(performance.now() - start);
}

export default async function run(args: string[]): Promise<BenchResult[]> {
  const n = Number(args[0] ?? 100_000);
  const pageSize = String(args[1] ?? 1000);
  const concurrency = String(args[2] ?? 256);
  /** `bare`: callbacks go to a bare HTTP server answering 204 (settlement alone, without the wallet's cost). */
  const bare = args[3] === 'bare';
  process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
  process.env.SETTLEMENT_PAGE_SIZE = pageSize;

  const bookieDb = await createTestDatabase();
  const walletDb = await createStorageDatabase<WalletDB>({ migrationsDir: WALLET_MIGRATIONS_DIR });
  const cleanup: Array<() => Promise<unknown>> = [() => bookieDb.close(), () => walletDb.close()];
  try {
    return await measure();
  } finally {
    // also when the run fails: no wallet process or bench database is left behind
    for (const c of cleanup.reverse()) await c().catch(() => {});
  }

  async function measure(): Promise<BenchResult[]> {
    const config = loadConfig({
      ...process.env,
      LOG_LEVEL: 'warn',
      CALLBACK_CONCURRENCY: concurrency,
      CALLBACK_POLL_MS: '20',
      DB_POOL_SIZE: '20',
    });
    const deps = await buildDeps(config, { database: bookieDb, logger: pino({ level: 'warn' }) });
    cleanup.push(() => deps.lifecycle.stop());
    const partner = await createPartner({ database: deps.database });
    const wallet = await startWalletProcess({ secret: partner.signingSecret, dbUrl: walletDb.url as string });
    cleanup.push(() => wallet.kill('SIGTERM'));
    let bareServer: Server | undefined;
    let callbackUrl = wallet.url;
    if (bare) {
      bareServer = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          res.writeHead(204);
          res.end();
        });
      });
      await new Promise<void>((r) => bareServer?.listen(0, '127.0.0.1', r));
      cleanup.push(async () => bareServer?.close());
      callbackUrl = `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}`;
    }
    await deps.database.db
      .updateTable('white_label')
      .set({ callback_url: callbackUrl })
      .where('id', '=', partner.whiteLabelId)
      .execute();
    await startBackground(deps);
    const consumer = deps.settlement!;
    const dispatcher = deps.callbacks.dispatcher;

    const dbName = (u: string | undefined) => (u ? new URL(u).pathname.slice(1) : '');
    const sampleActivity = () =>
      process.env.BENCH_PG_SAMPLE && bookieDb.url
        ? startActivitySampler({ bookie: dbName(bookieDb.url), wallet: dbName(walletDb.url) }, bookieDb.url)
        : undefined;

    const settle = async (tag: string, count: number) => {
      const { id: eventId, version: created } = await createSportEvent(deps, sampleEvent({ markets: 1 }));
      await consumer.waitFor(created, 120_000);
      const bets = await seedBookie(deps.database.db, {
        whiteLabelId: partner.whiteLabelId,
        eventId,
        n: count,
        perPlayer: 10,
        tag,
      });
      await seedWallet(walletDb.db, bets);
      await sql`vacuum analyze bet`.execute(deps.database.db).catch(() => {});
      const t0 = performance.now();
      const { version } = await patchMarkets(deps, {
        id: eventId,
        body: { markets: [{ id: '1', odds: [{ id: '1', status: 1 }] }] },
      });
      const before = dispatcher.stats();
      const sampler = sampleActivity();
      await consumer.waitFor(version, 600_000);
      const settled = performance.now();
      while (await anyPending(deps.database.db)) await new Promise((r) => setTimeout(r, 20));
      const delivered = performance.now();
      const after = dispatcher.stats();
      await sampler?.stop(tag);
      return {
        bets,
        settleMs: settled - t0,
        totalMs: delivered - t0,
        claims: after.claims - before.claims,
        claimMs: after.claimMs - before.claimMs,
        claimed: after.claimed - before.claimed,
        flushes: after.flushes - before.flushes,
        flushMs: after.flushMs - before.flushMs,
        sent: after.delivered + after.failed - (before.delivered + before.failed),
      };
    };

    // warm-up: JIT, connections, the wallet's first requests
    await settle('warm', 2000);
    const main = await settle('main', n);
    process.stderr.write(
      `settled ${n} in ${secs(main.settleMs)} s, delivered in ${secs(main.totalMs)} s ` +
        `(${main.claims} claims of ${(main.claimed / Math.max(1, main.claims)).toFixed(0)} rows, ` +
        `${(main.claimMs / Math.max(1, main.claims)).toFixed(1)} ms each; ${main.flushes} flushes, ` +
        `${(main.flushMs / Math.max(1, main.flushes)).toFixed(1)} ms each; ${main.sent} attempts)\n`,
    );

    // baseline 3: the same dispatcher sends the same callbacks again (the rows made pending anew) to a bare HTTP
    // server process answering 204 — the ceiling of Bookie's delivery path on this machine, without the wallet
    const bareBaseline = await (async () => {
      const server = await spawnBare(['wallet']);
      cleanup.push(server.kill);
      await deps.database.db
        .updateTable('white_label')
        .set({ callback_url: server.url })
        .where('id', '=', partner.whiteLabelId)
        .execute();
      await new Promise((r) => setTimeout(r, 1200)); // the dispatcher's cached target expires (1 s)
      const before = dispatcher.stats();
      const b0 = performance.now();
      await sql`update callback_delivery set status = 'pending', queued = true, next_attempt_at = now(), lease_owner = null,
        lease_until = null where bet_id = any(${main.bets.map((b) => b.id)}::text[])`.execute(
        deps.database.db,
      );
      dispatcher.kick();
      while (await anyPending(deps.database.db)) await new Promise((r) => setTimeout(r, 20));
      const ms = performance.now() - b0;
      const after = dispatcher.stats();
      await server.kill();
      await deps.database.db
        .updateTable('white_label')
        .set({ callback_url: callbackUrl })
        .where('id', '=', partner.whiteLabelId)
        .execute();
      return { perS: n / secs(ms), claims: after.claims - before.claims };
    })();

    // baseline 1: one UPDATE of the same rows
    const ids = main.bets.map((b) => b.id);
    const u0 = performance.now();
    await sql`update bet set updated_at = now() where id = any(${ids}::uuid[])`.execute(deps.database.db);
    const updateMs = performance.now() - u0;
    // baseline 2: the wallet alone, on fresh bets (10% of n), signed callbacks at the dispatcher's concurrency
    const fresh = Array.from({ length: Math.max(1000, Math.floor(n / 10)) }, (_, i) => ({
      id: randomUUID(),
      player_id: `rate-${Math.floor(i / 10)}`,
    }));
    await seedWallet(walletDb.db, fresh);
    const walletPerS = await walletRate(wallet.url, partner.signingSecret, fresh, Number(concurrency));

    const credited = await sql<{ n: string }>`select count(*)::text as n from ledger where reason = 'settle'
    and bet_id = any(${ids}::text[])`.execute(walletDb.db);
    if (!bare && Number(credited.rows[0]?.n) !== n)
      throw new Error(`wallet credited ${credited.rows[0]?.n} of ${n} bets`);

    const deliveredPerS = n / secs(main.totalMs);
    return [
      {
        name: bare ? 'settle-bare' : 'settle-wallet',
        metrics: {
          bets: n,
          settled_s: secs(main.settleMs),
          delivered_s: secs(main.totalMs),
          settled_bets_per_s: n / secs(main.settleMs),
          delivered_callbacks_per_s: deliveredPerS,
          baseline_update_rows_s: secs(updateMs),
          ratio_settled_to_update: main.settleMs / updateMs,
          baseline_wallet_callbacks_per_s: walletPerS,
          ratio_delivery_to_wallet: deliveredPerS / walletPerS,
          baseline_bare_dispatch_callbacks_per_s: bareBaseline.perS,
          ratio_delivery_to_bare_dispatch: deliveredPerS / bareBaseline.perS,
          claims_per_callback: main.claims / Math.max(1, main.sent),
          claim_ms_mean: main.claimMs / Math.max(1, main.claims),
          claim_s_total: secs(main.claimMs),
          flush_ms_mean: main.flushMs / Math.max(1, main.flushes),
          bare_claims_per_callback: bareBaseline.claims / n,
        },
        note:
          `Postgres, in-process Bookie (page ${pageSize}, ${concurrency} callbacks in flight) → ` +
          `${bare ? 'a bare HTTP server answering 204' : 'the wallet process'} over loopback; target ≤ 7 s delivered; ` +
          'baselines: one UPDATE of the same rows, the wallet alone, the same dispatcher to a bare 204 server process',
      },
    ];
  }
}
