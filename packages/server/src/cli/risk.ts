import { userInfo } from 'node:os';
import { Command } from 'commander';
import type { Database } from '../db/database.js';
import { builderSettingsView, setBuilderSettings } from '../modules/bet-builder/index.js';
import { cashOutMargins, setCashOutMargin } from '../modules/cash-out/cash-out-margin.js';
import { marginDeps } from '../modules/cash-out/deps.js';
import type { RiskDeps } from '../modules/risk/deps.js';
import { listExposure } from '../modules/risk/exposure.repo.js';
import { getPlayerRisk, putPlayerRisk } from '../modules/risk/player-risk.js';
import { recomputeExposure } from '../modules/risk/recompute-exposure.js';
import { RiskBook } from '../modules/risk/risk-book.js';
import { setGroup } from '../modules/risk/risk-group.js';
import { riskSettings, setDelay, setLimit } from '../modules/risk/risk-settings.js';
import type { Config } from '../platform/config.js';
import { withDatabase } from './database.js';
import { action, EXIT, printJson } from './io.js';
import { databaseOptions, usageExits2 } from './options.js';
import { callAdmin, type RemoteFlags, remoteOptions } from './remote.js';

type DbFlags = { dbUrl?: string; dataDir?: string; actor?: string } & RemoteFlags;

function actorOf(o: DbFlags): string {
  if (o.actor) return o.actor;
  try {
    return `cli:${userInfo().username}`;
  } catch {
    return 'cli';
  }
}

function riskDeps(database: Database, config: Config): RiskDeps {
  const clock = { now: () => Date.now() };
  return {
    database,
    clock,
    config: config.risk,
    eurRates: config.bets.eurRates,
    book: new RiskBook(database.db, 0, clock.now),
  };
}

/** Runs `fn` on the risk engine of the database the flags name, and prints its answer as JSON. */
function run(o: DbFlags, fn: (deps: RiskDeps) => Promise<unknown>): Promise<void> {
  return withDatabase(o, (database, config) => fn(riskDeps(database, config))).then(printJson);
}

const sub = (name: string, description: string) =>
  remoteOptions(databaseOptions(new Command(name).description(description))).option(
    '--actor <name>',
    'who does it, for the audit log (default: cli:<user>; the token with --url)',
  );

/** With `--url`: `method path` on the running server's admin API, printed; else `local` on the database. */
function remoteOr(
  o: DbFlags,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body: unknown,
  local: () => Promise<void>,
  query?: Record<string, string | undefined>,
): Promise<void> {
  if (!o.url) return local();
  return callAdmin(o, method, path, {
    ...(body === undefined ? {} : { body }),
    ...(query ? { query } : {}),
  }).then(printJson);
}

/**
 * `bookie risk …`: the risk engine's settings (limits, groups, delays, players' groups; validated and audited, read by
 * running servers within RISK_SETTINGS_CACHE_MS) and checks (exposure, recompute) — docs/adr/0018-risk-engine.md.
 */
