// The provider settings as the forms read them: the provider in use (or, none set up yet, the first preset's
// defaults), whether a model is set up, and where a preset's key comes from. Plain functions of the contract's view.
import type { SettingsView } from '../../../preload/contract';

export type KeySource = NonNullable<SettingsView['provider']>['keySource'];
export interface ProviderForm {
  preset: string;
  model: string;
  baseUrl: string;
}

/** A preset's defaults, as the form shows them when the user picks it. */
export function presetForm(s: SettingsView, id: string): ProviderForm {
  const p = s.presets.find((x) => x.id === id);
  return { preset: id, model: p?.defaultModel ?? '', baseUrl: p?.baseUrl ?? '' };
}

/** The provider in use, or the first preset's defaults when none is set up. */
export function providerForm(s: SettingsView): ProviderForm {
  if (!s.provider) return presetForm(s, s.presets[0]?.id ?? '');
  return { preset: s.provider.preset, model: s.provider.model, baseUrl: s.provider.baseUrl ?? '' };
}

/** A model is set up: a provider is chosen and has its key, or needs none (a local server). */
export function configured(s: SettingsView): boolean {
  if (!s.provider) return false;
  const preset = s.provider.preset;
  return s.provider.hasKey || s.presets.find((p) => p.id === preset)?.keyOptional === true;
}

/** Where preset `id`'s key comes from; a key given when Knack was started is used first, for the provider in use. */
export function keySource(s: SettingsView, id: string): KeySource {
  const inUse = s.provider?.preset === id ? s.provider : undefined;
  if (inUse?.keySource === 'option') return 'option';
  return s.presets.find((p) => p.id === id)?.keySource ?? inUse?.keySource ?? 'none';
}
