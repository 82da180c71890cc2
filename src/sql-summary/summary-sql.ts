/** Temp tables that no read after `prepare` uses (dropped by `releaseSteps`). */
const RELEASED_TABLES = [
  '_es_series',
  '_es_name',
  '_es_obs',
  '_es_bucket_n',
  '_es_vdef',
  '_es_vsig',
  '_es_vtrial',
  '_es_vcount',
  '_es_vper',
  '_es_vval',
];

/** Temp tables the reads after `prepare` use. */
const READ_BACK_TABLES = [
  '_es_task',
  '_es_key',
  '_es_rec',
  '_es_str',
  '_es_pk_task',
  '_es_agg',
  '_es_val',
  '_es_cov',
];

const dropTable = (table: string): string => `DROP TABLE IF EXISTS ${table}`;

/**
 * The SQL of the summary (spec §7) over the store tables for one run (`$run`), as named steps that
 * create temp tables `_es_*` (the final `select*` steps return rows). `withSpecs` / `noSpecs`
 * variants differ only where the spec does (§7.1: declared vs discovered outputs).
 *
 * The statistics of each aggregate are computed from its values read in SDK score order (task rank,
 * then score ordinal) by the in-memory engine's own function; the few float reductions left in SQL
 * (view means over more than two signals) reduce ordered lists with `py_sum` (see
 * `registerSummaryFunctions`). Literals are cast to
 * DOUBLE explicitly (a bare `1.0` is a DECIMAL in DuckDB), and NaN is excluded before comparisons
 * (DuckDB orders NaN above every number; Python's `NaN >= 1.0` is false).
 *
 * @example
 * for (const sql of SUMMARY_SQL.prepare(true)) await connection.run(sql, { run: 'r1' });
 */
