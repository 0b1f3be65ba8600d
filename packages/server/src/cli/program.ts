import { Command, Help } from 'commander';
import { usageExits2 } from './options.js';

/** A `bookie` command: its name, its line in `bookie --help`, and its module, loaded only when it is chosen. */
interface CommandEntry {
  /** What `bookie --help` shows in the first column (the name, `[options]`, the arguments). */
  term: string;
  /** What `bookie --help` shows beside it (the command's own `--help` says more). */
  summary: string;
  /** Builds the command (imports its module). */
  load: () => Promise<Command>;
}

/**
 * Every `bookie` command, in the order `bookie --help` lists them. Only the chosen command's module is imported
 * (its implementation, the database, the server): `bookie --help` and `bookie <cmd> --help` stay fast. program.test.ts
 * checks that each entry loads the command it names.
 */
export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  start: {
    term: 'start [options]',
    summary: 'start the Bookie server (HTTP API, feed, background workers)',
    load: async () => (await import('./start.js')).startCommand(),
  },
  migrate: {
    term: 'migrate [options]',
    summary: 'apply pending database migrations',
    load: async () => (await import('./migrate.js')).migrateCommand(),
  },
  calc: {
    term: 'calc [file]',
    summary: 'bet calculator: settle a bet given as JSON (file or stdin) and print payout and settle type',
    load: async () => (await import('./calc.js')).calcCommand(),
  },
  callbacks: {
    term: 'callbacks',
    summary: 'see and retry partner callback deliveries (the outbox)',
    load: async () => (await import('./callbacks.js')).callbacksCommand(),
  },
  wl: {
    term: 'wl',
    summary: 'manage white labels (partners) and their credentials',
    load: async () => (await import('./wl.js')).wlCommand(),
  },
  user: {
    term: 'user',
    summary: 'backoffice users: create, reset a password',
    load: async () => (await import('./user.js')).userCommand(),
  },
  bets: {
    term: 'bets',
    summary: 'operator actions on bets: refund, void, cancel, resettle',
    load: async () => (await import('./bets.js')).betsCommand(),
  },
  report: {
    term: 'report',
    summary: 'reports',
    load: async () => (await import('./report.js')).reportCommand(),
  },
  risk: {
    term: 'risk',
    summary: 'risk engine: limits, groups, delays, exposure, recompute',
    load: async () => (await import('./risk.js')).riskCommand(),
  },
  settlement: {
    term: 'settlement',
    summary: 'the settlement consumer',
    load: async () => (await import('./settlement.js')).settlementCommand(),
  },
  replay: {
    term: 'replay [options] [csv...]',
    summary:
      'replay football-data.co.uk seasons through the whole platform (trading → feed → bets → wallet callbacks → ' +
      'settlement) with a seeded population of bettors; prints a report with a reconciliation (exit 1 when it fails)',
    load: async () => (await import('./replay.js')).replayCommand(),
  },
  demo: {
    term: 'demo [options] [csv...]',
    summary:
      'the platform, the reference wallet and a real season replayed at a watchable pace (what `npm start` runs); ' +
      'Ctrl-C stops everything',
    load: async () => (await import('./demo.js')).demoCommand(),
  },
  mcp: {
    term: 'mcp [options]',
    summary:
      "Bookie's MCP server over stdio, relaying to an integration environment's /mcp (credential from " +
      'BOOKIE_CLIENT_ID and BOOKIE_CLIENT_SECRET)',
    load: async () => (await import('./mcp.js')).mcpCommand(),
  },
  'partner-check': {
    term: 'partner-check [options] <callback-url>',
    summary:
      "play every callback scenario of the contract against a partner's callback server; exit 1 on any failure",
    load: async () => (await import('./partner-check.js')).partnerCheckCommand(),
  },
  openapi: {
    term: 'openapi [options]',
    summary:
      'print the OpenAPI 3.1 document of the HTTP API (what a running server serves at /openapi.json), for ' +
      'generating clients without a server',
    load: async () => (await import('./openapi.js')).openApiCommand(),
  },
};

/** The command `argv` (node, script, ...args) chooses: the first argument, or the one after `help`. */
function chosen(argv: readonly string[]): string | undefined {
  const args = argv.slice(2);
  const first = args.findIndex((a) => !a.startsWith('-'));
  if (first < 0) return undefined;
  return args[first] === 'help' ? args[first + 1] : args[first];
}

/**
 * The `bookie` command line: one file per command under cli/, listed in {@link COMMANDS}. The command `argv` chooses
 * is loaded in full; the others are listed by name and summary only. With `all`, every command is loaded (tests).
 */
export async function buildProgram(argv: readonly string[] = process.argv, all = false): Promise<Command> {
  const program = new Command('bookie')
    .description('Bookie: an open-source B2B sportsbook platform')
    .version('0.1.0')
    .showHelpAfterError()
    .exitOverride((err) => {
      // commander's own usage errors (unknown option, missing argument) exit with 2, like bad input
      process.exit(err.exitCode === 0 ? 0 : 2);
    })
    .configureHelp({
      // a command not loaded has no options or arguments yet: its term comes from the table
      subcommandTerm: (cmd) => COMMANDS[cmd.name()]?.term ?? new Help().subcommandTerm(cmd),
    });
  const name = chosen(argv);
  for (const [key, entry] of Object.entries(COMMANDS)) {
    if (all || key === name) program.addCommand((await entry.load()).summary(entry.summary));
    else program.command(key).summary(entry.summary);
  }
  // usage errors of every subcommand (an unknown option, a missing argument) exit 2 as at the top level
  for (const cmd of program.commands) usageExits2(cmd);
  return program;
}
