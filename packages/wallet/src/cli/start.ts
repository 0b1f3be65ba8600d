import { stopGracefully } from '@bookie/process';
import { Command } from 'commander';
import { loadWalletConfig, type WalletFlags } from '../config.js';
import { startWallet } from '../server.js';
import { action } from './io.js';
import { databaseOptions } from './options.js';

/** `bookie-wallet start`: runs the wallet until SIGTERM/SIGINT, then shuts down gracefully (exit 0). */
export function startCommand(): Command {
  return databaseOptions(
    new Command('start')
      .description('start the reference wallet (callback server and balance API)')
      .option('--port <port>', 'TCP port (default: $WALLET_PORT or 8090; 0 picks a free one)')
      .option('--host <host>', 'address to bind (default: $WALLET_HOST or 127.0.0.1)')
      .option(
        '--secret <whsec>',
        'signing secret(s), comma-separated (default: $WALLET_SIGNING_SECRET; none: no check)',
      )
      .option(
        '--currency <code>',
        'the one currency of every session, when Foreign-Params name none (default: $WALLET_CURRENCY; unset: such a /bet/place is refused)',
      )
      .option(
        '--admin-token <token>',
        'require this bearer token for deposits and /admin (default: $WALLET_ADMIN_TOKEN)',
      )
      .option('--fail-rate <share>', 'answer this share of callbacks 500 without applying them')
      .option('--lost-answer-rate <share>', 'apply this share of callbacks, then answer 500')
      .option('--drop-rate <share>', 'apply this share of callbacks, then drop the connection')
      .option('--delay-ms <ms>', 'answer callbacks this late (see --delay-rate, default all)')
      .option('--delay-rate <share>', 'share of callbacks answered late')
      .option('--created-rate <share>', 'answer this share of successes 201 instead of 204')
      .option('--fault-seed <n>', 'seed of the fault PRNG'),
  ).action(
    action(async (flags: WalletFlags) => {
      const config = loadWalletConfig(process.env, flags);
      const wallet = await startWallet(config);
      const log = wallet.app.log;
      if (config.secrets.length === 0) log.warn('no signing secret: callback signatures are not verified');
      const kind = wallet.database.kind;
      log.info({ url: wallet.url, db: kind }, `bookie-wallet listening on ${wallet.url}`);
      process.stdout.write(`bookie-wallet listening on ${wallet.url}\n`);
      stopGracefully({ log, stop: () => wallet.stop(), timeoutMs: config.shutdownTimeoutMs });
    }),
  );
}