export const SUMMARY_SQL = {
  /**
   * Steps that build the temp tables, in order; `source` names the score and trial rows;
   * `withFloats`: float literals (`1.0`) are listed by the bulk loader's temp table `_es_float_lit`
   * (else the staged rows tell them, and the store tables none). Leaves `preserve_insertion_order`
   * on: the strings and the task value records are stored in the order their `select*` reads them.
   */
  prepare(withSpecs: boolean, source: SummarySource = STORE_SOURCE, withFloats = false): string[] {
    return [
      withSpecs ? TASKS_WITH_SPECS : tasksNoSpecs(source),
      withSpecs ? SERIES_WITH_SPECS : seriesNoSpecs(source),
      ...NAMES,
      observations(withSpecs, source),
      withSpecs ? KEYS_WITH_SPECS : KEYS_NO_SPECS,
      ...(withSpecs ? viewSteps(source) : VIEW_STEPS_EMPTY),
      ...AGGREGATE_STEPS,
      'SET preserve_insertion_order = true',
      STRINGS,
      records(withFloats),
      ...(withSpecs ? passAtKSteps(source) : PASS_AT_K_EMPTY),
    ];
  },
  /**
   * Aggregate rows of the outputs and views in summary order: `agg_id`, name and total (the
   * observations, finite or not); the pass@k rows follow them (`selectPassAtKTasks`).
   */
  selectAggregates: `SELECT agg_id::INTEGER AS agg_id, name, total FROM _es_agg ORDER BY agg_id`,
  /**
   * Every aggregate's values in SDK order (aggregate, then task rank and score order), NULL as NaN
   * (dropped like NaN by the statistics), `nz` set for a -0.0 (DuckDB's sort may give it back as 0.0).
   */
  selectAggregateValues: `
    SELECT agg_id::INTEGER AS agg_id, coalesce(v, 'NaN'::DOUBLE) AS v,
      coalesce(v = 0::DOUBLE AND signbit(v), false) AS nz
    FROM _es_val ORDER BY agg_id, o1, o2, o3`,
  /**
   * What pass@k needs per score-like output and declaring task (`n`, `c`, `opportunities`), outputs
   * in summary order and tasks in task order: the rows are computed by the in-memory engine's
   * `passAtKScores`.
   */
  selectPassAtKTasks: `
    SELECT metric_type, output_name, n, c, opportunities FROM _es_pk_task
    ORDER BY metric_type, output_name, task_rank`,
  /** Coverage per declared/discovered output (a metric type without output names has no entry). */
  selectCoverage: `
    SELECT metric_type, output_name, total, scored, failed FROM _es_cov ORDER BY metric_type, output_name`,
  /** Every task entry of `task_metric_values` and its keys (NULL names for a task without keys). */
  selectTaskKeys: `
    SELECT t.task_id, k.metric_type, k.output_name, k.key_id
    FROM _es_task t LEFT JOIN _es_key k USING (task_id)
    ORDER BY t.task_rank, k.key_id`,
  /**
   * The strings the task value records point to (`sid` of `selectRecords`: trial ids and labels) with
   * `sid` from `$from` to `$from + 65535`, as one JSON array (NULL past the last): one `JSON.parse`
   * per array is cheaper than reading each string out of a result chunk, and a range at a time keeps
   * DuckDB's memory small (the strings are stored in `sid` order, so a range reads few row groups).
   */
  selectRecordStrings: `
    SELECT to_json(list(s ORDER BY sid))::VARCHAR FROM _es_str WHERE sid >= $from::INTEGER AND sid < $from::INTEGER + 65536`,
  /**
   * Task value records per key (`key_id` of `selectTaskKeys`) in score order, as stored by `prepare`
   * (read in that order with `preserve_insertion_order` on), fixed-width columns only: record code 0
   * missing, 1 number, 2 label; the trial id and label as `sid`s of `selectRecordStrings` (label -1
   * when none); `is_float`: the value was written as a float literal (`1.0`).
   */
  selectRecords: `SELECT key_id, trial_sid, record_code, num_value, is_bool, label_sid, is_float FROM _es_rec`,
  /** Drops the strings once read (`selectRecordStrings`). */
  releaseStrings: dropTable('_es_str'),
  /** Counts (§7.8). */
  selectCounts(withSpecs: boolean, source: SummarySource = STORE_SOURCE): string {
    return `
    SELECT ${withSpecs ? '(SELECT count(*) FROM tasks WHERE run_id = $run)' : '(SELECT count(*) FROM _es_task)'} AS task_count,
           (SELECT count(DISTINCT trial_id) FROM ${source.scores} WHERE run_id = $run) AS trial_count,
           (SELECT count(*) FROM ${source.scores} WHERE run_id = $run) AS score_count`;
  },
  /** Error rollup (§7.8): trial ids per error type, trial order, types by first appearance. */
  selectErrors(source: SummarySource = STORE_SOURCE): string {
    return `
    SELECT error_type, list(trial_id ORDER BY trial_ordinal) AS trial_ids
    FROM ${source.trials} WHERE run_id = $run AND error_type IS NOT NULL
    GROUP BY error_type ORDER BY min(trial_ordinal)`;
  },
  /**
   * Drops the temp tables the reads after `prepare` do not use (the observations, views and
   * series), so that DuckDB's memory and spill space hold only what is still read back.
   */
  releaseSteps: RELEASED_TABLES.map(dropTable),
  /** Drops the aggregate values once read (`selectAggregateValues`). */
  releaseValues: dropTable('_es_val'),
  /** Drops the temp tables. */
  cleanup: [...READ_BACK_TABLES, ...RELEASED_TABLES].map(dropTable),
};

/**
 * Where the summary reads score and trial rows: the store tables, or (`staged`) relations with the
 * same columns over rows staged from a bundle's files, whose outputs are still a list per score
 * (`outputs: STRUCT(name, value JSON)[]`) instead of `score_outputs` rows.
 */
export interface SummarySource {
  /** Relation with the columns of `scores` the summary reads (plus `outputs` when staged). */
  readonly scores: string;
  /** Relation with the columns of `trials` the summary reads. */
  readonly trials: string;
  /** Outputs are read from the `outputs` list of each score row instead of `score_outputs`. */
  readonly staged: boolean;
  /** Statements that drop the staged rows, run once the summary has read all it needs of them. */
  readonly release?: readonly string[] | undefined;
}

