// Which provider to talk to and with what key: explicit options ← providers.json (user-defined providers, default,
// keys; must be 0600) ← presets; keys from the key store seam (the app: safeStorage), the environment or the file.
import {
  chmodSync,
  closeSync,
  constants as fsConstants,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { findPreset, PRESETS, type ProviderPreset } from './presets.js';
import type { ModelProvider, ProviderKind } from './types.js';
import { ProviderError } from './errors.js';
import { anthropicProvider } from './anthropic.js';
import { openaiProvider } from './openai.js';
import { parsePrice, priceFor, type Price } from './pricing.js';

export const PROVIDERS_FILE = 'providers.json';

/** Where API keys come from besides the environment; the Electron app implements it with safeStorage. */
export interface KeyStore {
  get(providerId: string): string | undefined;
  set?(providerId: string, key: string): void;
  delete?(providerId: string): void;
}

export interface UserProvider {
  kind?: ProviderKind;
  baseURL?: string;
  model?: string;
  contextWindow?: number;
  apiKey?: string;
  /** Environment variable holding the key. */
  keyEnv?: string;
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
  keyHint: string;
  sendMaxTokens: boolean;
  /** The model's price when known (the user's, else the built-in table); no price, no cost. */
  price?: Price;
}

export interface ResolveResult {
  config?: ProviderConfig;
  apiKey?: string;
  /** Problems worth one line each (a world-readable providers.json, an unknown field). */
  warnings: string[];
}

export function providersFilePath(dataDir: string): string {
  return join(dataDir, PROVIDERS_FILE);
}

/**
 * Read providers.json. Keys in a file others can read are ignored, with a warning (chmod 600). A file that is there but
 * cannot be read as JSON reads as empty, with a warning (the service's updateProvidersFile refuses to write over it).
 */
export function readProvidersFile(dataDir: string): { file: ProvidersFile; keysUsable: boolean; warnings: string[] } {
  const path = providersFilePath(dataDir);
  const warnings: string[] = [];
  let fd: number;
  try {
    fd = openSync(path, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { file: { providers: {} }, keysUsable: false, warnings };
    return { file: { providers: {} }, keysUsable: false, warnings: [`${path}: cannot read: ${(e as Error).message}`] };
  }
  let text: string;
  let keysUsable = true;
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { file: { providers: {} }, keysUsable: false, warnings: [`${path}: not a regular file`] };
    if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) {
      keysUsable = false;
      warnings.push(
        `${path}: readable by other users (mode ${(st.mode & 0o777).toString(8)}); its API keys are ignored until you run chmod 600 on it`,
      );
    }
    text = readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return {
      file: { providers: {} },
      keysUsable: false,
      warnings: [...warnings, `${path}: invalid JSON: ${(e as Error).message}`],
    };
  }
  const obj = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const providers: Record<string, UserProvider> = {};
  const rawProviders =
    obj.providers && typeof obj.providers === 'object' ? (obj.providers as Record<string, unknown>) : {};
  for (const [name, v] of Object.entries(rawProviders)) {
    if (!v || typeof v !== 'object') {
      warnings.push(`${path}: providers.${name}: must be an object`);
      continue;
    }
    const p = v as Record<string, unknown>;
    const up: UserProvider = {};
    if (p.kind === 'anthropic' || p.kind === 'openai') up.kind = p.kind;
    else if (p.kind !== undefined) warnings.push(`${path}: providers.${name}.kind: must be "anthropic" or "openai"`);
    for (const k of ['baseURL', 'model', 'apiKey', 'keyEnv'] as const)
      if (typeof p[k] === 'string') up[k] = p[k] as string;
    if (typeof p.contextWindow === 'number' && p.contextWindow > 0) up.contextWindow = p.contextWindow;
    providers[name] = up;
  }
  const prices: Record<string, Price> = {};
  if (obj.prices !== undefined) {
    if (!obj.prices || typeof obj.prices !== 'object' || Array.isArray(obj.prices))
      warnings.push(
        `${path}: prices: must be an object of "provider/model": {input, output, cacheRead, cacheWrite} (USD per million tokens)`,
      );
    else {
      for (const [k, v] of Object.entries(obj.prices as Record<string, unknown>)) {
        const p = parsePrice(v);
        if (p) prices[k] = p;
        else
          warnings.push(
            `${path}: prices.${k}: expected {input, output, cacheRead?, cacheWrite?} as non-negative USD per million tokens; ignored`,
          );
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

/** Write providers.json readable only by the user (0600), atomically. */
export function writeProvidersFile(dataDir: string, file: ProvidersFile): void {
  const path = providersFilePath(dataDir);
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(file, null, 2) + '\n', { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

/** The environment variables that may hold a provider's key, in the order they are tried: providers.json's keyEnv, then the preset's. */
export function keyEnvOf(user: UserProvider | undefined, preset: ProviderPreset | undefined): string[] {
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
    throw new ProviderError(
      'config',
      `unknown provider "${id}" (known: ${known}; add your own in ${providersFilePath(opts.dataDir)})`,
    );
  }
  const providerId = preset && !user ? preset.id : id;
  const kind: ProviderKind = user?.kind ?? preset?.kind ?? 'openai';
  const baseURL = choice.baseURL ?? user?.baseURL ?? preset?.baseURL;
  if (!baseURL && kind === 'openai')
    throw new ProviderError('config', `provider "${id}" needs a base URL (--base-url or baseURL in ${PROVIDERS_FILE})`);
  const model = choice.model ?? user?.model ?? preset?.defaultModel;
  if (!model)
    throw new ProviderError('config', `provider "${id}" needs a model (--model or model in ${PROVIDERS_FILE})`);
  const keyEnv = keyEnvOf(user, preset);
  const keyHint = keyEnv.length ? keyEnv.join(' or ') : `providers.${id}.apiKey in ${PROVIDERS_FILE}`;
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
      `no API key for ${id}: set ${keyHint} (or add it to ${providersFilePath(opts.dataDir)}, mode 600)`,
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
      ...(price ? { price } : {}),
    },
    ...(apiKey ? { apiKey } : {}),
    warnings,
  };
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
    keyHint: config.keyHint,
    ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
    ...(opts.maxRetries !== undefined ? { maxRetries: opts.maxRetries } : {}),
    ...(opts.stallMs ? { stallMs: opts.stallMs } : {}),
  };
  return config.kind === 'anthropic'
    ? anthropicProvider(common)
    : openaiProvider({ ...common, sendMaxTokens: config.sendMaxTokens });
}
