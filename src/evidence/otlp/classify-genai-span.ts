import type { OtlpSpan } from './otlp-types.js';

/** What a span is in an agent trace: a model call, a tool execution, an agent or workflow invocation. */
export type GenAiSpanRole = 'llm' | 'tool' | 'agent' | 'workflow' | 'other';

const LLM_OPERATIONS = new Set(['chat', 'generate_content', 'text_completion', 'completion']);
const AGENT_OPERATIONS = new Set(['invoke_agent', 'create_agent']);

/**
 * Classifies a span by the OTel GenAI conventions (`gen_ai.operation.name`), else OpenInference
 * (`openinference.span.kind`), else known framework shapes: Google ADK's `call_llm` wrapper and
 * OpenLLMetry's `llm.request.type` mark model calls.
 *
 * @example
 * classifyGenAiSpan(span); // 'tool' for gen_ai.operation.name = execute_tool
 */
export function classifyGenAiSpan(span: OtlpSpan): GenAiSpanRole {
  const a = span.attributes;
  const op = a.getString('gen_ai.operation.name');
  if (op !== undefined && op !== '') {
    if (op === 'execute_tool') return 'tool';
    if (LLM_OPERATIONS.has(op)) return 'llm';
    if (AGENT_OPERATIONS.has(op)) return 'agent';
    if (op === 'invoke_workflow') return 'workflow';
    return 'other';
  }
  const oi = a.getString('openinference.span.kind')?.toUpperCase();
  if (oi !== undefined) {
    if (oi === 'TOOL') return 'tool';
    if (oi === 'LLM') return 'llm';
    if (oi === 'AGENT') return 'agent';
    if (oi === 'CHAIN') return 'workflow';
    return 'other';
  }
  if (span.name === 'call_llm') return 'llm';
  const llmType = a.getString('llm.request.type');
  if (llmType === 'chat' || llmType === 'completion') return 'llm';
  return 'other';
}
