import { Command } from 'commander';
import { balanceCommand } from './balance.js';
import { depositCommand } from './deposit.js';
import { startCommand } from './start.js';

/** The `bookie-wallet` command line: one file per command, registered here. */
export function buildProgram(): Command {
  return new Command('bookie-wallet')
    .description('Bookie reference wallet: a partner callback server with a real ledger')
    .version('0.1.0')
    .showHelpAfterError()
    .exitOverride((err) => {
      process.exit(err.exitCode === 0 ? 0 : 2);
    })
    .addCommand(startCommand())
    .addCommand(depositCommand())
    .addCommand(balanceCommand());
}
