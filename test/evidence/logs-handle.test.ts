import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogsHandle } from '../../src/evidence/logs-handle.js';

let dir: string;
let logs: LogsHandle;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'logs-handle-'));
  mkdirSync(join(dir, 'agent'));
  writeFileSync(join(dir, 'agent', 'run.log'), 'l1\nl2\nl3\nl4\n');
  writeFileSync(join(dir, 'verifier.txt'), 'ok');
  logs = new LogsHandle(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('LogsHandle', () => {
  it('lists and reads log files', async () => {
    expect(await logs.listFiles()).toEqual(['agent/run.log', 'verifier.txt']);
    expect(await logs.readText('verifier.txt')).toBe('ok');
  });

  it('tail gives the last N lines without a trailing newline (Python slice rules)', async () => {
    expect(await logs.tail('agent/run.log', 2)).toBe('l3\nl4');
    expect(await logs.tail('agent/run.log')).toBe('l1\nl2\nl3\nl4');
    expect(await logs.tail('agent/run.log', 0)).toBe('l1\nl2\nl3\nl4');
    expect(await logs.tail('agent/run.log', -1)).toBe('l2\nl3\nl4');
  });

  it('cannot escape its root', async () => {
    await expect(logs.readText('../../etc/passwd')).rejects.toThrow(/resolves outside evidence root/);
  });
});
