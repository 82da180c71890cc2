import { createHash } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ReportModel } from './build-report-model.js';
import { clientBundle } from './client-bundle.js';
import { embedJson, embedJsonChunks } from './embed-json.js';
import { REPORT_STYLE } from './report-style.js';

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * Renders the report as one self-contained HTML document, as chunks to write in order. The
 * run's data sits in `<script type="application/json">` blocks (`es-data`, `es-tasks`, one `es-d-<n>`
 * per detail chunk) with every `<` escaped; the page script and stylesheet are inline and pinned by a
 * Content-Security-Policy (`default-src 'none'`, hashes for the one script and one style), so the page
 * loads nothing from the network and no injected markup could run script.
 *
 * @example
 * const html = [...renderReportHtml(buildReportModel(bundle))].join('');
 */
export function* renderReportHtml(model: ReportModel): Generator<string> {
  // the page's own script (src/report/client, bundled at build time) with uPlot, and its stylesheet
  const script = clientBundle('report-page.js');
  const style = clientBundle('uplot.css') + REPORT_STYLE;
  const csp = [
    "default-src 'none'",
    `script-src ${sha256(script)}`,
    `style-src ${sha256(style)}`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  yield '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n';
  yield '<meta name="viewport" content="width=device-width, initial-scale=1">\n';
  yield `<meta http-equiv="Content-Security-Policy" content="${csp}">\n`;
  yield '<meta name="generator" content="evalstream">\n<title>evalstream report</title>\n';
  yield `<style>${style}</style>\n</head>\n<body>\n`;
  yield '<div id="app"><noscript>This report needs JavaScript to show its data.</noscript></div>\n';
  // the per-trial table is the bulk of the data: serialised piece by piece, never as one string
  yield '<script type="application/json" id="es-data">';
  const text = model.columnText;
  const data =
    text === undefined
      ? model.data
      : {
          ...model.data,
          trials: { ...model.data.trials, id: text.id, status: text.status },
          scoreStatus: text.scoreStatus,
          values: text.values,
        };
  yield* embedJsonChunks(data);
  yield '</script>\n';
  // The page script runs here, before the (larger) task and trial detail blocks are parsed, so the
  // first view shows while the parser reads on; the page waits for them only to open a detail.
  yield `<script>${script}</script>\n`;
  yield `<script type="application/json" id="es-tasks">${embedJson(model.taskDetails)}</script>\n`;
  const size = model.data.detail.chunkSize;
  for (let c = 0; c < model.data.detail.chunks; c += 1) {
    const chunk = model.trialDetails.slice(c * size, (c + 1) * size);
    yield `<script type="application/json" id="es-d-${c}">${embedJson(chunk)}</script>\n`;
  }
  yield '</body>\n</html>\n';
}

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
