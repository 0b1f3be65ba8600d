import { validationError } from '@bookie/core';
import { Command } from 'commander';
import pino from 'pino';
import { parseWindow, reconcileReport, reportCsv } from '../modules/reports/reconcile-report.js';
import { cliSettlementDeps } from '../modules/settlement/deps.js';
import { withDatabase } from './database.js';
import { action, printJson } from './io.js';
import { databaseOptions, usageExits2 } from './options.js';
import { callAdmin, type RemoteFlags, remoteOptions } from './remote.js';

/** `bookie report reconcile`: the reconciliation report of settlement, JSON or CSV. */
export function reportCommand(): Command {
  const cmd = new Command('report').description('reports');
  cmd.addCommand(
    remoteOptions(
      databaseOptions(
        new Command('reconcile')
          .description(
            'per white label and currency: stakes accepted, payouts settled (Σ settle − Σ unsettle), unsettled amounts, ' +
              'open exposure, cash-out orders accepted and their payment to the wallet; per bet: Σ settle − Σ unsettle = ' +
              'the current payout',
          )
          .requiredOption(
            '--from <time>',
            'window start, inclusive (ISO 8601, e.g. 2024-05-01 or 2024-05-01T00:00:00Z)',
          )
          .option('--to <time>', 'window end, exclusive (ISO 8601; default now)')
          .option('--format <format>', 'json | csv', 'json')
          .option(
            '--bets',
            'every checked bet (JSON: bets.rows; CSV: the per-bet table instead of the totals)',
          ),
      ),
    ).action(
      action(
        async (
          o: {
            from: string;
            to?: string;
            format: string;
            bets?: boolean;
            dbUrl?: string;
            dataDir?: string;
          } & RemoteFlags,
        ) => {
          if (o.format !== 'json' && o.format !== 'csv') {
            throw validationError('--format', `expected json or csv, got "${o.format}"`);
          }
          const { from, to } = parseWindow(o.from, o.to, '--');
          if (o.url) {
            const query = { from: o.from, to: o.to, format: o.format, bets: o.bets ? 'true' : undefined };
            const answer = await callAdmin(o, 'GET', '/admin/reports/reconcile', { query, text: true });
            if (o.format === 'csv') process.stdout.write(answer as string);
            else printJson(JSON.parse(answer as string));
            return;
          }
          const report = await withDatabase(o, (database, config) =>
            reconcileReport(cliSettlementDeps(database, config, pino({ level: 'silent' })), {
              from,
              to,
              perBet: o.bets === true,
            }),
          );
          if (o.format === 'csv') process.stdout.write(reportCsv(report, o.bets === true));
          else printJson(report);
        },
      ),
    ),
  );
  return usageExits2(cmd);
}
