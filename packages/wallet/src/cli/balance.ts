import { Command } from 'commander';
import { databaseTarget } from '../config.js';
import { openWalletDatabase } from '../db/database.js';
import { balanceView } from '../http/api-routes.js';
import { action, printJson } from './io.js';
import { callWallet, databaseOptions, remoteOptions } from './options.js';

/** `bookie-wallet balance <player>`: available and held per currency. */
export function balanceCommand(): Command {
  return remoteOptions(
    databaseOptions(
      new Command('balance')
        .description("print a player's balances: available and held, per currency")
        .argument('<player>', 'player id'),
    ),
  ).action(
    action(async (player: string, flags: { url?: string; dbUrl?: string; dataDir?: string }) => {
      if (flags.url) {
        printJson(await callWallet(flags.url, 'GET', `/players/${encodeURIComponent(player)}/balance`));
        return;
      }
      const database = await openWalletDatabase(databaseTarget(process.env, flags));
      try {
        printJson(await balanceView(database.db, player));
      } finally {
        await database.close();
      }
    }),
  );
}
