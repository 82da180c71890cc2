import { chromiumExecutable } from './report-browser.js';

/** Vitest global set-up: unpacks the packaged Chromium once, before test files race to do it. */
export default async function setup(): Promise<void> {
  await chromiumExecutable();
}
