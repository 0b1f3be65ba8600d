import { describe, expect, it } from 'vitest';
import { buildProgram, COMMANDS } from './program.js';

describe('the bookie command table', () => {
  it('loads, for every entry, the command it names, with the term its help shows', async () => {
    const program = await buildProgram(['node', 'bookie'], true);
    const loaded = program.commands.map((c) => c.name());
    expect(loaded).toEqual(Object.keys(COMMANDS));
    const help = program.createHelp();
    for (const cmd of program.commands) {
      // what the loaded command would show (its options and arguments) is what the table says without loading it
      const term = [
        cmd.name(),
        cmd.options.length > 0 ? '[options]' : '',
        ...cmd.registeredArguments.map(argTerm),
      ]
        .filter((p) => p !== '')
        .join(' ');
      expect(COMMANDS[cmd.name()]?.term, cmd.name()).toBe(term);
      expect(help.subcommandDescription(cmd)).toBe(COMMANDS[cmd.name()]?.summary);
      expect(cmd.description().length, cmd.name()).toBeGreaterThan(0);
    }
  });

  it('loads only the chosen command; the others are listed by name and summary', async () => {
    const program = await buildProgram(['node', 'bookie', 'wl', '--help']);
    const wl = program.commands.find((c) => c.name() === 'wl');
    expect(wl?.commands.map((c) => c.name())).toContain('add-certificate');
    const start = program.commands.find((c) => c.name() === 'start');
    expect(start?.options).toEqual([]);
    expect(program.helpInformation()).toContain('start [options]');
    expect(program.helpInformation()).toContain('help [command]');
  });
});

function argTerm(arg: { name(): string; required: boolean; variadic: boolean }): string {
  const name = `${arg.name()}${arg.variadic ? '...' : ''}`;
  return arg.required ? `<${name}>` : `[${name}]`;
}
