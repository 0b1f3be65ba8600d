/**
 * A full real season (Premier League 2023/24, 380 matches) replayed at max speed into a real `bookie start`
 * process over the trading API, then every sport event read back and compared with the results computed from the
 * CSV's scores. On Postgres (DATABASE_URL) the server gets a database of its own; else the embedded PGlite.
 */
import type { SportEvent } from '@bookie/contracts';
// test-only use of the server's process helpers (the simulator package itself never imports the server)
import { createTestDatabase, type TestDatabase } from '@bookie/server/testing/database';
import { type BookieProcess, startBookie } from '@bookie/server/testing/process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyScript, type HttpTradingClient, httpTradingClient } from './apply-script.js';
import { readFootballData } from './football-data.js';
import { asianHandicapResult } from './results.js';
import { buildSeasonScript, type SeasonScript } from './season-script.js';
import { dataFile } from './testing.js';

const TOKEN = 'simulator-e2e-operator-token';

describe('a real season through a real bookie process', () => {
  let db: TestDatabase | undefined;
  let bookie: BookieProcess;
  let client: HttpTradingClient;
  let script: SeasonScript;

  beforeAll(async () => {
    db = process.env.DATABASE_URL ? await createTestDatabase({ migrate: false }) : undefined;
    bookie = await startBookie(db?.url ? ['--db-url', db.url] : [], {
      env: { BOOKIE_ADMIN_TOKEN: TOKEN },
      timeoutMs: 60_000,
    });
    client = httpTradingClient({ baseUrl: bookie.url, token: TOKEN });
    script = buildSeasonScript([await readFootballData(dataFile('E0_2324.csv'))]);
  }, 90_000);

  afterAll(async () => {
    await client?.close();
    if (bookie) expect(await bookie.kill('SIGTERM')).toBe(0);
    await db?.close();
  });

  it('imports 380 matches at max speed and ends each one with the results of its real score', async () => {
    const report = await applyScript(script.steps, { client, speed: 'max' });
    // measured, for the record (docs/adr/0010-replay-importer.md "Performance")
    console.info(
      `replayed ${script.matches.length} matches: ${report.commands} commands in ${Math.round(report.elapsedMs)} ms ` +
        `(${(report.elapsedMs / report.commands).toFixed(1)} ms/command)`,
    );
    expect(report.commands).toBe(script.steps.length);
    expect(report.byStep).toMatchObject({
      open: 380,
      kick_off: 380,
      full_time: 380,
      results: 380,
      ended: 380,
    });
    // every command appended a log entry (versions ascend, not necessarily contiguously: DECISIONS D21)
    expect(BigInt(report.lastVersion ?? '0')).toBeGreaterThanOrEqual(BigInt(script.steps.length));

    const seen = new Set<number>();
    let asianOutcomes = 0;
    for (const m of script.matches) {
      const got = await client.getSportEvent(m.sportEventId);
      expect(got, `${m.row.home} v ${m.row.away}`).toBeDefined();
      const e = got!.sport_event as SportEvent;
      expect(e.fixture.status).toBe(3);
      expect(e.bet_stop).toBe(true);
      expect(e.fixture.start_time).toBe(m.row.kickOff);
      expect(e.fixture.competitors[m.homeId]!.scores.total!.points).toBe(String(m.row.fullTime.home));
      expect(e.fixture.competitors[m.awayId]!.scores.total!.points).toBe(String(m.row.fullTime.away));
      // the script knows the odds; the platform adds each odd's probability (margin removed over the market)
      const probabilities: string[] = [];
      const withoutProbabilities = Object.values(e.markets).map((market) => ({
        ...market,
        odds: Object.fromEntries(
          Object.entries(market.odds).map(([id, { probability, ...odd }]) => {
            if (probability !== undefined) probabilities.push(probability);
            return [id, odd];
          }),
        ),
      }));
      expect(withoutProbabilities).toEqual(m.finalMarkets);
      expect(probabilities.length).toBeGreaterThan(0);
      for (const p of probabilities) expect(p).toMatch(/^(0|1)\.\d{12}$/);
      for (const market of Object.values(e.markets)) {
        expect(market.status).toBe(3);
        for (const o of Object.values(market.odds)) seen.add(o.status);
        if (market.type_id === 16) {
          const r = asianHandicapResult(m.row.fullTime, market.specifiers.hcp!);
          expect({ home: market.odds.home!.status, away: market.odds.away!.status }).toEqual(r);
          asianOutcomes += 2;
        }
      }
    }
    expect(asianOutcomes).toBe(760);
    expect([...seen].sort()).toEqual([1, 2, 3, 4, 5]);
  }, 240_000);
});