/** The store tables. */
export const STORE_SOURCE: SummarySource = { scores: 'scores', trials: 'trials', staged: false };

const KEY_KINDS = `('continuous', 'discrete', 'boolean', 'label')`;

// Tasks in summary order. With specs a repeated id keeps its first position and its last spec.
const TASKS_WITH_SPECS = `
CREATE OR REPLACE TEMP TABLE _es_task AS
SELECT task_id, row_number() OVER (ORDER BY min(task_ordinal)) AS task_rank, max(task_ordinal) AS spec_ordinal
FROM tasks WHERE run_id = $run GROUP BY task_id`;

const tasksNoSpecs = (source: SummarySource): string => `
CREATE OR REPLACE TEMP TABLE _es_task AS
SELECT task_id, row_number() OVER (ORDER BY min(score_ordinal)) AS task_rank, NULL::BIGINT AS spec_ordinal
FROM ${source.scores} WHERE run_id = $run GROUP BY task_id`;

// (task, metric, output) series: declared ones (first declaration wins inside a task), or — without
// specs — every name a non-failed score of that task and metric emitted.
const SERIES_WITH_SPECS = `
CREATE OR REPLACE TEMP TABLE _es_series AS
SELECT o.task_id, o.metric_type, o.output_name,
  arg_min(o.kind, o.metric_ordinal::BIGINT * 4294967296 + o.output_ordinal) AS kind
FROM task_outputs o JOIN _es_task t ON t.task_id = o.task_id AND t.spec_ordinal = o.task_ordinal
WHERE o.run_id = $run
GROUP BY o.task_id, o.metric_type, o.output_name`;

const seriesNoSpecs = (source: SummarySource): string =>
  source.staged
    ? `
CREATE OR REPLACE TEMP TABLE _es_series AS
SELECT DISTINCT task_id, metric_type, unnest(list_transform(outputs, o -> o.name)) AS output_name, NULL::VARCHAR AS kind
FROM ${source.scores} WHERE run_id = $run AND status <> 'failed'`
    : `
CREATE OR REPLACE TEMP TABLE _es_series AS
SELECT DISTINCT o.task_id, o.metric_type, o.output_name, NULL::VARCHAR AS kind
FROM score_outputs o JOIN scores s ON s.run_id = o.run_id AND s.score_ordinal = o.score_ordinal
WHERE o.run_id = $run AND s.status <> 'failed'`;

// (metric, output) aggregate rows, numbered (`nid`); the series get their name's number and their
// task's rank, so that later steps join and group on integers.
const NAMES = [
  `CREATE OR REPLACE TEMP TABLE _es_name AS
   SELECT metric_type, output_name, (row_number() OVER (ORDER BY metric_type, output_name))::INTEGER AS nid
   FROM (SELECT DISTINCT metric_type, output_name FROM _es_series)`,
  `CREATE OR REPLACE TEMP TABLE _es_series AS
   SELECT s.*, n.nid, t.task_rank FROM _es_series s
   JOIN _es_name n USING (metric_type, output_name) JOIN _es_task t USING (task_id)`,
];

// The type of an observed value, as a small code (a string per observation costs DuckDB more to
// store than the rest of the row): what the summary tells apart, JSON null/arrays/objects are `other`.
const VT = { other: 0, number: 1, boolean: 2, string: 3 } as const;
const VT_OF_VALUE_TYPE = `(CASE o.value_type WHEN 'number' THEN ${VT.number} WHEN 'boolean' THEN ${VT.boolean}
  WHEN 'string' THEN ${VT.string} ELSE ${VT.other} END)::UTINYINT`;

