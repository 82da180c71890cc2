import { open } from 'node:fs/promises';
import { mulberry32 } from './mulberry32.js';

/** Options of {@link generateGymRollouts}. */
export interface GymRolloutGeneratorConfig {
  /** Output JSONL path. */
  path: string;
  /** Number of rollout rows to write. */
  rollouts: number;
  /** Repeats per task are drawn from [minRepeats, maxRepeats] (default 2..16). */
  minRepeats?: number;
  maxRepeats?: number;
  /** Approximate characters of generated text in each `response` (default 2400). */
  responseChars?: number;
  /** Agent names; tasks are spread over them round-robin (default one agent). */
  agents?: string[];
  /** PRNG seed (default 1). */
  seed?: number;
  /** Shuffle rows within windows of this many rows, like completion order (default 4096). */
  shuffleWindow?: number;
  /** Probability that a rollout is missing (a failed rollout), default 0.01. */
  dropRate?: number;
}

const WORDS =
  'the of and to in is that for it as with was on be by this are or from at an which but not have has were we can all their if more will one about so there when what up out into than them only other its some time could these two may then do first any my now such like our over man me even most made after also did many before must through back years where much your way well down should because each just those people how too little state good very make world still own see men work long get here between both life being under never day same another know while last might us great old year off come since against go came right used take three'.split(
    ' ',
  );

let pool = '';

/** Random-looking text of about `chars` characters: a slice of a 1 MiB pool of words (fast). */
function text(rand: () => number, chars: number): string {
  if (pool.length === 0) {
    const words: string[] = [];
    let n = 0;
    const r = mulberry32(12345);
    while (n < 1 << 20) {
      const w = WORDS[Math.floor(r() * WORDS.length)] ?? 'x';
      const sep = r() < 0.08 ? '. ' : r() < 0.02 ? '\n' : ' ';
      words.push(w, sep);
      n += w.length + sep.length;
    }
    pool = words.join('');
  }
  const start = Math.floor(rand() * (pool.length - chars - 1));
  return pool.slice(start, start + chars);
}

function rolloutRow(rand: () => number, task: number, rollout: number, agent: string, chars: number): string {
  const correct = rand() < 0.35 + (0.5 * ((task * 7919) % 100)) / 100;
  const inputTokens = 80 + Math.floor(rand() * 400);
  const reasoningTokens = Math.floor(rand() * chars * 0.6);
  const outputTokens = reasoningTokens + 20 + Math.floor(rand() * 300);
  const reasoning = text(rand, Math.floor(chars * (0.5 + rand() * 0.4)));
  const answer = text(rand, Math.floor(chars * 0.15 * (0.5 + rand())));
  const id = (task * 1000 + rollout).toString(16).padStart(12, '0');
  const response = {
    id: `resp_${id}`,
    created_at: 1760000000 + task,
    error: null,
    incomplete_details: null,
    instructions: null,
    metadata: {},
    model: 'nvidia/nemotron-nano-9b-v2',
    object: 'response',
    output: [
      {
        id: `rs_${id}`,
        summary: [],
        type: 'reasoning',
        content: [{ text: reasoning, type: 'reasoning_text' }],
        encrypted_content: null,
      },
      {
        id: `msg_${id}`,
        content: [
          {
            annotations: [],
            text: `${answer} The answer is \\boxed{${task % 97}}.`,
            type: 'output_text',
            logprobs: [],
          },
        ],
        role: 'assistant',
        status: 'completed',
        type: 'message',
      },
    ],
    parallel_tool_calls: true,
    temperature: 0.6,
    tool_choice: 'auto',
    tools: [],
    top_p: 0.95,
    background: false,
    max_output_tokens: 32768,
    previous_response_id: null,
    reasoning: null,
    service_tier: 'auto',
    status: 'completed',
    text: { format: { type: 'text' } },
    truncation: 'disabled',
    usage: {
      input_tokens: inputTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: outputTokens,
      output_tokens_details: { reasoning_tokens: reasoningTokens },
      total_tokens: inputTokens + outputTokens,
    },
    user: null,
  };
  const row = {
    responses_create_params: {
      input: [
        { role: 'system', content: 'Solve the problem. Put the final answer in \\boxed{}.' },
        { role: 'user', content: text(rand, 200 + Math.floor(rand() * 400)) },
      ],
      temperature: 0.6,
      top_p: 0.95,
      max_output_tokens: 32768,
    },
    response,
    reward: correct ? 1.0 : 0.0,
    library_reward: correct ? 1.0 : rand() < 0.1 ? 0.5 : 0.0,
    judge_score: Math.round(rand() * 1e6) / 1e6,
    format_ok: rand() < 0.9,
    num_turns: 1 + Math.floor(rand() * 4),
    extracted_answer: String(task % 97),
    expected_answer: String(task % 97),
    _ng_task_index: task,
    _ng_rollout_index: rollout,
    agent_ref: { name: agent },
  };
  // Python's json/orjson write 1.0 as "1.0"; keep the float literals float.
  return JSON.stringify(row).replace(/"(reward|library_reward)":([01])(?=[,}])/g, '"$1":$2.0');
}

/**
 * Writes a synthetic Gym rollouts JSONL file: realistic rows (large `response` objects with usage,
 * several numeric verifier fields), 2–16 repeats per task, rows in a shuffled completion order.
 *
 * @example
 * await generateGymRollouts({ path: 'bench/out/rollouts.jsonl', rollouts: 200_000 });
 */
export async function generateGymRollouts(
  config: GymRolloutGeneratorConfig,
): Promise<{ bytes: number; rows: number }> {
  const rand = mulberry32(config.seed ?? 1);
  const minR = config.minRepeats ?? 2;
  const maxR = config.maxRepeats ?? 16;
  const chars = config.responseChars ?? 2400;
  const agents = config.agents ?? ['math_simple_agent'];
  const windowSize = config.shuffleWindow ?? 4096;
  const dropRate = config.dropRate ?? 0.01;
  const fh = await open(config.path, 'w');
  let bytes = 0;
  let rows = 0;
  let window: string[] = [];
  const flush = async (): Promise<void> => {
    for (let i = window.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      const t = window[i] as string;
      window[i] = window[j] as string;
      window[j] = t;
    }
    const chunk = window.join('\n') + '\n';
    bytes += Buffer.byteLength(chunk);
    await fh.write(chunk);
    window = [];
  };
  let task = 0;
  while (rows < config.rollouts) {
    const repeats = minR + Math.floor(rand() * (maxR - minR + 1));
    const agent = agents[task % agents.length] ?? 'agent';
    for (let r = 0; r < repeats && rows < config.rollouts; r++) {
      if (rand() < dropRate) continue;
      window.push(rolloutRow(rand, task, r, agent, chars));
      rows++;
      if (window.length >= windowSize) await flush();
    }
    task++;
  }
  if (window.length > 0) await flush();
  await fh.close();
  return { bytes, rows };
}