export function riskCommand(): Command {
  const cmd = new Command('risk').description('risk engine: limits, groups, delays, exposure, recompute');
  cmd.addCommand(
    sub(
      'recompute',
      'recompute exposure from the bets; exit 1 when stored exposure differs (the risk rule)',
    ).action(
      action(async (o: DbFlags) => {
        const report = o.url
          ? ((await callAdmin(o, 'POST', '/admin/risk/recompute')) as { ok: boolean })
          : await withDatabase(o, (database) => recomputeExposure(database.db));
        printJson(report);
        if (!report.ok) process.exit(EXIT.failure);
      }),
    ),
  );
  cmd.addCommand(
    sub('show', 'every liability limit, risk group and bet delay').action(
      action((o: DbFlags) =>
        remoteOr(o, 'GET', '/admin/risk/settings', undefined, () => run(o, (d) => riskSettings(d))),
      ),
    ),
  );
  cmd.addCommand(
    sub('exposure', 'stored exposure per outcome, largest first')
      .option('--white-label <id>', 'one white label')
      .option('--sport-event <id>', 'one sport event')
      .option('--market <id>', 'one market')
      .action(
        action((o: DbFlags & { whiteLabel?: string; sportEvent?: string; market?: string }) =>
          remoteOr(
            o,
            'GET',
            '/admin/risk/exposure',
            undefined,
            () =>
              run(o, (d) =>
                listExposure(d.database.db, {
                  ...(o.whiteLabel ? { whiteLabelId: o.whiteLabel } : {}),
                  ...(o.sportEvent ? { sportEventId: o.sportEvent } : {}),
                  ...(o.market ? { marketId: o.market } : {}),
                }),
              ),
            { white_label_id: o.whiteLabel, sport_event_id: o.sportEvent, market_id: o.market },
          ),
        ),
      ),
  );
  cmd.addCommand(
    sub('limit', 'set the liability limit per outcome of a white label (EUR); --liability none removes it')
      .requiredOption('--white-label <id>', 'the white label')
      .option('--market-type <id>', "a market type id, or '*' for every type", '*')
      .requiredOption('--phase <phase>', 'live | prematch')
      .requiredOption('--liability <eur>', 'EUR per outcome, or none')
      .action(
        action(
          (o: DbFlags & { whiteLabel: string; marketType: string; phase: string; liability: string }) => {
            const body = {
              white_label_id: o.whiteLabel,
              market_type_id: o.marketType,
              phase: o.phase,
              liability_eur: o.liability === 'none' ? null : o.liability,
            };
            return remoteOr(o, 'PUT', '/admin/risk/limits', body, () =>
              run(o, (d) => setLimit(d, body, actorOf(o))),
            );
          },
        ),
      ),
  );
  cmd.addCommand(
    sub('group', 'create or change a risk group')
      .argument('<name>', 'group name (a-z, 0-9, _ and -)')
      .requiredOption('--stake-factor <factor>', 'multiplies the remaining liability; 0 blocks')
      .option('--max-payout <eur>', 'the max payout (EUR) a VIP recommended_max_payout is matched to')
      .action(
        action((name: string, o: DbFlags & { stakeFactor: string; maxPayout?: string }) => {
          const body = { name, stake_factor: o.stakeFactor, max_payout_eur: o.maxPayout ?? null };
          return remoteOr(o, 'PUT', '/admin/risk/groups', body, () =>
            run(o, (d) => setGroup(d, body, actorOf(o))),
          );
        }),
      ),
  );
  cmd.addCommand(
    sub('delay', 'set a bet delay level (seconds; none removes it)')
      .requiredOption('--level <level>', 'sport_event | market_type | risk_group')
      .requiredOption('--key <key>', 'the sport event id, market type id or group name')
      .requiredOption('--phase <phase>', 'live | prematch')
      .requiredOption('--seconds <s>', '0–300, or none')
      .action(
        action((o: DbFlags & { level: string; key: string; phase: string; seconds: string }) => {
          const body = {
            level: o.level,
            key: o.key,
            phase: o.phase,
            seconds: o.seconds === 'none' ? null : o.seconds,
          };
          return remoteOr(o, 'PUT', '/admin/risk/delays', body, () =>
            run(o, (d) => setDelay(d, body, actorOf(o))),
          );
        }),
      ),
  );
  cmd.addCommand(
    sub(
      'cash-out-margin',
      "show the cash-out margins, or set a white label's with --white-label and --margin",
    )
      .option('--white-label <id>', 'the white label')
      .option('--margin <fraction>', 'in [0, 1), at most 6 decimals; none removes it (the default applies)')
      .action(
        action((o: DbFlags & { whiteLabel?: string; margin?: string }) =>
          o.url
            ? o.margin === undefined
              ? callAdmin(o, 'GET', '/admin/risk/cash-out-margins').then(printJson)
              : callAdmin(o, 'PUT', '/admin/risk/cash-out-margins', {
                  body: { white_label_id: o.whiteLabel, margin: o.margin === 'none' ? null : o.margin },
                }).then(printJson)
            : withDatabase(o, (database, config) => {
                const deps = marginDeps({ database, config });
                if (o.margin === undefined) return cashOutMargins(deps);
                return setCashOutMargin(
                  deps,
                  { white_label_id: o.whiteLabel, margin: o.margin === 'none' ? null : o.margin },
                  actorOf(o),
                );
              }).then(printJson),
        ),
      ),
  );
  cmd.addCommand(
    sub(
      'bet-builder',
      "show the bet builder settings, or set a white label's with --white-label and --margin and/or --max-legs",
    )
      .option('--white-label <id>', 'the white label')
      .option(
        '--margin <fraction>',
        'in [0, 1), at most 6 decimals; none removes it (the default 0.1 applies)',
      )
      .option('--max-legs <n>', 'most legs in one builder, 1..10; none removes it (the default 10 applies)')
      .action(
        action((o: DbFlags & { whiteLabel?: string; margin?: string; maxLegs?: string }) => {
          const setting = o.margin !== undefined || o.maxLegs !== undefined;
          const body = {
            white_label_id: o.whiteLabel,
            ...(o.margin !== undefined ? { margin: o.margin === 'none' ? null : o.margin } : {}),
            ...(o.maxLegs !== undefined
              ? {
                  max_legs:
                    o.maxLegs === 'none' ? null : /^\d+$/.test(o.maxLegs) ? Number(o.maxLegs) : o.maxLegs,
                }
              : {}),
          };
          if (o.url)
            return (
              setting
                ? callAdmin(o, 'PUT', '/admin/risk/bet-builder-settings', { body })
                : callAdmin(o, 'GET', '/admin/risk/bet-builder-settings')
            ).then(printJson);
          return withDatabase(o, (database) =>
            setting ? setBuilderSettings(database, body, actorOf(o)) : builderSettingsView(database),
          ).then(printJson);
        }),
      ),
  );
  cmd.addCommand(
    sub('player', "show a player's risk, or set the group with --group")
      .requiredOption('--white-label <id>', 'the white label')
      .argument('<playerId>')
      .option('--group <name>', 'put the player in this group')
      .action(
        action((playerId: string, o: DbFlags & { whiteLabel: string; group?: string }) => {
          if (o.url) {
            const path = `/admin/risk/players/${encodeURIComponent(o.whiteLabel)}/${encodeURIComponent(playerId)}`;
            return (
              o.group ? callAdmin(o, 'PUT', path, { body: { group: o.group } }) : callAdmin(o, 'GET', path)
            ).then(printJson);
          }
          return run(o, (d) =>
            o.group
              ? putPlayerRisk(d, {
                  whiteLabelId: o.whiteLabel,
                  playerId,
                  group: o.group,
                  source: 'operator',
                  actor: actorOf(o),
                })
              : getPlayerRisk(d, o.whiteLabel, playerId),
          );
        }),
      ),
  );
  return usageExits2(cmd);
}