// One observation per (applicable score, output name), with the first output of that name of a
// non-failed score. With specs: scores of a declared (task, metric) × the task's declared names.
// Without: every score of the metric type × every name discovered for that type.
// (A failed score's outputs are ignored; the status test stays out of the join condition so that
// DuckDB plans a hash join.)
const OBS_COLUMNS = `
  s.score_ordinal, t.task_rank, s.trial_id, s.occurrence, n.nid, s.status = 'failed' AS failed,
  s.is_trial_failure,
  CASE WHEN s.status <> 'failed' THEN ${VT_OF_VALUE_TYPE} END AS vt,
  CASE WHEN s.status <> 'failed' THEN o.num_value END AS num_value,
  CASE WHEN s.status <> 'failed' THEN o.label_value END AS label_value,
  (s.status <> 'failed' AND o.output_name IS NOT NULL) AS has_output, false AS is_float`;

const FIRST_OUTPUTS = `(SELECT score_ordinal, output_name, value_type, num_value, label_value
  FROM score_outputs WHERE run_id = $run AND is_first)`;

// The series each score is observed on: with specs, the declared names of its task and metric;
// without, every name discovered for its metric type.
const seriesJoin = (withSpecs: boolean): string =>
  withSpecs
    ? 'JOIN _es_series n ON n.task_id = s.task_id AND n.metric_type = s.metric_type'
    : 'JOIN _es_name n ON n.metric_type = s.metric_type';

// A character's code, as `ascii(text)` gives the first one: integer comparisons cost DuckDB less than
// one-character strings (`text[1]`).
const ch = (c: string): number => c.charCodeAt(0);

function observations(withSpecs: boolean, source: SummarySource): string {
  if (!source.staged)
    return `
CREATE OR REPLACE TEMP TABLE _es_obs AS
SELECT ${OBS_COLUMNS}
FROM scores s
JOIN _es_task t ON t.task_id = s.task_id
${seriesJoin(withSpecs)}
LEFT JOIN ${FIRST_OUTPUTS} o ON o.score_ordinal = s.score_ordinal AND o.output_name = n.output_name
WHERE s.run_id = $run`;
  // staged: the first output of the name is looked up in the score's own list (no join); its value is
  // typed as the bulk loader types score_outputs rows, and an integral float literal (1.0) is marked
  return `
CREATE OR REPLACE TEMP TABLE _es_obs AS
WITH j AS (
  SELECT s.score_ordinal, t.task_rank, s.trial_id, s.occurrence, n.nid, s.status = 'failed' AS failed, s.is_trial_failure,
    CASE WHEN s.status <> 'failed' THEN list_position(list_transform(s.outputs, o -> o.name), n.output_name) END AS pos,
    s.outputs
  FROM ${source.scores} s
  JOIN _es_task t ON t.task_id = s.task_id
    ${seriesJoin(withSpecs)}
  WHERE s.run_id = $run),
-- the JSON text of the value tells its type by its first character, compared as its code (a JSON null
-- may be read as NULL)
k AS (SELECT * EXCLUDE (pos, outputs, text), pos IS NOT NULL AS has_output, text, ascii(text) AS c
      FROM (SELECT *, outputs[pos].value::VARCHAR AS text FROM j)),
m AS (
  SELECT * EXCLUDE (c, text),
    (CASE WHEN NOT has_output THEN NULL WHEN c = ${ch('"')} THEN ${VT.string} WHEN c = ${ch('t')} OR c = ${ch('f')} THEN ${VT.boolean}
         WHEN c IS NULL OR c IN (${ch('n')}, ${ch('[')}, ${ch('{')}) THEN ${VT.other} ELSE ${VT.number} END)::UTINYINT AS vt,
    CASE WHEN NOT has_output OR c IS NULL OR c IN (${ch('"')}, ${ch('n')}, ${ch('[')}, ${ch('{')}) THEN NULL WHEN c = ${ch('t')} THEN 1::DOUBLE WHEN c = ${ch('f')} THEN 0::DOUBLE
         ELSE CAST(text AS DOUBLE) END AS num_value,
    CASE WHEN c = ${ch('"')} THEN json_extract_string(text, '$') END AS label_value,
    c NOT IN (${ch('"')}, ${ch('t')}, ${ch('f')}, ${ch('n')}, ${ch('[')}, ${ch('{')}) AND (contains(text, '.') OR contains(text, 'e') OR contains(text, 'E'))
      AS float_text
  FROM k)
SELECT * EXCLUDE (float_text),
  coalesce(float_text AND isfinite(num_value) AND num_value = trunc(num_value), false) AS is_float
FROM m`;
}

