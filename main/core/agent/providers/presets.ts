// Provider presets (base URL, default model, context window, key variable) for the Anthropic API and the
// OpenAI-compatible services people use; a user adds their own in providers.json (see settings.ts).
import type { ProviderKind } from './types.js';

export interface ProviderPreset {
  id: string;
  label: string;
  kind: ProviderKind;
  baseURL?: string;
  defaultModel: string;
  contextWindow: number;
  /** Environment variables that may hold the key, first wins. */
  keyEnv: string[];
  /** Local servers accept any key; none needs to be configured. */
  keyOptional?: boolean;
  /** Send max_tokens with each request. */
  sendMaxTokens?: boolean;
  /** Models offered in the picker when the provider's own list cannot be read (the default first). */
  models?: readonly string[];
}

export const PRESETS: readonly ProviderPreset[] = [
  {
    id: 'anthropic',
    label: 'Anthropic',
    kind: 'anthropic',
    // The newest of each family in the SDK's own model list (@anthropic-ai/sdk's `Model`): claude-sonnet-4-5, the
    // default before, reached its end of life on 2026-11-30 (the SDK's deprecated-models list).
    defaultModel: 'claude-sonnet-5-5',
    models: ['claude-sonnet-5-5', 'claude-opus-5-5', 'claude-haiku-5-5'],
    contextWindow: 200_000,
    keyEnv: ['ANTHROPIC_API_KEY'],
  },
  {
    id: 'openai',
    label: 'OpenAI',
    kind: 'openai',
    baseURL: 'https://api.openai.com/v1',
    defaultModel: 'gpt-4.1',
    models: ['gpt-4.1', 'gpt-4.1-mini', 'gpt-4o', 'o4-mini'],
    contextWindow: 1_047_576,
    keyEnv: ['OPENAI_API_KEY'],
  },
  {
    id: 'deepseek',
    label: 'DeepSeek',
    kind: 'openai',
    baseURL: 'https://api.deepseek.com/v1',
    defaultModel: 'deepseek-chat',
    models: ['deepseek-chat', 'deepseek-reasoner'],
    contextWindow: 128_000,
    keyEnv: ['DEEPSEEK_API_KEY'],
    sendMaxTokens: true,
  },
  {
    id: 'qwen',
    label: 'Qwen (DashScope)',
    kind: 'openai',
    baseURL: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
    defaultModel: 'qwen-plus',
    contextWindow: 131_072,
    keyEnv: ['DASHSCOPE_API_KEY'],
    sendMaxTokens: true,
  },
  {
    id: 'moonshot',
    label: 'Moonshot / Kimi',
    kind: 'openai',
    baseURL: 'https://api.moonshot.cn/v1',
    defaultModel: 'kimi-k2-turbo-preview',
    contextWindow: 262_144,
    keyEnv: ['MOONSHOT_API_KEY', 'KIMI_API_KEY'],
    sendMaxTokens: true,
  },
  {
    id: 'zhipu',
    label: 'Zhipu GLM',
    kind: 'openai',
    baseURL: 'https://open.bigmodel.cn/api/paas/v4',
    defaultModel: 'glm-4.6',
    contextWindow: 200_000,
    keyEnv: ['ZHIPUAI_API_KEY', 'ZHIPU_API_KEY'],
    sendMaxTokens: true,
  },
  {
    id: 'openrouter',
    label: 'OpenRouter',
    kind: 'openai',
    baseURL: 'https://openrouter.ai/api/v1',
    defaultModel: 'anthropic/claude-sonnet-4.5',
    contextWindow: 200_000,
    keyEnv: ['OPENROUTER_API_KEY'],
  },
  {
    id: 'ollama',
    label: 'Ollama (local)',
    kind: 'openai',
    baseURL: 'http://127.0.0.1:11434/v1',
    defaultModel: 'qwen2.5-coder:7b',
    contextWindow: 32_768,
    keyEnv: ['OLLAMA_API_KEY'],
    keyOptional: true,
  },
  {
    id: 'lmstudio',
    label: 'LM Studio (local)',
    kind: 'openai',
    baseURL: 'http://127.0.0.1:1234/v1',
    defaultModel: 'local-model',
    contextWindow: 32_768,
    keyEnv: ['LMSTUDIO_API_KEY'],
    keyOptional: true,
  },
  {
    id: 'vllm',
    label: 'vLLM (self-hosted)',
    kind: 'openai',
    baseURL: 'http://127.0.0.1:8000/v1',
    defaultModel: 'default',
    contextWindow: 32_768,
    keyEnv: ['VLLM_API_KEY'],
    keyOptional: true,
  },
];

/** Aliases people type. */
const ALIASES: Record<string, string> = {
  kimi: 'moonshot',
  dashscope: 'qwen',
  glm: 'zhipu',
  'lm-studio': 'lmstudio',
  claude: 'anthropic',
};

export function findPreset(id: string): ProviderPreset | undefined {
  const key = id.toLowerCase();
  return PRESETS.find((p) => p.id === (ALIASES[key] ?? key));
}
