import { Command } from 'commander';
import { databaseTarget } from '../config.js';
import { openWalletDatabase } from '../db/database.js';
import { checkAccountKey, deposit } from '../ledger/deposit.js';
import { toMicros } from '../money.js';
import { action, printJson } from './io.js';
import { callWallet, databaseOptions, remoteOptions } from './options.js';

interface DepositFlags {
  currency: string;
  reference?: string;
  url?: string;
  adminToken?: string;
  dbUrl?: string;
  dataDir?: string;
}

/** `bookie-wallet deposit <player> <amount>`: credits a deposit, through a running wallet (`--url`) or the database. */
export function depositCommand(): Command {
  return remoteOptions(
    databaseOptions(
      new Command('deposit')
        .description('deposit money on a player account; prints the balance')
        .argument('<player>', 'player id')
        .argument('<amount>', 'decimal amount, at most 6 decimals, e.g. 100.00')
        .option('--currency <code>', 'currency code', 'EUR')
        .option('--reference <ref>', 'idempotency reference: a repeat with it deposits nothing'),
    ),
  ).action(
    action(async (player: string, amount: string, flags: DepositFlags) => {
      const input = {
        currency: flags.currency,
        amount,
        ...(flags.reference ? { reference: flags.reference } : {}),
      };
      checkAccountKey(player, flags.currency); // bad input fails before the database opens
      toMicros(amount, 'amount', { allowZero: false });
      if (flags.url) {
        const token = flags.adminToken ?? process.env.WALLET_ADMIN_TOKEN;
        printJson(
          await callWallet(
            flags.url,
            'POST',
            `/players/${encodeURIComponent(player)}/deposits`,
            input,
            token,
          ),
        );
        return;
      }
      const database = await openWalletDatabase(databaseTarget(process.env, flags));
      try {
        printJson(await deposit(database.db, { playerId: player, ...input }));
      } finally {
        await database.close();
      }
    }),
  );
}