// task_metric_values keys (§7.4).
const KEYS_WITH_SPECS = `
CREATE OR REPLACE TEMP TABLE _es_key AS
SELECT task_id, task_rank, nid, metric_type, output_name, kind,
  row_number() OVER (ORDER BY task_rank, metric_type, output_name) AS key_id
FROM _es_series WHERE kind IN ${KEY_KINDS}`;

const KEYS_NO_SPECS = `
CREATE OR REPLACE TEMP TABLE _es_key AS
SELECT t.task_id, k.task_rank, k.nid, n.metric_type, n.output_name, NULL::VARCHAR AS kind,
  row_number() OVER (ORDER BY k.task_rank, n.metric_type, n.output_name) AS key_id
FROM (SELECT DISTINCT task_rank, nid FROM _es_obs WHERE has_output AND vt IN (${VT.number}, ${VT.boolean}, ${VT.string})) k
JOIN _es_task t USING (task_rank) JOIN _es_name n USING (nid)`;

// Task value records: a trial failure → missing; a completed/partial score whose first output of the
// name is a number/boolean → number, a string → label; anything else → nothing. Stored sorted (key,
// then score order), trial ids and labels as their `sid`s, so that reading them back is a plain scan.
const records = (withFloats: boolean): string => `
CREATE OR REPLACE TEMP TABLE _es_rec AS
SELECT k.key_id::INTEGER AS key_id, t.sid AS trial_sid,
  (CASE WHEN b.is_trial_failure THEN 0 WHEN b.vt = ${VT.string} THEN 2 ELSE 1 END)::UTINYINT AS record_code,
  CASE WHEN b.is_trial_failure THEN 0::DOUBLE ELSE coalesce(b.num_value, 0::DOUBLE) END AS num_value,
  coalesce(NOT b.is_trial_failure AND b.vt = ${VT.boolean}, false) AS is_bool,
  CASE WHEN b.is_trial_failure THEN -1 ELSE coalesce(l.sid, -1) END AS label_sid,
  ${withFloats ? 'f.score_ordinal IS NOT NULL' : 'coalesce(NOT b.is_trial_failure AND b.is_float, false)'} AS is_float
FROM _es_obs b JOIN _es_key k ON k.task_rank = b.task_rank AND k.nid = b.nid
JOIN _es_str t ON t.s = b.trial_id LEFT JOIN _es_str l ON l.s = b.label_value
${
  withFloats
    ? 'LEFT JOIN _es_float_lit f ON f.score_ordinal = b.score_ordinal AND f.output_name = k.output_name'
    : ''
}
WHERE b.is_trial_failure OR (b.has_output AND b.vt IN (${VT.number}, ${VT.boolean}, ${VT.string}))
ORDER BY k.key_id, b.score_ordinal`;

// The trial ids and labels the records may refer to, numbered (the records refer to them by number),
// stored in number order.
const STRINGS = `
CREATE OR REPLACE TEMP TABLE _es_str AS
SELECT s, (row_number() OVER () - 1)::INTEGER AS sid FROM (
  SELECT trial_id AS s FROM _es_obs UNION SELECT label_value FROM _es_obs WHERE label_value IS NOT NULL)
ORDER BY sid`;

