import { validationError } from '@bookie/core';
import { Command, InvalidArgumentError } from 'commander';
import { listCallbackDeliveries, showCallbackDelivery } from '../modules/callbacks/list-deliveries.js';
import { retryCallbackDelivery } from '../modules/callbacks/retry-delivery.js';
import { withDatabase } from './database.js';
import { action, printJson } from './io.js';
import { databaseOptions } from './options.js';
import { callAdmin, type RemoteFlags, remoteOptions } from './remote.js';

function positiveInt(v: string): number {
  if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 1000)
    throw new InvalidArgumentError('expected 1..1000');
  return Number(v);
}

/** `bookie callbacks list|show|retry`: the operator's view of the callback outbox (DECISIONS D10). */
export function callbacksCommand(): Command {
  const cmd = new Command('callbacks')
    .description('see and retry partner callback deliveries (the outbox)')
    .addHelpText(
      'after',
      `
A delivery's status: pending (not yet answered with 2xx; retried with backoff 1 s, 5 s, 30 s, 2 min, 10 min,
30 min, 1 h, then every 2 h, never given up), delivered (answered 2xx), failed (a /bet/place that ended the bet).
last_status is the partner's HTTP status of the last attempt (null: no answer, e.g. a timeout or refused
connection; last_error says which).
While \`bookie start\` runs on the embedded database, add --url http://HOST:PORT (and BOOKIE_ADMIN_TOKEN).`,
    );
  const data = (c: Command) => remoteOptions(databaseOptions(c));
  cmd.addCommand(
    data(
      new Command('list')
        .description('list deliveries, newest first')
        .option('--status <status>', 'pending | delivered | failed | unsupported')
        .option('--failing', 'only deliveries with a failed attempt')
        .option('--bet <betId>', 'only this bet')
        .option('--wl <whiteLabelId>', 'only this white label')
        .option('--limit <n>', 'at most n rows (1..1000)', positiveInt, 100),
    ).action(
      action(
        async (
          o: {
            status?: string;
            failing?: boolean;
            bet?: string;
            wl?: string;
            limit: number;
            dbUrl?: string;
            dataDir?: string;
          } & RemoteFlags,
        ) => {
          if (o.status && !['pending', 'delivered', 'failed', 'unsupported'].includes(o.status)) {
            throw validationError(
              '--status',
              `expected pending, delivered, failed or unsupported, got "${o.status}"`,
            );
          }
          if (o.url) {
            const query = {
              limit: String(o.limit),
              status: o.status,
              failing: o.failing ? 'true' : undefined,
              bet_id: o.bet,
              white_label_id: o.wl,
            };
            printJson(await callAdmin(o, 'GET', '/admin/callbacks', { query }));
            return;
          }
          const items = await withDatabase(o, (database) =>
            listCallbackDeliveries(database.db, {
              limit: o.limit,
              ...(o.status ? { status: o.status as 'pending' } : {}),
              ...(o.failing ? { failing: true } : {}),
              ...(o.bet ? { betId: o.bet } : {}),
              ...(o.wl ? { whiteLabelId: o.wl } : {}),
            }),
          );
          printJson({ items });
        },
      ),
    ),
  );
  cmd.addCommand(
    data(
      new Command('show')
        .description('one delivery with its body')
        .argument('<id>', 'outbox id or request_id'),
    ).action(
      action(async (id: string, o: { dbUrl?: string; dataDir?: string } & RemoteFlags) => {
        if (o.url) return printJson(await callAdmin(o, 'GET', `/admin/callbacks/${encodeURIComponent(id)}`));
        printJson(await withDatabase(o, (database) => showCallbackDelivery(database.db, id)));
      }),
    ),
  );
  cmd.addCommand(
    data(
      new Command('retry')
        .description('make a pending delivery due now')
        .argument('<id>', 'outbox id or request_id'),
    ).action(
      action(async (id: string, o: { dbUrl?: string; dataDir?: string } & RemoteFlags) => {
        if (o.url) {
          return printJson(await callAdmin(o, 'POST', `/admin/callbacks/${encodeURIComponent(id)}/retry`));
        }
        printJson(await withDatabase(o, (database) => retryCallbackDelivery(database.db, id)));
      }),
    ),
  );
  return cmd;
}
