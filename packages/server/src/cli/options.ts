/**
 * Options and behaviour shared by the `bookie` commands. This module stays light (commander only): the command
 * tree is built from it before any command's implementation is loaded.
 *
 * @packageDocumentation
 */
import type { Command } from 'commander';

/** Options shared by every command that opens the database. */
export function databaseOptions(cmd: Command): Command {
  return cmd
    .option('--db-url <url>', 'Postgres URL (default: $DATABASE_URL; without it, embedded PGlite)')
    .option(
      '--data-dir <dir>',
      'PGlite data directory (default: $BOOKIE_DATA_DIR or ./.bookie; "memory" for none)',
    );
}

/** Usage errors (a missing option, a bad argument) exit 2 like bad input, as at the top level. */
export function usageExits2(cmd: Command): Command {
  cmd.showHelpAfterError().exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2));
  for (const sub of cmd.commands) usageExits2(sub);
  return cmd;
}
