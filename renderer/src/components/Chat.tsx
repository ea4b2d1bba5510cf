// The conversation: transcript (Markdown, tool cards, approval cards), the message box, Send / Stop, plan mode.
// Sending goes to the main process; the answer arrives as stream events applied by useChatStream.
import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useClient } from '../api/context';
import { failure, type Shown } from '../i18n/ErrorText';
import { SaidText } from '../i18n/SaidText';
import type { ChatMessage } from '../state/transcript';
import { heldAbove, useView } from '../state/store';
import { useModelChoice } from '../state/model-choice';
import { FOLLOW_PX, followSizes, holdSpot, scrollToSpot, spotOf, useScrollSpots } from '../state/scroll-spots';
import { MAX_MESSAGE_CHARS, type Attachment } from '../../../preload/contract';
import { addFiles, isSkillPackage, type Refusal } from '../state/attach';
import { AttachedFiles, PackageChoice, SentFiles } from './Attachments';
import { useShallow } from 'zustand/react/shallow';
import { AnswerEnd } from './AnswerEnd';
import { ApprovalCard } from './ApprovalCard';
import { CopyMessage } from './CopyMessage';
import { EditButton, EditMessage, RegenerateButton, VersionSwitch } from './MessageActions';
import { Markdown } from './Markdown';
import { ModelPicker } from './ModelPicker';
import { SaveSkillOffer } from './SaveSkill';
import { useSlashMenu } from './SlashMenu';
import { useFileMenu } from './FileMenu';
import { ToolCard } from './ToolCard';
import { useSay } from '../i18n/say';
import { ErrorLine } from './DialogFooter';
import { NoticesAt } from './Notices';

/**
 * One message. `turn`: the number of the user's message it is or answers (0: the first; -1 when there is none), what
 * Edit, Regenerate and the version switch name to the engine; `index`: its place in the list; `running`: the answer
 * of the turn still running or waiting for approval (not finished: nothing to regenerate yet).
 */
const Message = memo(function Message({
  m,
  turn,
  index,
  running,
}: {
  m: ChatMessage;
  turn: number;
  index: number;
  running: boolean;
}) {
  const { t } = useTranslation();
  const say = useSay();
  const [editing, setEditing] = useState(false);
  /** An edit was cancelled: the Edit button that opened it takes the focus back. */
  const [back, setBack] = useState(false);
  const stored = turn >= 0;
  // The tools whose call waits on an approval card of this answer: that card shows the input, the tool card does not.
  const asking = new Set(m.parts.flatMap((p) => (p.kind === 'approval' && !p.answered ? [p.request.tool] : [])));
  const bar = (
    <div className="message-bar">
      <CopyMessage m={m} />
      {stored && m.role === 'user' && !editing && <EditButton focus={back} onEdit={() => setEditing(true)} />}
      {/* An answer that failed with nothing in it offers Retry under its end: one way to ask again, not two. */}
      {stored && m.role === 'assistant' && !running && !(m.retry && m.parts.length === 0) && (
        <RegenerateButton turn={turn} />
      )}
      {stored && m.versions && m.versions.count > 1 && (
        <VersionSwitch turn={turn} which={m.role === 'user' ? 'message' : 'answer'} versions={m.versions} />
      )}
    </div>
  );
  return (
    <article className={`message ${m.role}`} aria-label={m.role === 'user' ? t('chat.you') : t('chat.assistant')}>
      {m.files && m.files.length > 0 && <SentFiles files={m.files} />}
      {editing && (
        <EditMessage
          m={m}
          turn={turn}
          index={index}
          onClose={(sent) => {
            setEditing(false);
            setBack(!sent);
          }}
        />
      )}
      {m.parts.map((p, i) => {
        if (p.kind === 'text')
          return m.role === 'user' ? (
            editing ? null : (
              <p key={i} className="user-text">
                {p.text}
              </p>
            )
          ) : (
            <Markdown key={i} text={p.text} />
          );
        if (p.kind === 'tool') return <ToolCard key={p.card.callId} card={p.card} asked={asking.has(p.card.tool)} />;
        if (p.kind === 'skill')
          return (
            <p key={i} className="skill-note small-text">
              {t('chat.skillLoaded', { name: p.name, reason: say(p.words, p.reason) })}
            </p>
          );
        if (p.kind === 'notice')
          return (
            <p key={i} className={`notice ${p.level}`} role={p.level === 'error' ? 'alert' : undefined}>
              <SaidText words={p.words} fallback={p.text} />
              {p.words?.code === 'noticeSkillOffer' && <SaveSkillOffer />}
            </p>
          );
        return <ApprovalCard key={p.request.approvalId} request={p.request} answered={p.answered} />;
      })}
      {m.role === 'user' && bar}
      {m.stopped && <p className="muted">{t('chat.stopped')}</p>}
      {m.end ? (
        <AnswerEnd m={m} />
      ) : (
        m.error && (
          <p role="alert" className="error">
            {m.error}
          </p>
        )
      )}
      {/* An answer's actions come last, under how it ended: never between the question and an error. */}
      {m.role === 'assistant' && bar}
    </article>
  );
});

