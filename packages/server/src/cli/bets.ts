import { userInfo } from 'node:os';
import { BET_STATUS_CODES, describeCodes, ODD_STATUS_CODES } from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import { Command, InvalidArgumentError } from 'commander';
import pino from 'pino';
import { toBetView } from '../modules/bets/bet-view.js';
import { loadBets } from '../modules/bets/bets.repo.js';
import { notifyOutbox } from '../modules/callbacks/callbacks.repo.js';
import type { SettlementDeps } from '../modules/settlement/deps.js';
import { cliSettlementDeps } from '../modules/settlement/deps.js';
import { cancelBet } from '../modules/settlement/operator-actions/cancel-bet.js';
import type {
  OperatorActionInput,
  OperatorActionResult,
} from '../modules/settlement/operator-actions/operator-action.js';
import { refundBet } from '../modules/settlement/operator-actions/refund-bet.js';
import { resettleBet } from '../modules/settlement/operator-actions/resettle-bet.js';
import { voidBet } from '../modules/settlement/operator-actions/void-bet.js';
import { betLedger } from '../modules/settlement/settlement.repo.js';
import { withDatabase } from './database.js';
import { action, printJson } from './io.js';
import { databaseOptions, usageExits2 } from './options.js';
import { callAdmin, type RemoteFlags, remoteOptions } from './remote.js';

function selectionIndex(v: string, prev: number[] = []): number[] {
  if (!/^\d+$/.test(v) || Number(v) > 1000)
    throw new InvalidArgumentError('expected a selection index 0..1000');
  return [...prev, Number(v)];
}

function defaultActor(): string {
  try {
    return `cli:${userInfo().username}`;
  } catch {
    return 'cli';
  }
}

type ActionFlags = RemoteFlags & {
  reason: string;
  actor?: string;
  selection?: number[];
  reinstate?: boolean;
  dbUrl?: string;
  dataDir?: string;
};

function operatorCommand(
  name: string,
  description: string,
  run: (deps: SettlementDeps, input: OperatorActionInput) => Promise<OperatorActionResult>,
  extra: (cmd: Command) => Command = (c) => c,
): Command {
  const cmd = extra(
    new Command(name)
      .description(description)
      .argument('<betId>', 'the bet id')
      .requiredOption('--reason <text>', 'why (kept in the audit log)')
      .option('--actor <name>', 'who does it, for the audit log (default: cli:<user>)'),
  );
  return remoteOptions(databaseOptions(cmd)).action(
    action(async (betId: string, o: ActionFlags) => {
      if (o.url) {
        const body = {
          reason: o.reason,
          ...(o.selection ? { selections: o.selection } : {}),
          ...(o.reinstate ? { reinstate: true } : {}),
        };
        const headers = { 'x-operator': o.actor ?? defaultActor() };
        printJson(
          await callAdmin(o, 'POST', `/admin/bets/${encodeURIComponent(betId)}/${name}`, { body, headers }),
        );
        return;
      }
      const result = await withDatabase(o, async (database, config) => {
        const r = await run(cliSettlementDeps(database, config, pino({ level: 'silent' })), {
          betId,
          reason: o.reason,
          actor: o.actor ?? defaultActor(),
          ...(o.selection ? { selections: o.selection } : {}),
          ...(o.reinstate ? { reinstate: true } : {}),
        });
        // wake the running servers' dispatchers (Postgres; on PGlite no server runs alongside)
        if (r.callbacks > 0) await notifyOutbox(database.db);
        return r;
      });
      printJson(result);
    }),
  );
}

/**
 * `bookie bets show|refund|void|cancel|resettle`: the operator's manual actions on a bet (docs/adr/0008), each in one
 * transaction with its callbacks and an audit_log row. Run against the server's database (a running server's
 * dispatcher sends the callbacks, woken by a NOTIFY on Postgres), or with `--url` through a running server's admin
 * API (the way while a server holds an embedded database, which only one process can open).
 */
export function betsCommand(): Command {
  const cmd = new Command('bets')
    .description('operator actions on bets: refund, void, cancel, resettle')
    .addHelpText(
      'after',
      `
Bet status numbers (the "status" of a bet):
  ${describeCodes(BET_STATUS_CODES)}.
  5 refunded: every selection void; 10 place error: the partner refused the hold; 11 force-declined: the
  partner's /bet/place could not be reached (the restriction's context says why).
Selection status numbers (each selection's odd status):
  ${describeCodes(ODD_STATUS_CODES)}.
While \`bookie start\` runs on the embedded database, add --url http://HOST:PORT (and BOOKIE_ADMIN_TOKEN).`,
    );
  cmd.addCommand(
    remoteOptions(
      databaseOptions(
        new Command('show').description('a bet with its settlement ledger').argument('<betId>'),
      ),
    ).action(
      action(async (betId: string, o: RemoteFlags & { dbUrl?: string; dataDir?: string }) => {
        if (o.url) {
          printJson(await callAdmin(o, 'GET', `/admin/bets/${encodeURIComponent(betId)}`));
          return;
        }
        const out = await withDatabase(o, async (database) => {
          const [bet] = /^[0-9a-f-]{36}$/i.test(betId) ? await loadBets(database.db, [betId]) : [];
          if (!bet) throw new DomainError('not_found', `no bet ${betId}`);
          return { bet: toBetView(bet), settlements: await betLedger(database.db, betId) };
        });
        printJson(out);
      }),
    ),
  );
  cmd.addCommand(
    operatorCommand(
      'refund',
      'refund a bet manually: every selection 7 (refunded manually), the stake paid back (status 6)',
      refundBet,
    ),
  );
  cmd.addCommand(
    operatorCommand(
      'void',
      'void a bet: every selection 6 (cancelled), the stake paid back (status 5)',
      voidBet,
    ),
  );
  cmd.addCommand(
    operatorCommand(
      'cancel',
      'cancel selections of a bet (all by default) and recalculate it on the others',
      cancelBet,
      (c) =>
        c.option('--selection <index>', 'a selection index (0-based) to cancel; repeatable', selectionIndex),
    ),
  );
  cmd.addCommand(
    operatorCommand(
      'resettle',
      'recompute a bet from its current results (an unsettle and a settle when it changed)',
      resettleBet,
      (c) => c.option('--reinstate', 'drop results set by an operator (refund, void, cancel) first'),
    ),
  );
  return usageExits2(cmd);
}
