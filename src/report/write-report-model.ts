import { open, rename, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ReportModel } from './build-report-model.js';
import { renderReportHtml } from './render-report-html.js';

/**
 * Writes a report model as `report.html`: one self-contained file (no network), written to a temporary
 * name and renamed into place; resolves to its absolute path and size in bytes.
 *
 * @example
 * const { path, bytes } = await writeReportModel(collector.finish(run), 'runs/r1/report.html');
 */
export async function writeReportModel(
  model: ReportModel,
  outPath: string,
): Promise<{ path: string; bytes: number }> {
  const path = resolve(outPath);
  const temp = `${path}.${process.pid}.tmp`;
  let bytes = 0;
  const handle = await open(temp, 'w');
  try {
    for (const chunk of renderReportHtml(model)) {
      const buffer = Buffer.from(chunk, 'utf8');
      bytes += buffer.length;
      await handle.write(buffer);
    }
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  await rename(temp, path);
  return { path, bytes };
}
