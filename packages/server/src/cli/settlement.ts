import { userInfo } from 'node:os';
import { Command, Option } from 'commander';
import { decideQuarantined } from '../modules/settlement/quarantine/decide-quarantined.js';
import { listQuarantined } from '../modules/settlement/quarantine/list-quarantine.js';
import { withDatabase } from './database.js';
import { action, printJson } from './io.js';
import { databaseOptions, usageExits2 } from './options.js';
import { callAdmin, type RemoteFlags, remoteOptions } from './remote.js';

type DbFlags = { dbUrl?: string; dataDir?: string } & RemoteFlags;

function defaultActor(): string {
  try {
    return `cli:${userInfo().username}`;
  } catch {
    return 'cli';
  }
}

function decisionCommand(decision: 'retry' | 'skip', description: string): Command {
  return remoteOptions(
    databaseOptions(
      new Command(decision)
        .description(description)
        .argument('<version>', 'the log version of the quarantined entry')
        .requiredOption('--reason <text>', 'why (kept in the audit log)')
        .option(
          '--actor <name>',
          'who does it, for the audit log (default: cli:<user>; the token with --url)',
        ),
    ),
  ).action(
    action(async (v: string, o: DbFlags & { reason: string; actor?: string }) => {
      if (o.url) {
        const path = `/admin/settlement/quarantine/${encodeURIComponent(v)}/${decision}`;
        printJson(await callAdmin(o, 'POST', path, { body: { reason: o.reason } }));
        return;
      }
      const out = await withDatabase(o, (database) =>
        decideQuarantined(
          { database, clock: { now: () => Date.now() } },
          { v, decision, reason: o.reason, actor: o.actor ?? defaultActor() },
        ),
      );
      printJson(out);
    }),
  );
}

/**
 * `bookie settlement quarantine list|retry|skip`: log entries the settlement consumer gave up on after repeated
 * failures (docs/adr/0016-safety-and-conformance.md). Retry and skip are audited; a running server's leading
 * consumer takes a retry up at its next sweep.
 */
export function settlementCommand(): Command {
  const quarantine = new Command('quarantine').description(
    'log entries settlement gave up on: list, retry or skip them',
  );
  quarantine.addCommand(
    remoteOptions(
      databaseOptions(
        new Command('list')
          .description('quarantined entries, oldest first, with their error')
          .addOption(
            new Option('--status <status>', 'only entries in this status').choices([
              'quarantined',
              'retry',
              'resolved',
              'skipped',
            ]),
          ),
      ),
    ).action(
      action(async (o: DbFlags & { status?: 'quarantined' | 'retry' | 'resolved' | 'skipped' }) => {
        if (o.url) {
          printJson(
            await callAdmin(o, 'GET', '/admin/settlement/quarantine', { query: { status: o.status } }),
          );
          return;
        }
        const items = await withDatabase(o, (database) =>
          listQuarantined({ database }, o.status ? { status: o.status } : {}),
        );
        printJson({ items });
      }),
    ),
  );
  quarantine.addCommand(decisionCommand('retry', 'have the settlement consumer process the entry again'));
  quarantine.addCommand(decisionCommand('skip', 'leave the entry unprocessed for good'));
  const cmd = new Command('settlement').description('the settlement consumer');
  cmd.addCommand(quarantine);
  return usageExits2(cmd);
}
