import { fileURLToPath } from 'node:url';
import { validationError } from '@bookie/core';
import { ensureFrameBuilt } from '@bookie/frame/build';
import { Command } from 'commander';
import { type FrameDemo, startFrameDemo } from './frame-demo.js';
import { action } from './io.js';
import {
  parseCount,
  parseSpeed,
  REPLAY_LIMITS,
  type ReplayPlatform,
  readSeasons,
  startReplayPlatform,
} from './replay.js';

/** The season `npm start` replays: Premier League 2023/24 (shipped with the simulator, see data/ATTRIBUTION.md). */
export const DEMO_SEASON = fileURLToPath(
  new URL('../data/E0_2324.csv', import.meta.resolve('@bookie/simulator/index')),
);

/** The demo's default pace: two simulated hours per second (a round of ten matches, Friday to Monday, in ~40 s). */
export const DEMO_SPEED = 7200;

type DemoFlags = {
  speed: string;
  seed: string;
  bets?: string;
  port: string;
  walletPort: string;
  sitePort: string;
  dataDir?: string;
  dbUrl?: string;
};

function parsePort(flag: string, raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) > 65_535)
    throw validationError(flag, `expected a port 0..65535, got "${raw}"`);
  return Number(raw);
}

/** A backoffice login of the demo. */
interface DemoUser {
  email: string;
  password: string;
}

/**
 * Creates the demo's backoffice users over the admin API: an operator and a partner admin of the demo's white label
 * (DECISIONS D53), each with a generated password.
 */
