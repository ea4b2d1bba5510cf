// The model picker in the chat header: the provider's models (its own list, else its preset's), the conversation's
// model selected. A switch applies from the next turn (chat.setModel, recorded in the session); in a conversation not
// started yet, the model picked goes with its first message. Not while an answer streams.
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, useClient } from '../api/context';
import type { ModelChoices } from '../../../preload/contract';
import { useModelChoice } from '../state/model-choice';
import { useView } from '../state/store';

export function ModelPicker() {
  const { t } = useTranslation();
  const client = useClient();
  const id = useId();
  const sessionId = useView((s) => s.sessionId);
  const streaming = useView((s) => s.streaming);
  const pending = useModelChoice((s) => s.pending);
  const [choices, setChoices] = useState<ModelChoices>();
  const [current, setCurrent] = useState<string>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    if (!client.listModels) return;
    let live = true;
    // Another conversation (or a new one): its own model, and nothing picked for it yet.
    if (sessionId) useModelChoice.getState().pick(undefined);
    client.listModels(sessionId).then(
      (c) => {
        if (!live) return;
        setChoices(c);
        setCurrent(c.current ?? undefined);
        setError(undefined);
      },
      (e) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [client, sessionId]);

  if (!client.listModels || (!choices && !error)) return null;
  if (choices && choices.models.length === 0) return null; // no model set up: the chat says so

  async function choose(model: string) {
    setError(undefined);
    if (!sessionId) {
      useModelChoice.getState().pick(model === choices?.current ? undefined : model);
      return;
    }
    if (!client.setModel) return;
    const before = current;
    setCurrent(model);
    try {
      await client.setModel(sessionId, model);
    } catch (e) {
      setCurrent(before);
      setError(errorText(e));
    }
  }

  const shown = (!sessionId && pending) || current || '';
  return (
    <span className="model-picker">
      <label htmlFor={id}>{t('modelPick.label')}</label>
      {choices && (
        <select
          id={id}
          value={shown}
          disabled={streaming}
          title={choices.source === 'preset' ? t('modelPick.presetList', { error: choices.error ?? '' }) : undefined}
          onChange={(e) => void choose(e.target.value)}
        >
          {choices.models.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      )}
      {error && (
        <span role="alert" className="error small-text">
          {error}
        </span>
      )}
    </span>
  );
}