// Views (§7.5), with specs only.
const viewSteps = (source: SummarySource): string[] => [
  `CREATE OR REPLACE TEMP TABLE _es_vdef AS
   SELECT v.task_id, t.task_rank, v.view_ordinal, v.view_name, v.reducer
   FROM task_views v JOIN _es_task t ON t.task_id = v.task_id AND t.spec_ordinal = v.task_ordinal
   WHERE v.run_id = $run`,
  `CREATE OR REPLACE TEMP TABLE _es_vsig AS
   SELECT g.task_id, t.task_rank, g.view_ordinal, g.signal_ordinal, g.metric_type, g.output_name, n.nid, g.weight,
     count(*) OVER (PARTITION BY g.task_id, g.view_ordinal) AS nsig
   FROM task_view_signals g JOIN _es_task t ON t.task_id = g.task_id AND t.spec_ordinal = g.task_ordinal
   LEFT JOIN _es_name n USING (metric_type, output_name)
   WHERE g.run_id = $run`,
  // Trials of the view tasks (any metric) in first-seen score order.
  `CREATE OR REPLACE TEMP TABLE _es_vtrial AS
   SELECT task_id, trial_id, min(score_ordinal) AS first_seen
   FROM ${source.scores} WHERE run_id = $run AND task_id IN (SELECT task_id FROM _es_vdef)
   GROUP BY task_id, trial_id`,
  ...(source.staged ? VIEW_OPPORTUNITIES_ONCE : viewOpportunities(source)),
  // Measured opportunities only: every signal of the view has an observation (a declared output) at
  // that occurrence with a usable, finite value (spec §7.5 [I]); the others count in the total alone.
  `CREATE OR REPLACE TEMP TABLE _es_vval AS
   WITH sv AS (
     SELECT g.task_rank, g.view_ordinal, b.trial_id, b.occurrence AS occ, g.signal_ordinal AS o, g.nsig,
       coalesce(g.weight, 1::DOUBLE) AS w,
       -- NULL for a failed score or a missing output
       CASE WHEN b.vt IN (${VT.number}, ${VT.boolean}) THEN b.num_value END AS v
     FROM _es_obs b JOIN _es_vsig g ON g.task_rank = b.task_rank AND g.nid = b.nid),
   -- signals are numbered from 0: the first two are read by their number; views of more than two
   -- signals need Python's compensated sum over the ordered list (one pass over the signals)
   red AS (
     SELECT task_rank, view_ordinal, trial_id, occ, count(*) AS nok, any_value(nsig) AS nsig,
       max(v) FILTER (WHERE o = 0) AS v1, max(v) FILTER (WHERE o = 1) AS v2,
       max(w) FILTER (WHERE o = 0) AS w1, max(w) FILTER (WHERE o = 1) AS w2,
       min(v) AS v_min, max(v) AS v_max,
       list_sort(list({'o': o, 'v': v, 'w': w}) FILTER (WHERE nsig > 2)) AS sig
     FROM sv GROUP BY task_rank, view_ordinal, trial_id, occ
     HAVING bool_and(v IS NOT NULL AND isfinite(v))),
   sums AS (
     SELECT r.task_rank, r.view_ordinal, r.trial_id, r.occ, r.nsig, r.v1, r.v_min, r.v_max,
       CASE r.nsig WHEN 1 THEN 0::DOUBLE + r.v1 WHEN 2 THEN (0::DOUBLE + r.v1) + r.v2
         ELSE py_sum(list_transform(r.sig, lambda x: x.v)) END AS v_sum,
       CASE r.nsig WHEN 1 THEN 0::DOUBLE + r.w1 WHEN 2 THEN (0::DOUBLE + r.w1) + r.w2
         ELSE py_sum(list_transform(r.sig, lambda x: x.w)) END AS w_sum,
       CASE r.nsig WHEN 1 THEN 0::DOUBLE + r.v1 * r.w1 WHEN 2 THEN (0::DOUBLE + r.v1 * r.w1) + r.v2 * r.w2
         ELSE py_sum(list_transform(r.sig, lambda x: x.v * x.w)) END AS vw_sum
     FROM red r
     WHERE r.nok = r.nsig)
   SELECT d.view_name, d.task_rank, tr.first_seen, x.occ,
     CASE d.reducer WHEN 'single' THEN x.v1 WHEN 'all' THEN x.v_min WHEN 'any' THEN x.v_max
                    WHEN 'mean' THEN x.v_sum / x.nsig::DOUBLE
                    WHEN 'weighted_mean' THEN x.vw_sum / x.w_sum END AS v
   FROM sums x JOIN _es_vdef d USING (task_rank, view_ordinal)
   JOIN _es_vtrial tr ON tr.task_id = d.task_id AND tr.trial_id = x.trial_id
   WHERE NOT (d.reducer = 'weighted_mean' AND x.w_sum = 0::DOUBLE)`,
];

