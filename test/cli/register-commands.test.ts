import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerCommands } from '../../src/cli/register-commands.js';

const ALL = [
  'score',
  'summarize',
  'inspect',
  'query',
  'export',
  'serve',
  'report',
  'compare',
  'merge',
  'gym',
  'init',
];

async function program(argv: string[]): Promise<Command> {
  const p = new Command('evalstream');
  await registerCommands(p, argv);
  return p;
}

async function registered(argv: string[]): Promise<string[]> {
  return (await program(argv)).commands.map((c) => c.name());
}

/** The program with every command loaded from its module, in listing order. */
async function loadedProgram(): Promise<Command> {
  const loaded = new Command('evalstream');
  for (const name of await registered([])) {
    const [command] = (await program([name])).commands;
    loaded.addCommand(command as Command);
  }
  return loaded;
}

describe('registerCommands', () => {
  it('loads only the command the arguments name, also after help', async () => {
    expect(await registered(['gym', 'aggregate', '-i', 'r.jsonl', '-o', 'm.jsonl'])).toEqual(['gym']);
    expect(await registered(['score', 'examples/harbor-job'])).toEqual(['score']);
    expect(await registered(['help', 'score'])).toEqual(['score']);
    const [score] = (await program(['help', 'score'])).commands;
    expect(score?.options.map((o) => o.long)).toContain('--config');
  });

  it('lists every command, in help order, for help, no command or a mistyped one, without loading them', async () => {
    for (const argv of [[], ['--help'], ['--version'], ['help'], ['scroe']]) {
      const p = await program(argv);
      expect(p.commands.map((c) => c.name())).toEqual(ALL);
      // a listing carries no options: the command's module was not loaded
      expect(p.commands.every((c) => c.options.length === 0)).toBe(true);
    }
  });

  it('lists each command exactly as its own module describes it', async () => {
    expect((await program(['--help'])).helpInformation()).toBe((await loadedProgram()).helpInformation());
  });

  it('makes usage errors of every (sub)command throw instead of exiting', async () => {
    const gym = (await program(['gym'])).commands[0] as Command;
    expect(() => gym.parse(['node', 'gym', 'aggregate'])).toThrow(/required option/);
  });
});
