import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN_TOKEN } from '../../testing/partner.js';
import { waitUntil } from '../../testing/scripted-partner.js';
import { type SettlementWorld, settlementWorld } from '../settlement/settlement.testing.js';

/** Debian's `prometheus` package installs it here. */
const PROMTOOL = '/usr/bin/promtool';

/** The sample lines of an exposition: `name{labels}` → value. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const i = line.lastIndexOf(' ');
    out.set(line.slice(0, i), Number(line.slice(i + 1)));
  }
  return out;
}

const bookieSeries = (m: Map<string, number>) => [...m.keys()].filter((k) => k.startsWith('bookie_')).sort();

describe(`Prometheus metrics (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let w: SettlementWorld;
  let event: string;
  const ids: string[] = [];
  const players: string[] = [];
  let tokens: string[] = [];

  const scrape = async (token?: string) =>
    w.t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });

  /** Places one accepted bet for each of `n` new players, spread over the white labels. */
  async function betsOfNewPlayers(n: number, market: string) {
    for (let i = 0; i < n; i++) {
      const playerId = `player-${players.length}-${Math.random().toString(36).slice(2)}`;
      players.push(playerId);
      const session = await w.newPlayerSession(tokens[i % tokens.length]!, playerId);
      const bet = await w.place(session, { selections: [w.sel(event, market, '1')] });
      ids.push(bet.id);
    }
  }

  beforeAll(async () => {
    w = await settlementWorld();
    const a = await w.newPlayer('first-a');
    const b = await w.newPlayer('first-b', { mode: 'turnkey' });
    tokens = [a.token, b.token];
    event = await w.newEvent(2);
  }, 60_000);
  afterAll(async () => {
    await w?.close();
  });

  it('is served to the operator only', async () => {
    expect([401, 403]).toContain((await scrape()).statusCode);
    expect([401, 403]).toContain((await scrape(tokens[0])).statusCode);
    const ok = await scrape(TEST_ADMIN_TOKEN);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('counts bets, callbacks, settlement and leadership; label sets stay bounded as players and bets grow', async () => {
    await betsOfNewPlayers(6, '1');
    await w.result(event, [{ id: '1', odds: [{ id: '1', status: 1 }] }]);
    await waitUntil(async () => {
      const m = samples((await scrape(TEST_ADMIN_TOKEN)).body);
      return [...m].filter(([k]) => k.startsWith('bookie_callback_queue_depth')).every(([, v]) => v === 0);
    }, 20_000);
    const first = (await scrape(TEST_ADMIN_TOKEN)).body;
    const m1 = samples(first);
    const accepted = [...m1]
      .filter(([k]) => k.startsWith('bookie_bets_total{') && k.includes('outcome="accepted"'))
      .reduce((s, [, v]) => s + v, 0);
    expect(accepted).toBe(6);
    expect(m1.get('bookie_bet_decision_seconds_count{mode="turnkey"}') ?? 0).toBeGreaterThan(0);
    expect(
      [...m1].filter(([k]) => k.startsWith('bookie_callback_attempts_total{') && k.includes('"2xx"')).length,
    ).toBeGreaterThan(0);
    expect(m1.get('bookie_leader{role="settlement"}')).toBe(1);
    for (const role of ['retention', 'placement-recovery', 'heartbeats']) {
      await waitUntil(
        async () => samples((await scrape(TEST_ADMIN_TOKEN)).body).get(`bookie_leader{role="${role}"}`) === 1,
      );
    }
    expect(m1.get('bookie_feed_head_version')).toBeGreaterThan(0);
    expect(m1.get('bookie_settlement_quarantined_entries')).toBe(0);
    expect(m1.has('process_cpu_user_seconds_total')).toBe(true);

    // more bets by more players: the same series, only their values move
    await betsOfNewPlayers(8, '2');
    await w.result(event, [{ id: '2', odds: [{ id: '1', status: 2 }] }]);
    const second = (await scrape(TEST_ADMIN_TOKEN)).body;
    const m2 = samples(second);
    const before = new Set(bookieSeries(m1));
    const added = bookieSeries(m2).filter((k) => !before.has(k));
    // only bounded label values may appear (a new outcome or status class), never one per bet or player
    expect(added.length).toBeLessThan(5);
    for (const text of [first, second]) {
      for (const id of [...ids, ...players]) expect(text).not.toContain(id);
    }
    const labelValues = new Set(
      [...m2.keys()].flatMap((k) => [...k.matchAll(/="([^"]*)"/g)].map((x) => x[1] as string)),
    );
    const whiteLabels = (await w.t.deps.database.db.selectFrom('white_label').select('id').execute()).length;
    // roles, modes, outcomes, classes, paths, phases, sports, buckets, white labels, process defaults
    expect(labelValues.size).toBeLessThan(80 + whiteLabels);

    // Debian's `prometheus` package gives promtool; .ci/run installs it, as it installs Chromium
    expect(existsSync(PROMTOOL), `${PROMTOOL} missing: apt-get install -y prometheus`).toBe(true);
    {
      const dir = mkdtempSync(join(tmpdir(), 'bookie-metrics-'));
      try {
        writeFileSync(join(dir, 'metrics.txt'), second);
        // exits non-zero and prints the problems when there are any
        const r = spawnSync('sh', ['-c', `${PROMTOOL} check metrics < ${join(dir, 'metrics.txt')} 2>&1`], {
          encoding: 'utf8',
        });
        expect({ status: r.status, problems: r.stdout.trim() }).toEqual({ status: 0, problems: '' });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }, 60_000);
});
