// A provider preset's name in the window's language: main gives the CLI's label ("Ollama (local)"); the window says
// where the presets that run on your own machine run in its own words (`providerName.<preset id>`).
import type { TFunction } from 'i18next';

/** The label of preset `id` in the window's language, else `label` as main gave it (a provider of the user's own). */
export function providerLabel(t: TFunction, id: string, label: string): string {
  return t(`providerName.${id}`, { defaultValue: label });
}