async function demoUsers(p: ReplayPlatform): Promise<{ operator: DemoUser; partner: DemoUser }> {
  const create = async (body: Record<string, unknown>): Promise<DemoUser> => {
    const res = await fetch(`${p.bookieUrl}/admin/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${p.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 201) throw new Error(`demo users: ${res.status} ${await res.text()}`);
    const r = (await res.json()) as { user: { email: string }; password: string };
    return { email: r.user.email, password: r.password };
  };
  return {
    operator: await create({ email: 'operator@bookie.demo', role: 'operator' }),
    partner: await create({
      email: 'partner@bookie.demo',
      role: 'partner_admin',
      white_label_id: p.whiteLabelId,
    }),
  };
}

function banner(
  p: ReplayPlatform,
  title: string,
  speed: number | 'max',
  frame: FrameDemo,
  users: { operator: DemoUser; partner: DemoUser },
): string {
  const b = p.bookieUrl;
  const lines = [
    '',
    `Bookie demo: ${title}, replayed ${speed === 'max' ? 'as fast as possible' : `at ${speed}× real time`}, with a seeded crowd of bettors.`,
    '',
    `  Bet yourself         ${frame.site.url}/   (a partner's site embedding the betting frame; you are player "${frame.playerId}")`,
    '',
    `  Bookie               ${b}   (health: ${b}/healthz)`,
    `  API reference        ${b}/docs`,
    `  Trading feed         ${b}/all and ${b}/log   (partner token below)`,
    `  Wallet balances      ${p.walletUrl}/players/bettor-001/balance   (bettor-001 … , ledger: /players/<id>/ledger)`,
    `  Database             ${p.database}`,
    '',
    `  Partner credentials  client_id ${p.clientId}  client_secret ${p.clientSecret}`,
    `    token:  curl -s -u '${p.clientId}:${p.clientSecret}' -d grant_type=client_credentials ${b}/oauth/token`,
    `    feed:   curl -sN -H "Authorization: Bearer <access_token>" -H "Last-Version: 0" ${b}/log`,
    `  Operator token       ${p.adminToken}   (e.g. ${b}/admin/settlement/status)`,
    `  MCP (integration)    ${b}/mcp   (stdio: BOOKIE_CLIENT_ID=… BOOKIE_CLIENT_SECRET=… npx bookie mcp --url ${b})`,
    `  Partner check        curl -s -H "Authorization: Bearer <access_token>" -H 'content-type: application/json' -d '{"player_id":"bettor-001"}' ${b}/integration/partner-check`,
    '',
    `  Backoffice           ${b}/backoffice/   log in as`,
    `    operator           ${users.operator.email}   password ${users.operator.password}`,
    `    partner            ${users.partner.email}   password ${users.partner.password}   (white label ${p.whiteLabelId})`,
    '',
    'Ctrl-C stops everything.',
    '',
  ];
  return lines.join('\n');
}

/**
 * `bookie demo` (what `npm start` runs): the platform and the reference wallet on an embedded in-memory database,
 * and a real season replayed at a watchable pace, with a one-line ticker; it keeps serving after the season until
 * Ctrl-C.
 */
export function demoCommand(): Command {
  return new Command('demo')
    .description(
      'the platform, the reference wallet and a real season replayed at a watchable pace (what `npm start` runs); ' +
        'Ctrl-C stops everything',
    )
    .argument('[csv...]', 'football-data.co.uk CSV files (default: Premier League 2023/24)')
    .option('--speed <N>', 'N× real time (max: as fast as possible)', String(DEMO_SPEED))
    .option('--seed <seed>', 'seed of the bettors', '1')
    .option('--bets <n>', 'bets to place in all (default 14 per match)')
    .option('--port <port>', "Bookie's port", process.env.PORT ?? '8080')
    .option('--wallet-port <port>', "the reference wallet's port", '8090')
    .option('--site-port <port>', "the demo partner site's port (it embeds the betting frame)", '8091')
    .option('--data-dir <dir>', "Bookie's PGlite data directory (default: in memory, a new book every start)")
    .option('--db-url <url>', "Bookie's Postgres instead (an empty database)")
    .action(
      action(async (files: string[], o: DemoFlags) => {
        const speed = parseSpeed(o.speed);
        const bets = parseCount('--bets', o.bets);
        const port = parsePort('--port', o.port);
        const walletPort = parsePort('--wallet-port', o.walletPort);
        const sitePort = parsePort('--site-port', o.sitePort);
        const t0 = performance.now();
        // Ctrl-C at any moment: abort the replay, stop Bookie and the wallet, exit 0 (a second Ctrl-C: at once)
        const abort = new AbortController();
        let platform: ReplayPlatform | undefined;
        let stopping = false;
        const stop = () => {
          if (stopping) process.exit(130);
          stopping = true;
          abort.abort(new Error('interrupted'));
          process.stdout.write('\nstopping…\n');
          if (platform) void platform.stop().finally(() => process.exit(0));
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
        // Bookie serves the frame build it finds at start: build it first when missing or stale
        await ensureFrameBuilt();
        // the demo is an integration environment (DECISIONS D51): MCP, sandbox helpers and the partner check
        process.env.BOOKIE_ENV ||= 'integration';
        platform = await startReplayPlatform({
          port,
          walletPort,
          dbUrl: o.dbUrl,
          dataDir: o.dataDir,
          bookie: 'in-process',
          wallet: 'in-process',
          // the ticker owns the terminal: only errors (or $LOG_LEVEL)
          logLevel: process.env.LOG_LEVEL ?? 'error',
        });
        if (stopping) {
          await platform.stop();
          process.exit(0);
        }
        const frame = await startFrameDemo(platform, { sitePort });
        const platformStop = platform.stop;
        platform.stop = async () => {
          await frame.site.stop();
          await platformStop();
        };
        const { AdminApi, formatReport, runReplay, simulatedClock, ticker } = await import(
          '@bookie/simulator'
        );
        const { Agent } = await import('undici');
        const seasons = await readSeasons(files.length > 0 ? files : [DEMO_SEASON]);
        const first = seasons[0]?.matches[0];
        const title = first
          ? `${seasons.map((s) => s.matches[0]?.season).join(', ')} ${first.league === 'E0' ? 'Premier League' : first.league}`
          : 'a season';
        process.stdout.write(banner(platform, title, speed, frame, await demoUsers(platform)));
        process.stdout.write(`(up in ${((performance.now() - t0) / 1000).toFixed(1)} s)\n\n`);

        const line = ticker();
        const agent = new Agent({ connections: 2 });
        const admin = new AdminApi(agent, platform.bookieUrl, platform.adminToken);
        let settled = 0;
        const poll = setInterval(() => {
          admin.settlementStatus().then(
            (s) => {
              settled = s.settled;
            },
            () => {},
          );
        }, 2000);
        poll.unref();
        let lastDraw = 0;
        try {
          const result = await runReplay(platform, {
            seasons,
            seed: o.seed,
            speed,
            maxWaitMs: 1500,
            ...(bets ? { bets } : {}),
            minStake: Number(REPLAY_LIMITS.min_stake),
            maxStake: Number(REPLAY_LIMITS.max_stake),
            signal: abort.signal,
            onProgress: (p) => {
              const now = Date.now();
              if (now - lastDraw < 200 && p.phase === 'running') return;
              lastDraw = now;
              line.show(
                `${simulatedClock(p)} UTC │ ${p.matchesEnded}/${p.matchesTotal} matches │ ` +
                  `last: ${p.lastResult ?? '—'} │ bets ${p.betsDone} (${p.accepted} accepted) │ settled ${settled}` +
                  (p.phase === 'running' ? '' : ` │ ${p.phase}`),
              );
            },
          });
          line.done();
          process.stdout.write(
            `\n${formatReport(result.report)}\n\nThe season is over; Bookie keeps serving. Ctrl-C stops it.\n`,
          );
        } catch (err) {
          line.done();
          if (stopping) return;
          // a problem of the replay (e.g. a timeout) is reported; Bookie, the wallet and the site keep serving
          process.stdout.write(
            `\nThe replay stopped: ${err instanceof Error ? err.message : String(err)}\n` +
              'Bookie keeps serving. Ctrl-C stops it.\n',
          );
        } finally {
          clearInterval(poll);
          await agent.close();
        }
        // keep serving until a signal
        await new Promise(() => {});
      }),
    );
}
