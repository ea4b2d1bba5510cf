// The provider settings as the forms read them from settings.get: none set up yet starts from the first preset and is
// not "set up"; a key given at start is the provider in use's; a local server needs no key.
import { describe, expect, it } from 'vitest';
import { configured, keySource, presetForm, providerForm } from '../../../renderer/src/state/provider';
import type { SettingsView } from '../../../preload/contract';
import { preset } from './memory-client';

const none: SettingsView = {
  provider: null,
  presets: [
    preset('anthropic', 'Anthropic', 'https://api.anthropic.com', 'claude-x'),
    preset('ollama', 'Ollama', 'http://127.0.0.1:11434/v1', 'qwen', { keyOptional: true }),
  ],
  ceiling: { tools: ['*'], network: false, readRoots: [], writeRoots: [] },
  warnings: [],
  keyStorage: 'file',
};
const inUse = (p: Partial<NonNullable<SettingsView['provider']>>): SettingsView => ({
  ...none,
  provider: {
    preset: 'anthropic',
    model: 'claude-y',
    baseUrl: null,
    contextWindow: 200000,
    hasKey: false,
    keySource: 'none',
    ...p,
  },
});

describe('provider form', () => {
  it('starts from the first preset when no provider is set up, which is not set up', () => {
    expect(providerForm(none)).toEqual({
      preset: 'anthropic',
      model: 'claude-x',
      baseUrl: 'https://api.anthropic.com',
    });
    expect(configured(none)).toBe(false);
  });

  it('starts from the provider in use; set up once it has its key, or needs none', () => {
    expect(providerForm(inUse({}))).toEqual({ preset: 'anthropic', model: 'claude-y', baseUrl: '' });
    expect(configured(inUse({}))).toBe(false);
    expect(configured(inUse({ hasKey: true }))).toBe(true);
    expect(configured(inUse({ preset: 'ollama' }))).toBe(true);
    expect(presetForm(none, 'ollama')).toEqual({
      preset: 'ollama',
      model: 'qwen',
      baseUrl: 'http://127.0.0.1:11434/v1',
    });
  });

  it("says a key given at start is the provider in use's, and each other preset's own source", () => {
    const s = inUse({ hasKey: true, keySource: 'option' });
    s.presets[1] = { ...s.presets[1]!, keySource: 'env', keyEnv: 'OLLAMA_KEY' };
    expect(keySource(s, 'anthropic')).toBe('option');
    expect(keySource(s, 'ollama')).toBe('env');
    expect(keySource(none, 'anthropic')).toBe('none');
  });
});
