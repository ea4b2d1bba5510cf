// The models a provider offers, for the window's model picker: asked of the provider's own list endpoint through its
// official SDK (Anthropic and OpenAI-compatible services both have GET /v1/models), else the preset's known models.
import { clientOptions, loadAnthropicSdk, loadOpenAISdk } from './sdk.js';
import type { Said } from '../../base/index.js';
import { mapProviderError, ProviderError } from './errors.js';
import { findPreset } from './presets.js';
import { visionOf } from '../attachments.js';
import type { ProviderConfig } from './settings.js';

/** At most this many models are read from a provider (a picker, not a catalogue). */
const MAX_MODELS = 200;
/** The list is asked once, without the SDK's retries, and not for long: the picker falls back to the preset's. */
const LIST_TIMEOUT_MS = 10_000;

export interface ModelList {
  /** Model ids, the one in use first. */
  models: string[];
  /** The models of `models` that read no images (providers.json's `vision`, else what the name says). */
  noImages?: string[];
  /** Where the list comes from: the provider's answer, or the preset's known models (the provider gave none). */
  source: 'provider' | 'preset';
  /** Why the provider's list could not be read (one line, the key never in it). */
  error?: string;
  /** `error` as words, said in the window's language. */
  errorWords?: Said;
}

/** One configured provider's models, as the picker groups them. */
export interface ModelGroup extends ModelList {
  /** The provider's id (a preset's, or a name in providers.json). */
  provider: string;
  /** How people know it (the preset's label, else its id). */
  label: string;
}

/** The model ids the provider lists (its SDK pages through them, up to MAX_MODELS). Throws ProviderError. */
export async function providerModels(config: ProviderConfig, apiKey: string | undefined): Promise<string[]> {
  const opts = clientOptions({
    apiKey: apiKey ?? 'not-needed',
    baseURL: config.baseURL,
    timeoutMs: LIST_TIMEOUT_MS,
    maxRetries: 0,
  });
  const ids: string[] = [];
  try {
    const pages =
      config.kind === 'anthropic'
        ? new (await loadAnthropicSdk()).default(opts).models.list({ limit: 100 })
        : new (await loadOpenAISdk()).default(opts).models.list();
    for await (const m of pages) {
      if (typeof m.id === 'string' && m.id) ids.push(m.id);
      if (ids.length >= MAX_MODELS) break;
    }
  } catch (e) {
    throw mapProviderError(e, {
      provider: config.id,
      model: config.model,
      baseURL: config.baseURL,
      key: apiKey,
      keyHint: config.keyHint,
    });
  }
  return ids;
}

/** The provider's models when it lists them, else the preset's; the model in use is always among them, first. */
export async function modelList(config: ProviderConfig, apiKey: string | undefined): Promise<ModelList> {
  let listed: string[] = [];
  let error: string | undefined;
  let errorWords: Said | undefined;
  try {
    listed = await providerModels(config, apiKey);
  } catch (e) {
    error = (e as Error).message;
    if (e instanceof ProviderError) errorWords = e.words;
  }
  const source = listed.length ? 'provider' : 'preset';
  const known = listed.length ? listed : (findPreset(config.id)?.models ?? []);
  const models = [config.model, ...new Set(known.filter((m) => m !== config.model))];
  const noImages = models.filter((m) => !visionOf(config.kind, m, config.vision));
  return {
    models,
    ...(noImages.length ? { noImages } : {}),
    source,
    ...(error ? { error } : {}),
    ...(errorWords ? { errorWords } : {}),
  };
}
