// Edit on your messages, Regenerate on answers, and the "‹ 1/2 ›" switch between the versions they make. Each
// branches the conversation in the engine (chat.send with edit, chat.regenerate, chat.switchVersion); an edit while
// an answer streams asks first, and stops it.
import { useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useClient } from '../api/context';
import { failure } from '../i18n/ErrorText';
import type { KnackClient } from '../api/client';
import { opened, toMessages, type ChatMessage } from '../state/transcript';
import { useView } from '../state/store';
import { SentFiles } from './Attachments';

/** The conversation as the engine has it now (after a failed branch: the view goes back to what is stored). */
async function reload(client: KnackClient, sessionId: string): Promise<void> {
  try {
    const o = opened(await client.call('sessions.open', { id: sessionId }));
    if (useView.getState().sessionId === sessionId) useView.getState().showSession(sessionId, o.messages, o.running);
  } catch {
    // The notice below says what failed; the conversation stays as shown.
  }
}

/** The message box takes the focus (the control pressed is gone or disabled until the answer ends). */
function focusMessageBox(): void {
  useView.setState((s) => ({ composerFocus: s.composerFocus + 1 }));
}

/** An error notice; Retry makes the same call again. */
function failed(e: unknown, retry: () => void): void {
  useView.getState().notify({ kind: 'error', text: failure(e), retry });
}

/**
 * Send `text` as a new version of the user's message number `turn` (at `index` in the list): it branches there. The
 * message's files at the indexes in `keep` go with it (all of them when `keep` is absent).
 */
async function editMessage(
  client: KnackClient,
  turn: number,
  index: number,
  text: string,
  keep?: number[],
): Promise<void> {
  const view = useView.getState();
  const sessionId = view.sessionId;
  const ws = view.workspace;
  if (!sessionId || !ws || view.streaming) return;
  const old = view.messages[index];
  const n = old?.versions?.count ?? 1;
  const files = (old?.files ?? []).filter((_, i) => !keep || keep.includes(i));
  const localId = `local-${Date.now()}`;
  useView.setState({ messages: view.messages.slice(0, index) });
  view.addUserMessage(localId, text, files);
  useView.setState((s) => ({
    messages: s.messages.map((m) => (m.id === localId ? { ...m, versions: { index: n, count: n + 1 } } : m)),
  }));
  const epoch = useView.getState().beginSend();
  try {
    const r = await client.call('chat.send', {
      sessionId,
      text,
      planMode: view.planMode,
      edit: turn,
      ...(keep ? { keepFiles: keep } : {}),
    });
    useView.getState().began(r.sessionId, r.turnId);
    useView.getState().sent(epoch, sessionId, r.sessionId, ws.path);
  } catch (err) {
    useView.getState().sendFailed(sessionId);
    await reload(client, sessionId);
    failed(err, () => void editMessage(client, turn, index, text, keep));
  }
}

/** Answer the user's message number `turn` again: its answer (everything after the message) gives way to a new one. */
async function regenerate(client: KnackClient, turn: number): Promise<void> {
  const view = useView.getState();
  const sessionId = view.sessionId;
  if (!sessionId || view.streaming) return;
  let seen = -1;
  const index = view.messages.findIndex((m) => m.role === 'user' && ++seen === turn) + 1;
  if (index <= 0) return;
  const n = view.messages[index]?.versions?.count ?? 1;
  useView.setState({ messages: view.messages.slice(0, index), streaming: true });
  try {
    const r = await client.call('chat.regenerate', { sessionId, turn });
    useView.getState().began(r.sessionId, r.turnId);
    // The new answer takes the turn's id (its events may have made it already): it is version n + 1.
    const versions = { index: n, count: n + 1 };
    useView.setState((s) => ({
      messages: s.messages.some((m) => m.id === r.turnId)
        ? s.messages.map((m) => (m.id === r.turnId ? { ...m, versions } : m))
        : [...s.messages, { id: r.turnId, role: 'assistant', parts: [], versions }],
    }));
  } catch (err) {
    useView.setState({ streaming: false });
    await reload(client, sessionId);
    failed(err, () => void regenerate(client, turn));
  }
}

/**
 * The switch pressed last, while the conversation it shows is laid out again (its message may be another element
 * now): the switch of the same turn and kind takes the focus back, on the button pressed (the other one at an end).
 */
let pressed: { key: string; dir: 'previous' | 'next' } | undefined;

