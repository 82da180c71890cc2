/**
 * Writes `report.html` into a finished bundle directory and says where and how big it is (null when
 * it wrote nothing). The bundle writers call it after the data files are in place; `--no-report`
 * simply passes none.
 *
 * @example
 * const reportWriter: ReportWriter = async (dir) => ({ path: join(dir, 'report.html'), bytes: await render(dir) });
 */
export type ReportWriter = (bundleDir: string) => Promise<{ path: string; bytes: number } | null>;