// Opportunities of a view: per trial of its task, as many as the largest score count of any signal
// metric for that trial, at least one.
const viewOpportunities = (source: SummarySource): string[] => [
  // Score count per (task, declared signal metric, trial): the largest stored occurrence.
  `CREATE OR REPLACE TEMP TABLE _es_vcount AS
   SELECT s.task_id, s.metric_type, s.trial_id, max(s.occurrence) AS n
   FROM ${source.scores} s
   WHERE s.run_id = $run AND (s.task_id, s.metric_type) IN (
       SELECT g.task_id, g.metric_type FROM _es_vsig g
       JOIN task_metrics m ON m.run_id = $run AND m.task_id = g.task_id AND m.metric_type = g.metric_type
       JOIN _es_task t ON t.task_id = m.task_id AND t.spec_ordinal = m.task_ordinal)
   GROUP BY s.task_id, s.metric_type, s.trial_id`,
  // Opportunities per trial of the task and view: as many as the largest score count of any signal
  // metric for that trial, at least one.
  `CREATE OR REPLACE TEMP TABLE _es_vper AS
   SELECT tr.task_id, d.view_ordinal, tr.trial_id, greatest(1, coalesce(max(c.n), 0)) AS occs
   FROM _es_vtrial tr JOIN _es_vdef d ON d.task_id = tr.task_id
   LEFT JOIN _es_vsig g ON g.task_id = d.task_id AND g.view_ordinal = d.view_ordinal
   LEFT JOIN _es_vcount c ON c.task_id = tr.task_id AND c.metric_type = g.metric_type AND c.trial_id = tr.trial_id
   GROUP BY tr.task_id, d.view_ordinal, tr.trial_id`,
];

// Staged rows have no repeated (task, trial, metric): one opportunity per trial of the task and view.
const VIEW_OPPORTUNITIES_ONCE = [
  `CREATE OR REPLACE TEMP TABLE _es_vper AS
   SELECT tr.task_id, d.view_ordinal, tr.trial_id, 1::BIGINT AS occs
   FROM _es_vtrial tr JOIN _es_vdef d ON d.task_id = tr.task_id`,
];

const VIEW_STEPS_EMPTY = [
  `CREATE OR REPLACE TEMP TABLE _es_vdef AS
   SELECT NULL::VARCHAR AS task_id, NULL::BIGINT AS task_rank, NULL::INTEGER AS view_ordinal,
     NULL::VARCHAR AS view_name, NULL::VARCHAR AS reducer WHERE false`,
  `CREATE OR REPLACE TEMP TABLE _es_vper AS
   SELECT NULL::VARCHAR AS task_id, NULL::INTEGER AS view_ordinal, NULL::VARCHAR AS trial_id,
     NULL::BIGINT AS occs WHERE false`,
  `CREATE OR REPLACE TEMP TABLE _es_vval AS
   SELECT NULL::VARCHAR AS view_name, NULL::BIGINT AS task_rank, NULL::BIGINT AS first_seen,
     NULL::BIGINT AS occ, NULL::DOUBLE AS v WHERE false`,
];

