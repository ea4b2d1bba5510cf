// The model picker in the chat header: every configured provider's models (each one's own list, else its preset's),
// grouped by provider, the conversation's model selected and marked in use. A switch, to another provider's model too,
// applies from the next turn (chat.setModel, recorded in the session); in a conversation not started yet, the model
// picked goes with its first message. Not while an answer streams. A providers.json edited by hand shows at once.
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import i18n from 'i18next';
import { useClient } from '../api/context';
import { ErrorText, failure, type Shown } from '../i18n/ErrorText';
import type { ModelChoices } from '../../../preload/contract';
import type { ModelPick } from '../api/client';
import { useModelChoice } from '../state/model-choice';
import { useView } from '../state/store';
import { useSay } from '../i18n/say';
import { providerLabel } from '../i18n/provider';

/** An option's value: the provider and the model, unambiguous whatever characters either holds. */
const valueOf = (provider: string, model: string): string => JSON.stringify([provider, model]);

export function ModelPicker() {
  const { t } = useTranslation();
  const say = useSay();
  const client = useClient();
  const id = useId();
  const sessionId = useView((s) => s.sessionId);
  const streaming = useView((s) => s.streaming);
  const pending = useModelChoice((s) => s.pending);
  const [choices, setChoices] = useState<ModelChoices>();
  const [current, setCurrent] = useState<ModelPick>();
  const [error, setError] = useState<Shown>();
  // Bumped when the engine says the open folder's settings changed (providers.json edited by hand, say): the list is
  // asked for again, without a reload.
  const [edited, setEdited] = useState(0);
  const folder = useView((s) => s.workspace?.path);
  useEffect(
    () =>
      client.on('workspace.changed', ({ workspace: w }) => {
        if (w.path === folder) setEdited((n) => n + 1);
      }),
    [client, folder],
  );

  // Another conversation (or a new one): its own model, and nothing picked for it yet.
  useEffect(() => {
    if (sessionId) useModelChoice.getState().pick(undefined);
  }, [sessionId]);

  useEffect(() => {
    let live = true;
    client.call('chat.models', sessionId ? { sessionId } : {}).then(
      (c) => {
        if (!live) return;
        setChoices(c);
        setCurrent(c.current ? { model: c.current, ...(c.provider ? { provider: c.provider } : {}) } : undefined);
        setError(undefined);
      },
      (e) => live && setError(failure(e, 'modelPick.listFailed')),
    );
    return () => {
      live = false;
    };
  }, [client, sessionId, edited]);

  // The model answering next (the one picked, else the one in use): whether it reads images, for the file chips.
  const next = (!sessionId && pending) || current;
  const nextProvider = next?.provider ?? choices?.provider;
  const blind =
    next && choices?.groups.find((g) => g.provider === nextProvider)?.noImages?.includes(next.model)
      ? next.model
      : undefined;
  useEffect(() => {
    useModelChoice.setState({ noImages: blind });
    return () => useModelChoice.setState({ noImages: undefined });
  }, [blind]);

  if (!choices && !error) return null;
  if (choices && !choices.current) return null; // no model set up: the chat says so

  async function choose(value: string) {
    setError(undefined);
    const [provider, model] = JSON.parse(value) as [string, string];
    if (!sessionId) {
      const inUse = model === choices?.current && provider === choices.provider;
      useModelChoice
        .getState()
        .pick(inUse ? undefined : { model, ...(provider !== choices?.provider ? { provider } : {}) });
      return;
    }
    const before = current;
    setCurrent({ model, provider });
    try {
      // Always with its provider: left out, the engine keeps the conversation's provider now, which an earlier switch
      // may have changed since the list was fetched (back to the first provider's model would stay on the other).
      const { imagesUnseen } = await client.call('chat.setModel', { sessionId, model, provider });
      // The context meter counts for this model now: its window, and earlier images as blocks or as notes.
      useView.setState((s) => ({ loadedTick: s.loadedTick + 1 }));
      // Said, not silent: the images sent earlier go to this model only as notes naming them.
      if (imagesUnseen)
        useView.getState().notify({
          kind: 'info',
          text: () => i18n.t('modelPick.imagesUnseen', { count: imagesUnseen, model }),
        });
    } catch (e) {
      setCurrent(before);
      setError(failure(e, 'modelPick.switchFailed'));
    }
  }

  // In use: the conversation's model (after a switch, the new one); in a new conversation, the provider's default.
  const inUse = current?.provider ?? choices?.provider ?? '';
  const chosen = (!sessionId && pending) || current;
  const shown = chosen ? valueOf(chosen.provider ?? inUse, chosen.model) : '';
  const groups = choices?.groups.filter((g) => g.models.length > 0) ?? [];
  return (
    <span className="model-picker">
      {choices && <label htmlFor={id}>{t('modelPick.label')}</label>}
      {choices && (
        <select
          id={id}
          value={shown}
          disabled={streaming}
          title={
            choices.source === 'preset'
              ? t('modelPick.presetList', { error: say(choices.errorWords, choices.error ?? '') })
              : undefined
          }
          onChange={(e) => void choose(e.target.value)}
        >
          {groups.map((g) => (
            <optgroup
              key={g.provider}
              label={
                g.provider === inUse
                  ? t('modelPick.groupInUse', { provider: providerLabel(t, g.provider, g.label) })
                  : providerLabel(t, g.provider, g.label)
              }
            >
              {g.models.map((m) => (
                <option key={m} value={valueOf(g.provider, m)}>
                  {g.provider === inUse && m === current?.model ? t('modelPick.inUse', { model: m }) : m}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      )}
      {error && (
        <span role="alert" className="error small-text">
          <ErrorText error={error} />
        </span>
      )}
    </span>
  );
}
