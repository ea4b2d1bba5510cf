// Which provider to talk to and with what key: explicit options ← providers.json (user-defined providers, default,
// keys; must be 0600) ← presets; keys from the key store seam (the app: safeStorage), the environment or the file.
import { closeSync, constants as fsConstants, fstatSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { say, type Said, type WordCode, WORDS, writeFileAtomic } from '../../base/index.js';
import { findPreset, PRESETS, type ProviderPreset } from './presets.js';
import type { ModelProvider, ProviderKind } from './types.js';
import { ProviderError } from './errors.js';
import { anthropicProvider } from './anthropic.js';
import { openaiProvider } from './openai.js';
import { parsePrice, priceFor, type Price } from './pricing.js';
import { z } from 'zod';
import { readJsonText } from '../../config/index.js';
import { visionOf } from '../attachments.js';

const PROVIDERS_FILE = 'providers.json';

/** Where API keys come from besides the environment; the Electron app implements it with safeStorage. */
export interface KeyStore {
  get(providerId: string): string | undefined;
  set?(providerId: string, key: string): void;
  delete?(providerId: string): void;
}

/** A provider as providers.json defines it; each field is checked on its own (readProvidersFile). */
const UserProviderSchema = z.object({
  // Each error is a code of preload/words.ts (providersFile.*), said as words in readProvidersFile's warnings.
  kind: z.enum(['anthropic', 'openai'], { error: 'providersFile.kind' }).optional(),
  baseURL: z.string({ error: 'providersFile.string' }).optional(),
  model: z.string({ error: 'providersFile.string' }).optional(),
  contextWindow: z.number({ error: 'providersFile.tokens' }).positive({ error: 'providersFile.tokens' }).optional(),
  apiKey: z.string({ error: 'providersFile.string' }).optional(),
  /** Environment variable holding the key. */
  keyEnv: z.string({ error: 'providersFile.string' }).optional(),
  /** The model reads images (default: what its name says, attachments.ts visionOf). */
  vision: z.boolean({ error: 'providersFile.boolean' }).optional(),
});

export type UserProvider = z.infer<typeof UserProviderSchema> & { kind?: ProviderKind };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export interface ProvidersFile {
  default?: string;
  providers: Record<string, UserProvider>;
  /** Prices per million tokens, keyed `provider/model` or `model`; they override the built-in table (pricing.ts). */
  prices?: Record<string, Price>;
}

export interface ProviderChoice {
  /** Preset or user-defined name. */
  provider?: string;
  model?: string;
  baseURL?: string;
  apiKey?: string;
}

/** A resolved provider configuration; never holds the key itself (that stays in `apiKey`, kept out of records). */
export interface ProviderConfig {
  id: string;
  kind: ProviderKind;
  model: string;
  baseURL: string | undefined;
  contextWindow: number;
  keySource: 'option' | 'key-store' | 'env' | 'file' | 'none';
  /** Where the key is set: its environment variables, each language joining them (keyHintOf). */
  keyHint: string | Said;
  sendMaxTokens: boolean;
  /** providers.json's `vision` for this provider, when set (else the model's name decides). */
  vision?: boolean;
  /** The model's price when known (the user's, else the built-in table); no price, no cost. */
  price?: Price;
}

export interface ResolveResult {
  config?: ProviderConfig;
  apiKey?: string;
  /** Problems worth one line each (a world-readable providers.json, a field that cannot be used), as words. */
  warnings: Said[];
}

export function providersFilePath(dataDir: string): string {
  return join(dataDir, PROVIDERS_FILE);
}

/**
 * Read providers.json. Keys in a file others can read are ignored, with a warning (chmod 600). A file that is there but
 * cannot be read as JSON reads as empty, with a warning (the service's updateProvidersFile refuses to write over it).
 */
export function readProvidersFile(dataDir: string): { file: ProvidersFile; keysUsable: boolean; warnings: Said[] } {
  const path = providersFilePath(dataDir);
  const warnings: Said[] = [];
  let fd: number;
  try {
    fd = openSync(path, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { file: { providers: {} }, keysUsable: false, warnings };
    const error = (e as Error).message;
    return {
      file: { providers: {} },
      keysUsable: false,
      warnings: [say('providersFile.cannotRead', { file: path, error })],
    };
  }
  let text: string;
  let keysUsable = true;
  try {
    const st = fstatSync(fd);
    if (!st.isFile())
      return {
        file: { providers: {} },
        keysUsable: false,
        warnings: [say('providersFile.notRegular', { file: path })],
      };
    if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) {
      keysUsable = false;
      warnings.push(say('providersFile.readable', { file: path, mode: (st.mode & 0o777).toString(8) }));
    }
    text = readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
  const read = readJsonText(text);
  if (read.error) {
    const { line, column, words } = read.error;
    return {
      file: { providers: {} },
      keysUsable: false,
      warnings: [...warnings, say('providersFile.invalidJson', { file: path, line, column, error: words })],
    };
  }
  /** `file:line: field: message`, the line of the field's key. */
  const warn = (field: string, problem: Said): void => {
    const line = read.keys.get(field);
    warnings.push(
      line !== undefined
        ? say('providersFile.fieldAt', { file: path, line, field, problem })
        : say('providersFile.field', { file: path, field, problem }),
    );
  };
  const obj = (isObject(read.value) ? read.value : {}) as Record<string, unknown>;
  if (!isObject(read.value)) warnings.push(say('providersFile.notObject', { file: path }));
  const providers: Record<string, UserProvider> = {};
  const rawProviders = isObject(obj.providers) ? obj.providers : {};
  if (obj.providers !== undefined && !isObject(obj.providers)) warn('providers', say('providersFile.object'));
  for (const [name, v] of Object.entries(rawProviders)) {
    if (!isObject(v)) {
      warn(`providers.${name}`, say('providersFile.object'));
      continue;
    }
    // Field by field: one wrong field is named and left out, the provider's other fields still apply.
    const up: Record<string, unknown> = {};
    for (const [k, schema] of Object.entries(UserProviderSchema.shape)) {
      if (v[k] === undefined) continue;
      const r = schema.safeParse(v[k]);
      if (r.success) up[k] = r.data;
      else warn(`providers.${name}.${k}`, issueWords(r.error.issues[0]?.message));
    }
    providers[name] = up as UserProvider;
  }
  const prices: Record<string, Price> = {};
  if (obj.prices !== undefined) {
    if (!isObject(obj.prices)) warn('prices', say('providersFile.prices'));
    else {
      for (const [k, v] of Object.entries(obj.prices as Record<string, unknown>)) {
        const p = parsePrice(v);
        if (p) prices[k] = p;
        else warn(`prices.${k}`, say('providersFile.price'));
      }
    }
  }
  return {
    file: {
      ...(typeof obj.default === 'string' ? { default: obj.default } : {}),
      providers,
      ...(Object.keys(prices).length ? { prices } : {}),
    },
    keysUsable,
    warnings,
  };
}

/** A field's problem as words: the schema's own code (UserProviderSchema), else zod's message as it is. */
function issueWords(message: string | undefined): Said {
  if (message && Object.prototype.hasOwnProperty.call(WORDS, message)) return say(message as WordCode);
  return say('json.other', { error: message ?? 'invalid' });
}

/** Write providers.json readable only by the user (0600), atomically. */
export function writeProvidersFile(dataDir: string, file: ProvidersFile): void {
  const path = providersFilePath(dataDir);
  writeFileAtomic(path, JSON.stringify(file, null, 2) + '\n', { mode: 0o600 });
}

/** The environment variables that may hold a provider's key, in the order they are tried: providers.json's keyEnv, then the preset's. */
function keyEnvOf(user: UserProvider | undefined, preset: ProviderPreset | undefined): string[] {
  return [...(user?.keyEnv ? [user.keyEnv] : []), ...(preset?.keyEnv ?? [])];
}

export interface KeyLookup {
  apiKey?: string;
  keySource: ProviderConfig['keySource'];
  /** The variable the key came from (keySource 'env'). */
  keyEnv?: string;
}

/**
 * Where a provider's key comes from, in this order: an explicit key (--api-key), the key store, the environment
 * (keyEnvOf), then providers.json's apiKey — only when the file is readable by the user alone (`keysUsable`).
 * The one lookup: resolveProvider uses it, and the Settings page says what it finds.
 */
export function keySourceOf(
  providerId: string,
  where: {
    user?: UserProvider | undefined;
    preset?: ProviderPreset | undefined;
    keysUsable: boolean;
    env: NodeJS.ProcessEnv;
    keyStore?: KeyStore;
    apiKey?: string;
  },
): KeyLookup {
  if (where.apiKey) return { apiKey: where.apiKey, keySource: 'option' };
  const stored = where.keyStore?.get(providerId);
  if (stored) return { apiKey: stored, keySource: 'key-store' };
  const name = keyEnvOf(where.user, where.preset).find((k) => where.env[k]);
  if (name) return { apiKey: where.env[name], keySource: 'env', keyEnv: name };
  if (where.user?.apiKey && where.keysUsable) return { apiKey: where.user.apiKey, keySource: 'file' };
  return { keySource: 'none' };
}

/**
 * Decide the provider: `choice.provider` (a preset or providers.json name) or the file's default, else the first
 * preset whose key is in the environment. No provider at all → `config` undefined (the offline inspector).
 */
export function resolveProvider(
  choice: ProviderChoice,
  opts: { dataDir: string; env?: NodeJS.ProcessEnv; keyStore?: KeyStore },
): ResolveResult {
  const env = opts.env ?? process.env;
  const { file, keysUsable, warnings } = readProvidersFile(opts.dataDir);
  let id = choice.provider ?? file.default;
  if (!id) {
    const withKey = PRESETS.find((p) => !p.keyOptional && p.keyEnv.some((k) => env[k]));
    if (!withKey) return { warnings };
    id = withKey.id;
  }
  const user = file.providers[id];
  const preset: ProviderPreset | undefined = findPreset(id);
  if (!user && !preset) {
    const known = [...PRESETS.map((p) => p.id), ...Object.keys(file.providers)].join(', ');
    throw new ProviderError('config', say('provider.unknown', { id, known, file: providersFilePath(opts.dataDir) }));
  }
  const providerId = preset && !user ? preset.id : id;
  const kind: ProviderKind = user?.kind ?? preset?.kind ?? 'openai';
  const baseURL = choice.baseURL ?? user?.baseURL ?? preset?.baseURL;
  if (!baseURL && kind === 'openai')
    throw new ProviderError('config', say('provider.needsBaseUrl', { id, file: PROVIDERS_FILE }));
  const model = choice.model ?? user?.model ?? preset?.defaultModel;
  if (!model) throw new ProviderError('config', say('provider.needsModel', { id, file: PROVIDERS_FILE }));
  const keyEnv = keyEnvOf(user, preset);
  const keyHint = keyHintOf(id, keyEnv);
  const { apiKey, keySource } = keySourceOf(providerId, {
    user,
    preset,
    keysUsable,
    env,
    ...(opts.keyStore ? { keyStore: opts.keyStore } : {}),
    ...(choice.apiKey ? { apiKey: choice.apiKey } : {}),
  });
  if (!apiKey && !preset?.keyOptional && !(user && !preset)) {
    throw new ProviderError(
      'auth',
      say('provider.noKey', { id, hint: keyHint, file: providersFilePath(opts.dataDir) }),
    );
  }
  const contextWindow = user?.contextWindow ?? preset?.contextWindow ?? 32_768;
  const price = priceFor(providerId, model, file.prices);
  return {
    config: {
      id: providerId,
      kind,
      model,
      baseURL,
      contextWindow,
      keySource,
      keyHint,
      sendMaxTokens: preset?.sendMaxTokens ?? false,
      ...(user?.vision !== undefined ? { vision: user.vision } : {}),
      ...(price ? { price } : {}),
    },
    ...(apiKey ? { apiKey } : {}),
    warnings,
  };
}

/**
 * Where a provider's key is set, as words: its environment variables joined in the language they are said in ("A, B
 * or C"; one is the name alone), else its field in providers.json.
 */
export function keyHintOf(id: string, keyEnv: readonly string[]): string | Said {
  if (keyEnv.length === 0) return say('provider.keyField', { field: `providers.${id}.apiKey`, file: PROVIDERS_FILE });
  if (keyEnv.length === 1) return keyEnv[0]!;
  return say('listOrWord', { a: keyEnv.slice(0, -1).join(', '), b: keyEnv.at(-1)! });
}

/** Build the provider client for a resolved configuration. */
export function createProvider(
  config: ProviderConfig,
  apiKey: string | undefined,
  opts: { timeoutMs?: number; maxRetries?: number; stallMs?: number } = {},
): ModelProvider {
  const common = {
    id: config.id,
    apiKey: apiKey ?? 'not-needed',
    model: config.model,
    baseURL: config.baseURL,
    contextWindow: config.contextWindow,
    vision: visionOf(config.kind, config.model, config.vision),
    keyHint: config.keyHint,
    ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
    ...(opts.maxRetries !== undefined ? { maxRetries: opts.maxRetries } : {}),
    ...(opts.stallMs ? { stallMs: opts.stallMs } : {}),
  };
  return config.kind === 'anthropic'
    ? anthropicProvider(common)
    : openaiProvider({ ...common, sendMaxTokens: config.sendMaxTokens });
}