// pass@k (§7.6), with specs only: the counts per declaring task (the rows are computed from them).
const passAtKSteps = (source: SummarySource): string[] => [
  `CREATE OR REPLACE TEMP TABLE _es_bucket_n AS
   SELECT task_id, metric_type, count(*) AS opportunities FROM ${source.scores} WHERE run_id = $run GROUP BY ALL`,
  // Per (score-like pair, declaring task): n, c and the task's score count for the metric.
  `CREATE OR REPLACE TEMP TABLE _es_pk_task AS
   WITH pairs AS (SELECT DISTINCT metric_type, output_name FROM _es_series WHERE kind IN ('continuous', 'boolean')),
   decl AS (
     SELECT p.metric_type, p.output_name, k.task_id, k.task_rank, k.key_id
     FROM pairs p JOIN _es_key k USING (metric_type, output_name)),
   nc AS (
     SELECT key_id,
       count(*) FILTER (WHERE record_code <> 2) AS n,
       count(*) FILTER (WHERE record_code = 1 AND NOT isnan(num_value) AND num_value >= 1::DOUBLE) AS c
     FROM _es_rec GROUP BY ALL)
   SELECT d.metric_type, d.output_name, d.task_id, d.task_rank,
     coalesce(nc.n, 0) AS n, coalesce(nc.c, 0) AS c, coalesce(b.opportunities, 0) AS opportunities
   FROM decl d
   LEFT JOIN nc USING (key_id)
   LEFT JOIN _es_bucket_n b USING (task_id, metric_type)`,
];

const PASS_AT_K_EMPTY = [
  `CREATE OR REPLACE TEMP TABLE _es_pk_task AS
   SELECT NULL::VARCHAR AS metric_type, NULL::VARCHAR AS output_name, NULL::VARCHAR AS task_id,
     NULL::BIGINT AS task_rank, NULL::BIGINT AS n, NULL::BIGINT AS c, NULL::BIGINT AS opportunities WHERE false`,
];

// Aggregate rows (§7.7 order) and their values; the statistics (§7.2) are computed from the ordered
// values (`selectAggregateValues`).
const AGGREGATE_STEPS = [
  `CREATE OR REPLACE TEMP TABLE _es_cov AS
   SELECT n.metric_type, n.output_name, n.nid, coalesce(b.total, 0) AS total, coalesce(b.scored, 0) AS scored,
     coalesce(b.failed, 0) AS failed
   FROM _es_name n LEFT JOIN (
     SELECT nid, count(*) AS total, count(*) FILTER (WHERE has_output) AS scored,
       count(*) FILTER (WHERE failed) AS failed
     FROM _es_obs GROUP BY nid) b USING (nid)`,
  `CREATE OR REPLACE TEMP TABLE _es_agg AS
   SELECT row_number() OVER (ORDER BY section, k1, k2, k) AS agg_id, name, total, section, k1, k2, k, nid
   FROM (
     SELECT 1 AS section, metric_type AS k1, output_name AS k2, 0 AS k,
       metric_type || '.' || output_name AS name, total, nid FROM _es_cov
     UNION ALL
     SELECT 2, view_name, '', 0, 'view.' || view_name, total, NULL FROM (
       SELECT d.view_name, coalesce(sum(o.occs), 0)::BIGINT AS total
       FROM (SELECT DISTINCT view_name FROM _es_vdef) d
       LEFT JOIN (SELECT v.view_name, p.occs FROM _es_vper p
                  JOIN _es_vdef v ON v.task_id = p.task_id AND v.view_ordinal = p.view_ordinal) o USING (view_name)
       GROUP BY d.view_name))`,
  `CREATE OR REPLACE TEMP TABLE _es_val AS
   SELECT a.agg_id, b.task_rank AS o1, b.score_ordinal AS o2, 0::BIGINT AS o3, b.num_value AS v
   FROM _es_obs b JOIN _es_agg a ON a.section = 1 AND a.nid = b.nid
   WHERE b.has_output AND b.vt = ${VT.number}
   UNION ALL
   SELECT a.agg_id, w.task_rank, w.first_seen, w.occ, w.v
   FROM _es_vval w JOIN _es_agg a ON a.section = 2 AND a.k1 = w.view_name`,
];