/** "‹ 2/3 ›": the versions of a message or of an answer; another one is shown with the conversation that follows it. */
export function VersionSwitch({
  turn,
  which,
  versions,
}: {
  turn: number;
  which: 'message' | 'answer';
  versions: { index: number; count: number };
}) {
  const { t } = useTranslation();
  const client = useClient();
  const streaming = useView((s) => s.streaming);
  const key = `${which}:${turn}`;
  const group = useRef<HTMLSpanElement>(null);
  const { index, count } = versions;
  useLayoutEffect(() => {
    if (pressed?.key !== key) return;
    const [previous, next] = [...(group.current?.querySelectorAll('button') ?? [])];
    const first = pressed.dir === 'previous' ? previous : next;
    (first && !first.disabled ? first : pressed.dir === 'previous' ? next : previous)?.focus();
    pressed = undefined;
  }, [key, index]);
  async function go(to: number) {
    const sessionId = useView.getState().sessionId;
    if (!sessionId) return;
    if (group.current?.contains(document.activeElement)) pressed = { key, dir: to < index ? 'previous' : 'next' };
    try {
      const messages = toMessages(
        (await client.call('chat.switchVersion', { sessionId, turn, which, index: to })).items,
      );
      if (useView.getState().sessionId === sessionId) useView.getState().showSession(sessionId, messages);
    } catch (err) {
      pressed = undefined;
      failed(err, () => void go(to));
    }
  }
  return (
    <span ref={group} className="version-switch" role="group" aria-label={t(`chat.versions.${which}`)}>
      <button
        type="button"
        className="small link"
        aria-label={t('chat.versions.previous')}
        disabled={streaming || index === 0}
        onClick={() => void go(index - 1)}
      >
        ‹
      </button>
      <span>{t('chat.versions.of', { index: index + 1, count })}</span>
      <button
        type="button"
        className="small link"
        aria-label={t('chat.versions.next')}
        disabled={streaming || index >= count - 1}
        onClick={() => void go(index + 1)}
      >
        ›
      </button>
    </span>
  );
}

/** Edit on your message: the text in a box to change and send again; while an answer streams, it asks to stop it first. */
export function EditMessage({
  m,
  turn,
  index,
  onClose,
}: {
  m: ChatMessage;
  turn: number;
  index: number;
  /** `sent`: the edit went to the engine (the message box takes the focus), else it was cancelled. */
  onClose: (sent: boolean) => void;
}) {
  const { t } = useTranslation();
  const client = useClient();
  const streaming = useView((s) => s.streaming);
  const box = useRef<HTMLTextAreaElement>(null);
  const original = m.parts.find((p) => p.kind === 'text')?.text ?? '';
  const [text, setText] = useState(original);
  // The indexes of the message's files that go with the edit: all of them until the user removes some.
  const [kept, setKept] = useState<number[]>(() => (m.files ?? []).map((_, i) => i));
  function save(e?: FormEvent) {
    e?.preventDefault();
    const body = text.trim();
    if (!body || streaming) return;
    onClose(true);
    focusMessageBox();
    void editMessage(client, turn, index, body, m.files?.length ? kept : undefined);
  }
  return (
    <form className="edit-message" onSubmit={save}>
      <textarea
        ref={box}
        aria-label={t('chat.edit.box')}
        value={text}
        rows={Math.min(8, Math.max(2, text.split('\n').length))}
        autoFocus
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onClose(false);
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) save(e);
        }}
      />
      {m.files && kept.length > 0 && (
        <SentFiles
          files={kept.map((i) => m.files![i]!)}
          label={t('chat.edit.files')}
          onRemove={(j) => {
            setKept(kept.filter((_, x) => x !== j));
            if (kept.length === 1) box.current?.focus(); // the last file: its list goes with the focus
          }}
        />
      )}
      <p className="edit-actions">
        <button type="submit" className="small primary" disabled={!text.trim() || streaming}>
          {t('chat.edit.send')}
        </button>{' '}
        <button type="button" className="small" onClick={() => onClose(false)}>
          {t('chat.edit.cancel')}
        </button>
      </p>
    </form>
  );
}

/** The Edit button: while an answer streams it first asks, and Stop and edit stops it. */
export function EditButton({ onEdit, focus }: { onEdit: () => void; focus?: boolean }) {
  const { t } = useTranslation();
  const client = useClient();
  const streaming = useView((s) => s.streaming);
  const [asking, setAsking] = useState(false);
  async function stopAndEdit() {
    const sessionId = useView.getState().sessionId;
    setAsking(false);
    if (sessionId)
      try {
        await client.call('chat.stop', { sessionId });
      } catch (err) {
        failed(err, () => void stopAndEdit());
        return;
      }
    onEdit();
  }
  if (asking)
    return (
      <span role="group" aria-label={t('chat.edit.askLabel')} className="edit-ask">
        <span>{t('chat.edit.ask')}</span>{' '}
        <button type="button" className="small danger" onClick={() => void stopAndEdit()}>
          {t('chat.edit.stopAndEdit')}
        </button>{' '}
        <button type="button" className="small" onClick={() => setAsking(false)}>
          {t('chat.edit.cancel')}
        </button>
      </span>
    );
  return (
    // `focus`: back from an edit the user cancelled, on the button that opened it.
    <button
      type="button"
      className="small link"
      autoFocus={focus}
      onClick={() => (streaming ? setAsking(true) : onEdit())}
    >
      {t('chat.edit.button')}
    </button>
  );
}

/** Regenerate on a finished answer (not usable while another one streams). */
export function RegenerateButton({ turn }: { turn: number }) {
  const { t } = useTranslation();
  const client = useClient();
  const streaming = useView((s) => s.streaming);
  return (
    <button
      type="button"
      className="small link"
      disabled={streaming}
      onClick={() => {
        focusMessageBox(); // this button is disabled while the new answer streams
        void regenerate(client, turn);
      }}
    >
      {t('chat.regenerate')}
    </button>
  );
}