/** Each message with the number of the user's message it is or answers (-1 before the first). */
function turnsOf(messages: ChatMessage[]): [ChatMessage, number][] {
  let turn = -1;
  return messages.map((m) => {
    if (m.role === 'user') turn++;
    return [m, turn];
  });
}

/**
 * A running turn's line: "Answering…", "Retrying (2 of 3)…" while the provider's SDK sends the request again, or
 * "Waiting for your approval above." while an approval card of its answer is not answered (nothing is answered then).
 */
function TurnStatus() {
  const { t } = useTranslation();
  const say = useSay();
  const at = useView((s) => s.retryingAt);
  const asking = useView((s) => {
    const last = s.messages[s.messages.length - 1];
    return last?.role === 'assistant' && last.parts.some((p) => p.kind === 'approval' && !p.answered);
  });
  return (
    <p className="muted" role="status">
      {asking
        ? t('chat.waitingApproval')
        : at
          ? say({ code: 'turnRetrying', params: { attempt: at.attempt, of: at.of } })
          : t('chat.thinking')}
    </p>
  );
}

export function Chat() {
  const { t } = useTranslation();
  const client = useClient();
  // Only what this component shows: a streamed delta must not re-render the rest of the window.
  const { messages, streaming, planMode, sessionId, workspace } = useView(
    useShallow((s) => ({
      messages: s.messages,
      streaming: s.streaming,
      planMode: s.planMode,
      sessionId: s.sessionId,
      workspace: s.workspace,
    })),
  );
  const set = useView((s) => s.set);
  const [text, setText] = useState('');
  const slash = useSlashMenu(text, setText);
  const [error, setError] = useState<Shown>();
  const [files, setFiles] = useState<Attachment[]>([]);
  const [refused, setRefused] = useState<Refusal[]>([]);
  const noImages = useModelChoice((s) => s.noImages);
  const [dragging, setDragging] = useState(false);
  /** A skill package (.zip) or folder dropped on the chat: offered to the skill installer, if the user wants. */
  const [pkg, setPkg] = useState<{ name: string; file?: File }>();
  const logRef = useRef<HTMLDivElement | null>(null);
  const boxRef = useRef<HTMLTextAreaElement>(null);
  const mention = useFileMenu(text, setText, boxRef);
  const pickRef = useRef<HTMLInputElement>(null);
  const stick = useRef(true);

  /** Attach files (picked, pasted or dropped); a skill package among them is offered to the installer instead. */
  async function attach(list: File[], folders: string[] = []) {
    const packages = list.filter(isSkillPackage);
    if (folders[0]) setPkg({ name: folders[0] });
    else if (packages[0]) setPkg({ name: packages[0].name, file: packages[0] });
    const rest = list.filter((f) => !isSkillPackage(f));
    if (!rest.length) return;
    const r = await addFiles(files, rest);
    setFiles(r.files);
    setRefused(r.refused);
  }

  function onDrop(e: DragEvent) {
    if (!e.dataTransfer.types.includes('Files')) return;
    // Handled here, not by the window's drop (which opens the installer for a .zip): the chat offers that as a choice.
    e.preventDefault();
    e.stopPropagation();
    setDragging(false);
    const folders: string[] = [];
    const list: File[] = [];
    const items = [...e.dataTransfer.items];
    [...e.dataTransfer.files].forEach((f, i) => {
      if (items[i]?.webkitGetAsEntry?.()?.isDirectory) folders.push(f.name);
      else list.push(f);
    });
    void attach(list, folders);
  }

  // Ctrl+L (from any view): the box takes the focus once the chat is on screen.
  const focusTick = useView((s) => s.composerFocus);
  useEffect(() => {
    if (focusTick) boxRef.current?.focus();
  }, [focusTick]);

  // A message handed back (its turn failed before it was stored) goes back into the input box, above anything typed since.
  // Files dropped on the window outside the chat: attached as if dropped here.
  const dropped = useView((s) => s.dropped);
  useEffect(() => {
    if (!dropped) return;
    set({ dropped: undefined });
    void attach(dropped, []);
  }, [dropped, set]);
  const draft = useView((s) => s.draft);
  useEffect(() => {
    if (draft === undefined) return;
    setText((now) => heldAbove(draft, now));
    set({ draft: undefined });
  }, [draft, set]);

  // A conversation coming on screen (opened, restored after a reload, or the chat shown again) opens where the user
  // was in it; from then on the transcript follows the answer while the user is at the bottom. Before paint, so the
  // first frame is already there and no scroll event records a spot half way.
  const placed = useRef<string>(undefined);
  const holding = useRef<() => void>(undefined);
  useLayoutEffect(() => {
    const el = logRef.current;
    if (!el) return;
    if (sessionId && placed.current !== sessionId && messages.length) {
      placed.current = sessionId;
      holding.current?.();
      const spot = useScrollSpots.getState().spots[sessionId];
      stick.current = !spot || spot.follow || !scrollToSpot(el, spot);
      if (spot && !stick.current) holding.current = holdSpot(el, spot);
    }
    if (stick.current) el.scrollTop = el.scrollHeight;
  }, [messages, sessionId]);
  useEffect(() => () => holding.current?.(), []);
  // A block laid out at its real height only as it comes into view (`content-visibility: auto`) grows the transcript
  // after the scroll above: while following, the bottom stays in view as the messages change size. Set up when the
  // transcript element appears (a callback ref: it may come after the chat's first render) and ended when it goes.
  const transcriptRef = useCallback((el: HTMLDivElement | null) => {
    logRef.current = el;
    if (!el) return;
    const end = followSizes(el, () => stick.current);
    return () => {
      end();
      logRef.current = null;
    };
  }, []);

  async function send(e?: FormEvent) {
    e?.preventDefault();
    const body = text.trim();
    if (!body || streaming || !workspace) return;
    if (body.length > MAX_MESSAGE_CHARS) {
      // Said before sending, in plain words: how big it is and the limit (the text stays in the box).
      setError(t('chat.tooLong', { size: body.length.toLocaleString(), limit: MAX_MESSAGE_CHARS.toLocaleString() }));
      return;
    }
    setError(undefined);
    setText('');
    // Sent: the transcript goes to the bottom and follows the answer, wherever the user had scrolled to (a restored
    // spot still being held lets go).
    holding.current?.();
    stick.current = true;
    const sending = files;
    setFiles([]);
    setRefused([]);
    const localId = `local-${Date.now()}`;
    const view = useView.getState();
    view.addUserMessage(
      localId,
      body,
      sending.map((f) => ({ kind: f.kind, name: f.name, mime: f.mime, size: f.size })),
    );
    const epoch = view.beginSend();
    try {
      // A model picked for a conversation not started yet goes with its first message.
      const model = sessionId ? undefined : useModelChoice.getState().pending;
      const r = await client.call('chat.send', {
        ...(sessionId ? { sessionId } : {}),
        text: body,
        planMode,
        ...model,
        ...(sending.length ? { attachments: sending } : {}),
      });
      useView.getState().began(r.sessionId, r.turnId);
      useView.getState().sent(epoch, sessionId, r.sessionId, workspace.path);
    } catch (err) {
      // Not sent: the message leaves the transcript and goes back into the input box of its conversation, above
      // anything typed since. The user may have gone to another conversation or folder meanwhile (this box may be gone
      // with it): then it waits for that conversation, kept with its folder, and a notice says so.
      const view = useView.getState();
      view.sendFailed(sessionId);
      if (view.giveBack(workspace.path, sessionId, epoch, body)) {
        // The files go back with the words (a refused image, say: the error names the model).
        setFiles((now) => [...sending, ...now]);
        view.dropMessage(localId);
        set({ streaming: false });
        setError(failure(err));
      }
    }
  }

  async function togglePlan() {
    const on = !planMode;
    set({ planMode: on });
    if (!sessionId) return;
    try {
      await client.call('chat.setPlanMode', { sessionId, on });
    } catch (err) {
      set({ planMode: !on });
      setError(failure(err));
    }
  }

  async function stop() {
    if (!sessionId) return;
    try {
      await client.call('chat.stop', { sessionId });
    } catch (err) {
      setError(failure(err));
    }
  }

  return (
    <section
      className={`chat${dragging ? ' dragging' : ''}`}
      aria-label={t('chat.title')}
      onDragOver={(e) => {
        if (!e.dataTransfer.types.includes('Files')) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={onDrop}
    >
      <div className="chat-toolbar">
        <button
          type="button"
          role="switch"
          aria-checked={planMode}
          className="switch-labelled"
          onClick={() => void togglePlan()}
        >
          <span className="switch" aria-hidden="true">
            <span className="knob" />
          </span>{' '}
          {t('chat.planMode')}
        </button>
        <ModelPicker />
        <button type="button" className="small" onClick={() => useView.getState().newChat()}>
          {t('chat.new')}
        </button>
      </div>
      <div
        ref={transcriptRef}
        className="transcript"
        role="log"
        aria-label={t('chat.transcript')}
        onScroll={(e) => {
          const el = e.currentTarget;
          stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_PX;
          const id = useView.getState().sessionId;
          if (id && placed.current === id) useScrollSpots.getState().keep(id, spotOf(el));
        }}
      >
        {messages.length === 0 && <p className="muted empty">{t('chat.empty')}</p>}
        {turnsOf(messages).map(([m, turn], i) => (
          <Message
            key={m.id}
            m={m}
            turn={turn}
            index={i}
            running={streaming && i === messages.length - 1 && m.role === 'assistant'}
          />
        ))}
        {streaming && <TurnStatus />}
      </div>
      <ErrorLine error={error} />
      {pkg && (
        <PackageChoice
          name={pkg.name}
          folder={!pkg.file}
          onInstall={() => {
            set(pkg.file ? { installOpen: true, installFile: pkg.file } : { installOpen: true });
            setPkg(undefined);
          }}
          onDismiss={() => setPkg(undefined)}
        />
      )}
      <AttachedFiles
        files={files}
        noImages={noImages}
        refused={refused}
        onRemove={(i) => {
          setFiles((now) => now.filter((_, j) => j !== i));
          if (files.length === 1) boxRef.current?.focus(); // the last file: its list goes with the focus
        }}
        onDismiss={() => {
          setRefused([]);
          boxRef.current?.focus();
        }}
      />
      {dragging && (
        <p className="drop-hint" aria-hidden="true">
          {t('chat.attach.drop')}
        </p>
      )}
      <NoticesAt place="chat" />
      <form className="composer" onSubmit={(e) => void send(e)}>
        <input
          ref={pickRef}
          type="file"
          multiple
          hidden
          tabIndex={-1}
          aria-hidden="true"
          onChange={(e) => {
            const list = [...(e.currentTarget.files ?? [])];
            e.currentTarget.value = '';
            void attach(list);
          }}
        />
        <button
          type="button"
          className="small attach"
          aria-label={t('chat.attach.button')}
          title={t('chat.attach.button')}
          onClick={() => pickRef.current?.click()}
        >
          {/* A paperclip drawn inline: an emoji needs a font the system may not have. */}
          <svg
            aria-hidden="true"
            width="16"
            height="16"
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            <path d="M21 11.5l-8.6 8.6a5.5 5.5 0 0 1-7.8-7.8l8.6-8.6a3.7 3.7 0 0 1 5.2 5.2l-8.6 8.6a1.8 1.8 0 0 1-2.6-2.6l7.9-7.9" />
          </svg>
        </button>
        {slash.menu}
        {mention.menu}
        <textarea
          ref={boxRef}
          {...slash.aria}
          {...mention.aria}
          aria-label={t('chat.message')}
          placeholder={t('chat.placeholder')}
          value={text}
          rows={3}
          onChange={(e) => {
            setText(e.target.value);
            mention.onSelect();
          }}
          onSelect={mention.onSelect}
          onPaste={(e) => {
            const pasted = [...e.clipboardData.files];
            if (!pasted.length) return;
            e.preventDefault();
            void attach(pasted);
          }}
          onKeyDown={(e) => {
            if (slash.onKeyDown(e) || mention.onKeyDown(e)) return;
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void send();
            }
          }}
        />
        {streaming ? (
          <button type="button" className="danger" onClick={() => void stop()}>
            {t('chat.stop')}
          </button>
        ) : (
          <button type="submit" className="primary" disabled={!text.trim()}>
            {t('chat.send')}
          </button>
        )}
      </form>
    </section>
  );
}
