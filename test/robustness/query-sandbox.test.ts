import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, writeFixtureStore } from '../cli/query-store-fixture.js';

// Threat: `query` SQL reaching past the store (reading any file, writing files, fetching extensions).
let dir: string;
let db: string;
let secret: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'es-sandbox-'));
  db = join(dir, 'runs.duckdb');
  secret = join(dir, 'secret.csv');
  writeFileSync(secret, 'token\nhunter2\n');
  await writeFixtureStore(db);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const quote = (path: string): string => `'${path.replaceAll("'", "''")}'`;

const PROBES: [string, () => string][] = [
  ['read_csv', () => `SELECT * FROM read_csv(${quote(secret)})`],
  ['read_csv of /etc/passwd', () => `SELECT * FROM read_csv('/etc/passwd')`],
  ['read_text', () => `SELECT content FROM read_text(${quote(secret)})`],
  ['a file as a table', () => `SELECT * FROM ${quote(secret)}`],
  ['glob', () => `SELECT * FROM glob(${quote(join(dir, '*'))})`],
  ['COPY … TO', () => `COPY (SELECT 1 AS x) TO ${quote(join(dir, 'copied.csv'))}`],
  ['EXPORT DATABASE', () => `EXPORT DATABASE ${quote(join(dir, 'exported'))}`],
  ['ATTACH', () => `ATTACH ${quote(join(dir, 'other.duckdb'))} AS other`],
  ['INSTALL', () => 'INSTALL httpfs'],
  ['LOAD', () => 'LOAD httpfs'],
  ['re-enabling file access', () => 'SET enable_external_access = true'],
  ['unlocking the configuration', () => 'SET lock_configuration = false'],
  ['re-enabling autoload', () => 'SET autoload_known_extensions = true'],
];

describe.each([[[] as string[]], [['--write']]])('query %j', (extra) => {
  it.each(PROBES)('refuses %s with exit 2 and touches no file', async (_name, sql) => {
    const r = await runCli(['query', '--db', db, '--format', 'json', ...extra, sql()]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout.toString()).not.toContain('hunter2');
    expect(r.stderr).toMatch(/disabled|locked|Permission|Cannot/);
    for (const name of ['copied.csv', 'exported', 'other.duckdb'])
      expect(existsSync(join(dir, name))).toBe(false);
  });

  it('still answers questions about the store', async () => {
    const r = await runCli([
      'query',
      '--db',
      db,
      '--format',
      'json',
      ...extra,
      'SELECT count(*)::INT AS n FROM trials',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.toString())).toEqual([{ n: 4 }]);
  });
});

describe('query --write', () => {
  it('changes the store itself, and only with --write', async () => {
    const sql = 'CREATE TABLE notes AS SELECT 1 AS x';
    const ro = await runCli(['query', '--db', db, sql]);
    expect(ro.code).toBe(2);
    expect(ro.stderr).toMatch(/read-only/);
    const rw = await runCli(['query', '--db', db, '--write', sql]);
    expect(rw.code, rw.stderr).toBe(0);
    const after = await runCli(['query', '--db', db, '--format', 'json', 'SELECT x FROM notes']);
    expect(JSON.parse(after.stdout.toString())).toEqual([{ x: 1 }]);
  });
});
