// Public API of evalstream: named exports only (no `export *`). Add one line per export.
export { CandidateEvidence } from './evidence/candidate-evidence.js';
export { EvidenceKeyError } from './evidence/evidence-key-error.js';
export { EvidenceValueError } from './evidence/evidence-value-error.js';
export { FilesystemHandle } from './evidence/filesystem-handle.js';
export { LogsHandle } from './evidence/logs-handle.js';
export { ATIFTraceHandle } from './evidence/atif/atif-trace-handle.js';
export { AtifParseError } from './evidence/atif/parse-atif.js';
export { atifTrajectorySchema } from './evidence/atif/atif-trajectory-schema.js';
export { parseAtif } from './evidence/atif/parse-atif.js';
export { checkAtifConformance } from './evidence/atif/check-atif-conformance.js';
export type {
  AtifFinalMetrics,
  AtifStep,
  AtifToolCall,
  AtifTrajectory,
} from './evidence/atif/atif-trajectory-schema.js';
export type { TraceHandle } from './evidence/trace-handle.js';
export { fromHarborJob } from './sources/from-harbor-job.js';
export { fromAtifFiles } from './sources/from-atif-files.js';
export { fromGymRollouts } from './sources/from-gym-rollouts.js';
export { openInputs } from './sources/open-inputs.js';
export { detectFormat } from './sources/detect-format.js';
export { toolCallEfficiency } from './metrics/builtin/tool-call-efficiency.js';
export { trajectoryStats } from './metrics/builtin/trajectory-stats.js';
export { tokenUsage } from './metrics/builtin/token-usage.js';
export { boolean, continuousScore, discreteScore, label, model } from './metrics/output-specs.js';
export { validateMetricResult } from './metrics/validate-metric-result.js';
export { checkOutputValue } from './metrics/check-output-value.js';
export { MetricResultError } from './metrics/validate-metric-result.js';
export { scoreTrial } from './metrics/score-trial.js';
export { buildMetricInput } from './metrics/build-metric-input.js';
export { toMetricDescriptor } from './metrics/to-metric-descriptor.js';
export { builtinRegistry } from './metrics/builtin-registry.js';
export { exactMatch } from './metrics/builtin/exact-match.js';
export { contains } from './metrics/builtin/contains.js';
export { regexMatch } from './metrics/builtin/regex-match.js';
export { numericMatch } from './metrics/builtin/numeric-match.js';
export { jsonMatch } from './metrics/builtin/json-match.js';
export { usage } from './metrics/builtin/usage.js';
export { verifierReward } from './metrics/builtin/verifier-reward.js';
export { defineConfig } from './config/evalstream-config.js';
export { loadConfig } from './config/load-config.js';
export { parseConfig } from './config/parse-config.js';
export { ConfigError } from './config/config-error.js';
export type { EvalstreamConfig, EvalstreamConfigInput, MetricRef } from './config/evalstream-config.js';
export { scoreTrials } from './operators/score-trials.js';
export { buildPipeline } from './pipeline/build-pipeline.js';
export { runPipeline } from './pipeline/run-pipeline.js';
export { writeToSinks } from './pipeline/write-to-sinks.js';
export { PullSource } from './pipeline/pull-source.js';
export type { ScoredTrial } from './model/scored-trial.js';
export type { Metric, MetricInput, MetricResult } from './model/metric.js';
export { SummaryBuilder } from './summary/summary-builder.js';
export { buildSummary } from './summary/build-summary.js';
export type { BuildSummaryInput } from './summary/build-summary.js';
export { summarySchema } from './summary/summary-schema.js';
export {
  summaryScore,
  AggregateNotFoundError,
  scoresByName,
  headlineValue,
} from './summary/summary-accessors.js';
export { taskOutcomes, metricValues, numericMetricValues } from './summary/summary-accessors.js';
export type { PerTaskOutcome, PerTaskOutcomes } from './summary/summary-accessors.js';
export { encodeTaskValueRecord } from './summary/encode-task-value-record.js';
export { decodeTaskValueRecord } from './summary/decode-task-value-record.js';
export { isTrialFailure } from './summary/is-trial-failure.js';
export { describeValues } from './metrics/stats/describe-values.js';
export type { ValueDescription } from './metrics/stats/describe-values.js';
export { passAtK } from './metrics/stats/pass-at-k.js';
export { pyFloatSum as pythonSum } from './pycompat/py-float-sum.js';
export { writeReport } from './report/write-report.js';
export { reportWriterFor } from './report/report-writer-for.js';
export type { ReportWriterForOptions } from './report/report-writer-for.js';
export { reportBundleOf } from './report/write-report.js';
export type { ReportBundle } from './report/write-report.js';
export type { ReportOptions } from './report/report-collector.js';
export { toReport } from './sinks/to-report.js';
export type { ReportSink, ToReportOptions } from './sinks/to-report.js';
export { toDuckDB } from './sinks/to-duckdb.js';
export { toArrow } from './sinks/to-arrow.js';
export { DuckDBSink } from './sinks/duckdb/duckdb-sink.js';
export type { DuckDBSinkOptions } from './sinks/duckdb/duckdb-sink.js';
export { openDuckDB } from './sinks/duckdb/open-duckdb.js';
export { writeRun } from './sinks/duckdb/write-run.js';
export type { StoreRunInput } from './sinks/duckdb/store-run-input.js';
export { STORE_TABLES } from './sinks/duckdb/store-tables.js';
export { exportParquet } from './sinks/duckdb/export-parquet.js';
export { exportArrow } from './sinks/duckdb/export-arrow.js';
export { summarizeWithDuckDB } from './sql-summary/summarize-with-duckdb.js';
export type { SummarizeWithDuckDBInput } from './sql-summary/summarize-with-duckdb.js';
export { summarizeStoreRun } from './sql-summary/summarize-store-run.js';
export { duckdbBundleSummaryEngine } from './sql-summary/duckdb-bundle-summary-engine.js';
export type { DuckDBBundleSummaryOptions } from './sql-summary/duckdb-bundle-summary-engine.js';
export type { BundleSummaryEngine, BundleSummaryInput } from './bundle/bundle-summary-engine.js';
export { writeBundleRun } from './sinks/duckdb/write-bundle-run.js';
export { bundleEvidenceOf } from './sinks/duckdb/bundle-evidence-of.js';
export { OTLPTraceHandle } from './evidence/otlp/otlp-trace-handle.js';
export type { OtlpTokenUsage } from './evidence/otlp/otlp-trace-handle.js';
export { decodeOtlpProtobuf } from './evidence/otlp/decode-otlp-protobuf.js';
export { decodeOtlpProtobufReflection } from './evidence/otlp/decode-otlp-protobuf-reflection.js';
export { otlpJsonToRequest } from './evidence/otlp/otlp-json-to-request.js';
export { parseLosslessJson } from './evidence/otlp/parse-lossless-json.js';
export { OtlpDecodeError } from './evidence/otlp/otlp-decode-error.js';
export { readOtlpFileSync } from './evidence/otlp/read-otlp-file-sync.js';
export { SpanForest } from './evidence/otlp/span-forest.js';
export type {
  OtlpExportRequest,
  OtlpResourceSpans,
  OtlpSpan,
  OtlpAnyValue,
  OtlpAttributes,
} from './evidence/otlp/otlp-types.js';
export type { OtlpGroupingConfig } from './evidence/otlp/otlp-trial-grouper.js';
export { fromOtlpFiles } from './sources/from-otlp-files.js';
export type { FromOtlpFilesOptions } from './sources/from-otlp-files.js';
export { InputError } from './sources/input-error.js';
export { decodeOtlp } from './operators/decode-otlp.js';
export { groupIntoTrials } from './operators/group-into-trials.js';
export { readBundle } from './bundle/read-bundle.js';
export { writeBundle } from './bundle/write-bundle.js';
export type { WriteBundleOptions, WrittenBundle } from './bundle/write-bundle.js';
export type { RunBundle } from './bundle/run-bundle.js';
export type { RunManifest } from './bundle/run-manifest.js';
export type { RunMetadata, RunTarget } from './bundle/run-metadata.js';
export type { ReportWriter } from './bundle/report-writer.js';
export { readScoreRows } from './bundle/read-score-rows.js';
export { readTrialRows } from './bundle/read-trial-rows.js';
export { readTaskSpecs } from './bundle/read-task-specs.js';
export { summarizeBundle } from './bundle/summarize-bundle.js';
export type { SummarizeBundleOptions, SummarizeBundleResult } from './bundle/summarize-bundle.js';
export { rowSchemas } from './bundle/row-schemas.js';
export { BundleReadError, type BundleIssue, formatBundleIssue } from './bundle/bundle-read-error.js';
export { pythonJson } from './pycompat/python-json.js';
export { PyFloat } from './pycompat/py-float.js';
export { parsePythonJson } from './pycompat/parse-python-json.js';
export { fromBundle } from './sources/from-bundle.js';
export type { FromBundleOptions } from './sources/from-bundle.js';
export { toRunBundle } from './sinks/to-run-bundle.js';
export type { ToRunBundleOptions } from './sinks/to-run-bundle.js';
export { aggregateRollouts } from './gym/aggregate-rollouts.js';
export type { AggregateRolloutsOptions, AggregateRolloutsResult } from './gym/aggregate-rollouts.js';
export { profileRollouts } from './gym/profile-rollouts.js';
export type { ProfileRolloutsOptions, ProfileRolloutsResult } from './gym/profile-rollouts.js';
export { computeAgentAggregate } from './gym/compute/compute-agent-aggregate.js';
export type { GymAgentAggregate } from './gym/compute/compute-agent-aggregate.js';
export type { GymHooks } from './gym/compute/gym-hooks.js';
export { GymInputError } from './gym/gym-input-error.js';
export { loadGymHooks } from './gym/load-gym-hooks.js';
export { computePassMajorityMetrics } from './gym/stats/compute-pass-majority-metrics.js';
export { addAvgSampleStdDev } from './gym/stats/add-avg-sample-std-dev.js';
export { computeSubsetMetrics } from './gym/stats/compute-subset-metrics.js';
export { highestKMetrics } from './gym/stats/highest-k-metrics.js';
export { stringifyPyJson } from './pycompat/stringify-py-json.js';
export { toPlainJson } from './pycompat/to-plain-json.js';
export type { PyJson, PyJsonObject } from './pycompat/py-json.js';
