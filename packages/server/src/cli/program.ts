import { Command } from 'commander';
import { betsCommand, usageExits2 } from './bets.js';
import { calcCommand } from './calc.js';
import { callbacksCommand } from './callbacks.js';
import { demoCommand } from './demo.js';
import { mcpCommand } from './mcp.js';
import { migrateCommand } from './migrate.js';
import { openApiCommand } from './openapi.js';
import { partnerCheckCommand } from './partner-check.js';
import { replayCommand } from './replay.js';
import { reportCommand } from './report.js';
import { riskCommand } from './risk.js';
import { settlementCommand } from './settlement.js';
import { startCommand } from './start.js';
import { userCommand } from './user.js';
import { wlCommand } from './wl.js';

/** The `bookie` command line: one file per command under cli/, registered here. */
export function buildProgram(): Command {
  const program = new Command('bookie')
    .description('Bookie: an open-source B2B sportsbook platform')
    .version('0.1.0')
    .showHelpAfterError()
    .exitOverride((err) => {
      // commander's own usage errors (unknown option, missing argument) exit with 2, like bad input
      process.exit(err.exitCode === 0 ? 0 : 2);
    });
  program.addCommand(startCommand());
  program.addCommand(migrateCommand());
  program.addCommand(calcCommand());
  program.addCommand(callbacksCommand());
  program.addCommand(wlCommand());
  program.addCommand(userCommand());
  program.addCommand(betsCommand());
  program.addCommand(reportCommand());
  program.addCommand(riskCommand());
  program.addCommand(settlementCommand());
  program.addCommand(replayCommand());
  program.addCommand(demoCommand());
  program.addCommand(mcpCommand());
  program.addCommand(partnerCheckCommand());
  program.addCommand(openApiCommand());
  // usage errors of every subcommand (an unknown option, a missing argument) exit 2 as at the top level
  for (const cmd of program.commands) usageExits2(cmd);
  return program;
}
