import { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { registerCommands } from '../../src/cli/register-commands.js';
import { runCli } from './run-cli.js';

/** Every command and subcommand, each loaded from its module. */
async function allCommands(): Promise<Command[]> {
  const listed = new Command('evalstream');
  await registerCommands(listed, []);
  const found: Command[] = [];
  const walk = (command: Command): void => {
    found.push(command);
    command.commands.forEach(walk);
  };
  for (const { name } of listed.commands.map((c) => ({ name: c.name() }))) {
    const one = new Command('evalstream');
    await registerCommands(one, [name]);
    one.commands.forEach(walk);
  }
  return found;
}

/**
 * Help texts start in lower case, as commander's own do; a first word written with capitals inside
 * it is a name (DuckDB, OTLP, NeMo) and keeps them.
 */
function startsConsistently(text: string): boolean {
  const word = /^\S+/.exec(text)?.[0] ?? '';
  return word === word.toLowerCase() || /[A-Z]/.test(word.slice(1));
}

describe('help texts', () => {
  it('every command, option and argument description starts in lower case', async () => {
    const texts: string[] = [];
    const program = new Command('evalstream');
    await registerCommands(program, ['--help']);
    for (const command of [program, ...(await allCommands())]) {
      const where = command.name();
      if (command.description() !== '') texts.push(`${where}: ${command.description()}`);
      for (const option of command.options) texts.push(`${where} ${option.flags}: ${option.description}`);
      for (const argument of command.registeredArguments)
        texts.push(`${where} <${argument.name()}>: ${argument.description}`);
    }
    expect(texts.length).toBeGreaterThan(60);
    expect(texts.filter((t) => !startsConsistently(t.slice(t.indexOf(': ') + 2)))).toEqual([]);
  });

  it('the program description starts in lower case too', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('\nscore AI-agent trials from trace evidence and aggregate the scores\n');
  });
});

describe('evalstream --version', () => {
  it('prints the version of package.json and exits 0, also as -V', async () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      expect(await runCli([flag])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    }
  });
});
