import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerCommands } from '../../src/cli/register-commands.js';

const ALL = [
  'inspect',
  'summarize',
  'report',
  'serve',
  'query',
  'export',
  'score',
  'init',
  'gym',
  'compare',
  'merge',
];

async function registered(argv: string[]): Promise<string[]> {
  const program = new Command('evalstream');
  await registerCommands(program, argv);
  return program.commands.map((c) => c.name());
}

describe('registerCommands', () => {
  it('loads only the command the arguments name', async () => {
    expect(await registered(['gym', 'aggregate', '-i', 'r.jsonl', '-o', 'm.jsonl'])).toEqual(['gym']);
    expect(await registered(['score', 'examples/harbor-job'])).toEqual(['score']);
  });

  it('loads every command, in help order, for help, no command or a mistyped one', async () => {
    expect(await registered([])).toEqual(ALL);
    expect(await registered(['--help'])).toEqual(ALL);
    expect(await registered(['help', 'score'])).toEqual(ALL);
    expect(await registered(['scroe'])).toEqual(ALL);
  });

  it('makes usage errors of every (sub)command throw instead of exiting', async () => {
    const program = new Command('evalstream');
    await registerCommands(program, ['gym']);
    const gym = program.commands[0] as Command;
    expect(() => gym.parse(['node', 'gym', 'aggregate'])).toThrow(/required option/);
  });
});
