import { describe, expect, it } from 'vitest';
import { InputDiagnostics } from '../../src/bundle/input-diagnostics.js';
import { rowSchemas } from '../../src/bundle/row-schemas.js';
import { InputError } from '../../src/sources/input-error.js';

describe('InputDiagnostics', () => {
  it('keeps rows of no trial in order, and past its bound counts the rest per code', () => {
    const input = new InputDiagnostics(2);
    input.add(
      new InputError('invalid JSON; skipped', { file: 'a.jsonl', line: 2, diagnostic: 'skipped_payload' }),
    );
    input.add(
      new InputError('3 log record(s) attached to no trial', {
        file: 'a.jsonl',
        field: 'logRecords',
        diagnostic: 'unattached_log_records',
      }),
    );
    input.add(
      new InputError('corrupt frame; skipped', {
        file: 'b.binpb',
        offset: 40,
        diagnostic: 'skipped_payload',
      }),
    );
    input.add(new InputError('bad line; skipped', { file: 'b.jsonl', line: 9 }));
    const rows = input.rows();
    expect(rows.map((r) => [r.code, r.file, r.line, r.offset, r.field, r.message])).toEqual([
      ['skipped_payload', 'a.jsonl', 2, null, '', 'invalid JSON; skipped'],
      ['unattached_log_records', 'a.jsonl', null, null, 'logRecords', '3 log record(s) attached to no trial'],
      [
        'skipped_payload',
        '',
        null,
        null,
        '',
        '2 more problem(s) of this kind, not listed (past the first 2 rows)',
      ],
    ]);
    for (const row of rows) {
      expect(row.trial_id).toBeNull();
      expect(rowSchemas.diagnostic.safeParse(row).success).toBe(true);
    }
  });
});
