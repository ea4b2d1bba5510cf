// View state only (zustand): what is open, what is selected, the filter text, the chat transcript being shown.
// The main process is the source of truth; everything here is a copy refreshed from the client.
import i18n from 'i18next';
import { create } from 'zustand';
import { answerEnd, type ChatEvent, type ChatMessage, type ChatPart, type Decision } from './transcript';
import { firstProblem, type BrokenSkill, type SkillRowData } from './skills';
import type { AttachmentMeta, SandboxStatus, WorkspaceInfo } from '../../../preload/contract';
import { withNotice, withoutNotice, type Notice, type NoticeInput } from './notices';
import type { Failure, Shown } from '../i18n/ErrorText';

export type View = 'chat' | 'skill' | 'tools' | 'settings' | 'sessions' | 'context';

export interface ViewState {
  workspace?: WorkspaceInfo;
  /** The open-workspace screen is shown over the open workspace, which stays as it is until another one opens. */
  picking: boolean;
  /**
   * The setup flow (folder → provider → key and Test connection → done) is on screen: `first` on a first start with no
   * folder open, `settings` when reopened from Settings ("Set up a model"). Skipping or finishing clears it.
   */
  setup?: 'first' | 'settings';
  /** The open folder's OS sandbox as main last said (the header badge, Settings, the banner), or why it is not known. */
  sandbox?: SandboxStatus | { error: Failure };
  skills: SkillRowData[];
  /** SKILL.md files that could not be read (the sidebar's "could not be read" group). */
  broken: BrokenSkill[];
  skillsError?: Shown;
  skillsLoading: boolean;
  filter: string;
  selectedSkill?: { name: string; tier: string };
  view: View;
  installOpen: boolean;
  /** A .zip dropped on the window: the install dialog audits it as soon as it opens. */
  installFile?: File;
  /** Files dropped on the window outside the chat (not a skill package): the chat attaches them once it is on screen. */
  dropped?: File[];
  /** A source to fetch as the install dialog opens (an install the assistant proposed): the user reviews it there. */
  installSource?: { source: string; want: string[]; pick?: string };
  paletteOpen: boolean;
  shortcutsOpen: boolean;
  /** Bumped by Ctrl+L: the chat view comes up and its message box takes the focus. */
  composerFocus: number;
  /** The skill whose trust review is open (from the sidebar or the detail page): trusting is always this review. */
  trustReview?: { name: string; tier: string };
  sessionId?: string;
  messages: ChatMessage[];
  streaming: boolean;
  /** The running turn's request is being sent again by the provider's SDK: attempt n of `of` (until its words come). */
  retryingAt?: { attempt: number; of: number };
  planMode: boolean;
  /** Bumped when the loaded-skill panel and the context meter must refresh (a skill loaded, a turn ended, a model picked). */
  loadedTick: number;
  /** Bumped when the skill list must be read again (after an install, a trust …). */
  catalogTick: number;
  /** The notices waiting to be seen, newest first (notices.ts): one never replaces another. */
  notices: Notice[];
  /** Text handed back to the input box (a message that was not stored); the composer takes it once. */
  draft?: string;
  /** Which conversation is on screen: bumped by a new chat, an opened session or another workspace. */
  epoch: number;
  /** Conversations this window sent to (in serve mode every tab hears every session; only these are ours). */
  mine: string[];
  /** The turn each conversation runs or ran last, by conversation: an approval (it names no turn) joins its answer. */
  turns: Record<string, string>;
  /** First sends of new conversations still waiting for their session id. */
  awaiting: number;
  /** Events of conversations not known yet, kept while a first send waits: one of them may be its own. */
  early: ChatEvent[];
  /**
   * Messages handed back to a conversation of ours that was not on screen, by heldKey(workspace, conversation): its
   * input box takes them when it is on screen again (reopened, or its folder opened again). Typed text is never lost.
   */
  heldDrafts: Record<string, string>;
  /** The folder each conversation of ours belongs to (a message handed back after a folder switch goes home). */
  homes: Record<string, string>;

  set(p: Partial<ViewState>): void;
  /** Adds a notice to the queue (the same one again raises its count). */
  notify(n: NoticeInput): void;
  dismissNotice(id: number): void;
  setWorkspace(w: WorkspaceInfo | undefined): void;
  /**
   * A fresh list. A skill shown before whose SKILL.md is now among `broken` (edited into a state that does not parse)
   * keeps its row, off and marked broken with the error, until it reads again.
   */
  setSkills(s: SkillRowData[], broken?: BrokenSkill[]): void;
  patchSkill(name: string, tier: string, p: Partial<SkillRowData>): void;
  /** Replace one row (same name and tier); false when the list has no such row. */
  replaceSkill(s: SkillRowData): boolean;
  addUserMessage(id: string, text: string, files?: AttachmentMeta[]): void;
  /** Takes back a message shown before it was sent (sending failed: it goes back into the input box). */
  dropMessage(id: string): void;
  applyChat(events: ChatEvent[]): void;
  markApproval(approvalId: string, d: Decision): void;
  /** Retry was asked for this answer: it no longer offers it, and the new answer streams after it. */
  retrying(messageId: string): void;
  newChat(): void;
  /** Before a send: the conversation on screen (its epoch) becomes ours; a new one's first send is counted as waiting. */
  beginSend(): number;
  /**
   * After a send: the engine named the conversation (of the folder `workspace`, open when it was sent). It is shown if
   * the user is still on it; its early events apply.
   */
  sent(epoch: number, sessionId: string | undefined, newSessionId: string, workspace?: string): void;
  /** A turn started (chat.send, .regenerate, .retry answered with its id): its events and approvals join one answer. */
  began(sessionId: string, turnId: string): void;
  /** A send failed (nothing reached the engine). */
  sendFailed(sessionId: string | undefined): void;
  /**
   * A message that was not sent goes back to the input box of the conversation it was written in (folder, conversation,
   * epoch at sending): now if that conversation is on screen (true), else kept for it with a notice (false).
   */
  giveBack(workspace: string, sessionId: string | undefined, epoch: number, text: string): boolean;
  /** Shows a stored conversation (`running`: its turn goes on), with any message handed back to it while it was not on screen. */
  showSession(id: string, messages: ChatMessage[], running?: boolean): void;
}

function withLastAssistant(messages: ChatMessage[], id: string): [ChatMessage[], ChatMessage] {
  const i = messages.findIndex((m) => m.id === id);
  if (i >= 0) {
    const copy = messages.slice();
    const m = { ...messages[i]!, parts: messages[i]!.parts.slice() };
    copy[i] = m;
    return [copy, m];
  }
  const m: ChatMessage = { id, role: 'assistant', parts: [] };
  return [[...messages, m], m];
}

function addText(parts: ChatPart[], text: string): void {
  const last = parts[parts.length - 1];
  if (last && last.kind === 'text') parts[parts.length - 1] = { kind: 'text', text: last.text + text };
  else parts.push({ kind: 'text', text });
}

/** Where a handed-back message waits: its folder and its conversation (none: the folder's new chat). */
/** How many settings problems the folder has (the header's badge; each is listed on the Settings page). */
export function settingsProblems(w: WorkspaceInfo): number {
  return w.diagnostics.filter((d) => d.code.startsWith('settings.') && d.severity !== 'info').length;
}

export function heldKey(workspace: string, sessionId?: string): string {
  return `${workspace}\n${sessionId ?? ''}`;
}

/**
 * Text handed back, above what came after it (a later message, or what is in the box), a blank line between: the one
 * way a held message joins other text, so nothing is lost and a blank box adds nothing.
 */
export function heldAbove(held: string | undefined, below: string | undefined): string {
  if (!below?.trim()) return held ?? below ?? '';
  if (!held?.trim()) return below;
  return `${held}\n\n${below}`;
}

/** A conversation of `workspace` with a message waiting for it (the window reopens it when the folder is back). */
export function heldConversation(held: Record<string, string>, workspace: string): string | undefined {
  const prefix = heldKey(workspace);
  for (const k of Object.keys(held))
    if (k.startsWith(prefix) && k.length > prefix.length) return k.slice(prefix.length);
  return undefined;
}

/**
 * Another conversation comes on screen (`key`: its folder and conversation). A message handed back to the one leaving
 * that its input box has not taken yet (the chat was not shown) stays with it; the one coming takes what waits for it.
 */
function switchHeld(s: ViewState, key: string | undefined): Partial<ViewState> {
  let heldDrafts = s.heldDrafts;
  if (s.draft !== undefined && s.workspace) {
    const from = heldKey(s.workspace.path, s.sessionId);
    heldDrafts = { ...heldDrafts, [from]: heldAbove(heldDrafts[from], s.draft) };
  }
  const text = key === undefined ? undefined : heldDrafts[key];
  if (text === undefined) return heldDrafts === s.heldDrafts ? {} : { heldDrafts, draft: undefined };
  const { [key!]: _taken, ...rest } = heldDrafts;
  return { heldDrafts: rest, draft: text };
}

function folderName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path;
}

export const useView = create<ViewState>((set, get) => ({
  skills: [],
  broken: [],
  skillsLoading: false,
  filter: '',
  view: 'chat',
  installOpen: false,
  paletteOpen: false,
  shortcutsOpen: false,
  composerFocus: 0,
  messages: [],
  streaming: false,
  planMode: false,
  loadedTick: 0,
  catalogTick: 0,
  epoch: 0,
  mine: [],
  turns: {},
  awaiting: 0,
  early: [],
  heldDrafts: {},
  homes: {},
  notices: [],

  picking: false,

  set: (p) => set(p),
  notify: (n) => set({ notices: withNotice(get().notices, n) }),
  dismissNotice: (id) => set({ notices: withoutNotice(get().notices, id) }),
  setWorkspace: (w) =>
    set({
      workspace: w,
      picking: false,
      sandbox: undefined,
      skills: [],
      broken: [],
      selectedSkill: undefined,
      messages: [],
      sessionId: undefined,
      // Another folder's turn (running, or a send still on its way) is not this chat's: nothing here is being answered.
      streaming: false,
      retryingAt: undefined,
      view: 'chat',
      epoch: get().epoch + 1,
      // Back in a folder: what was written in its new chat and could not be sent is in the box again.
      ...switchHeld(get(), w ? heldKey(w.path) : undefined),
    }),
  setSkills: (fresh, broken = []) => {
    const byDir = new Map(broken.map((b) => [b.dir, b]));
    const have = new Set(fresh.map((s) => `${s.tier}\n${s.name}`));
    const kept = get()
      .skills.filter((s) => byDir.has(s.dir) && !have.has(`${s.tier}\n${s.name}`))
      .map((s): SkillRowData => {
        const b = byDir.get(s.dir)!;
        // Off, no longer checking nor waiting for trust: what it is now is the error.
        const status = s.audit.status === 'blocked' ? 'blocked' : 'clean';
        const broken = firstProblem(b) ?? { severity: 'error' as const, code: 'broken', file: b.file, message: '' };
        return { ...s, enabled: false, audit: { ...s.audit, status }, broken };
      });
    set({ skills: kept.length ? [...fresh, ...kept] : fresh, broken, skillsError: undefined, skillsLoading: false });
  },
  replaceSkill: (item) => {
    const skills = get().skills;
    const i = skills.findIndex((s) => s.name === item.name && s.tier === item.tier);
    if (i < 0) return false;
    const next = skills.slice();
    next[i] = item;
    set({ skills: next });
    return true;
  },
  patchSkill: (name, tier, p) =>
    set({ skills: get().skills.map((s) => (s.name === name && s.tier === tier ? { ...s, ...p } : s)) }),
  addUserMessage: (id, text, files) =>
    set({
      messages: [
        ...get().messages,
        { id, role: 'user', parts: [{ kind: 'text', text }], ...(files?.length ? { files } : {}) },
      ],
      streaming: true,
    }),
  dropMessage: (id) => set({ messages: get().messages.filter((m) => m.id !== id) }),
  newChat: () => {
    const s = get();
    set({
      messages: [],
      sessionId: undefined,
      streaming: false,
      retryingAt: undefined,
      view: 'chat',
      loadedTick: s.loadedTick + 1,
      epoch: s.epoch + 1,
      ...switchHeld(s, s.workspace ? heldKey(s.workspace.path) : undefined),
    });
  },
  beginSend: () => {
    const s = get();
    if (!s.sessionId) set({ awaiting: s.awaiting + 1 });
    else if (!s.mine.includes(s.sessionId))
      set({
        mine: [...s.mine, s.sessionId],
        ...(s.workspace ? { homes: { ...s.homes, [s.sessionId]: s.workspace.path } } : {}),
      });
    return s.epoch;
  },
  sent: (epoch, sessionId, id, workspace) => {
    const s = get();
    const awaiting = sessionId ? s.awaiting : Math.max(0, s.awaiting - 1);
    const own = s.early.filter((e) => e.sessionId === id);
    const home = workspace ?? s.homes[id] ?? s.workspace?.path;
    set({
      mine: s.mine.includes(id) ? s.mine : [...s.mine, id],
      ...(home && s.homes[id] !== home ? { homes: { ...s.homes, [id]: home } } : {}),
      awaiting,
      early: awaiting ? s.early.filter((e) => e.sessionId !== id) : [],
      ...(!sessionId && s.epoch === epoch && !s.sessionId ? { sessionId: id } : {}),
    });
    if (own.length) get().applyChat(own);
  },
  began: (sessionId, turnId) => set({ turns: { ...get().turns, [sessionId]: turnId } }),
  sendFailed: (sessionId) => {
    if (sessionId) return;
    const awaiting = Math.max(0, get().awaiting - 1);
    set({ awaiting, ...(awaiting ? {} : { early: [] }) });
  },
  giveBack: (workspace, sessionId, epoch, text) => {
    const s = get();
    // On screen: the same chat as at sending, or the same stored conversation opened again meanwhile.
    if (
      s.workspace?.path === workspace &&
      (s.epoch === epoch || (sessionId !== undefined && s.sessionId === sessionId))
    ) {
      set({ draft: heldAbove(text, s.draft) });
      return true;
    }
    const key = heldKey(workspace, sessionId);
    const elsewhere = s.workspace?.path !== workspace;
    set({
      heldDrafts: { ...s.heldDrafts, [key]: heldAbove(s.heldDrafts[key], text) },
      notices: withNotice(s.notices, {
        kind: 'error',
        text: () =>
          elsewhere ? i18n.t('chat.heldInFolder', { name: folderName(workspace) }) : i18n.t('chat.heldBack'),
      }),
    });
    return false;
  },
  showSession: (id, messages, running = false) => {
    const s = get();
    set({
      sessionId: id,
      messages,
      streaming: running,
      // A running turn's reply carries the turn's id (transcript.ts withOpenTurn).
      ...(running && messages.length ? { turns: { ...s.turns, [id]: messages[messages.length - 1]!.id } } : {}),
      retryingAt: undefined,
      view: 'chat',
      loadedTick: s.loadedTick + 1,
      epoch: s.epoch + 1,
      ...switchHeld(s, s.workspace ? heldKey(s.workspace.path, id) : undefined),
    });
  },
  retrying: (messageId) =>
    set({
      streaming: true,
      messages: get().messages.map((m) => (m.id === messageId ? { ...m, retry: false } : m)),
    }),
  markApproval: (approvalId, d) =>
    set({
      messages: get().messages.map((m) => ({
        ...m,
        parts: m.parts.map((p) =>
          p.kind === 'approval' && p.request.approvalId === approvalId ? { ...p, answered: d } : p,
        ),
      })),
    }),
  /** Applies a batch of stream events (batched per animation frame by the caller). */
  applyChat: (events) => {
    const s = get();
    let messages = s.messages;
    let streaming = s.streaming;
    let retryingAt = s.retryingAt;
    let loadedTick = s.loadedTick;
    let draft: string | undefined;
    let early = s.early;
    let heldDrafts = s.heldDrafts;
    let notices = s.notices;
    let turns = s.turns;
    for (const e of events) {
      if ('turnId' in e && e.name !== 'chat.turnEnd' && turns[e.sessionId] !== e.turnId)
        turns = { ...turns, [e.sessionId]: e.turnId };
      if (e.sessionId !== s.sessionId) {
        // Not the conversation on screen. While a new conversation's first send waits for its id, an unknown
        // conversation's events may be its own: kept until the id arrives. A message handed back to a conversation of
        // ours waits for it to be reopened, and one of ours that asks for an approval says so. Anything else belongs
        // to another tab (serve mode: every tab hears every session) or to a conversation the user left, and is not
        // shown here.
        if (s.awaiting && !s.mine.includes(e.sessionId)) {
          if (early === s.early) early = early.slice();
          early.push(e);
        } else if (e.name === 'chat.approval' && s.mine.includes(e.sessionId))
          notices = withNotice(notices, { kind: 'info', text: () => i18n.t('chat.waitingElsewhere') });
        else if (e.name === 'chat.turnEnd' && e.unsent !== undefined && s.mine.includes(e.sessionId)) {
          // Kept with its folder and conversation: after a folder switch it waits for the user to come back.
          const home = s.homes[e.sessionId] ?? s.workspace?.path ?? '';
          const key = heldKey(home, e.sessionId);
          heldDrafts = { ...heldDrafts, [key]: heldAbove(heldDrafts[key], e.unsent) };
          notices = withNotice(notices, {
            kind: 'error',
            text: () =>
              home !== s.workspace?.path
                ? i18n.t('chat.heldInFolder', { name: folderName(home) })
                : i18n.t('chat.heldBack'),
          });
        }
        continue;
      }
      if (e.name === 'context.changed') {
        loadedTick++;
        continue;
      }
      // The model's thinking is not shown.
      if (e.name === 'chat.delta' && e.kind !== 'text') continue;
      if (e.name === 'chat.notice') {
        const last = messages[messages.length - 1];
        const [next, m] = withLastAssistant(
          messages,
          last && last.role === 'assistant' ? last.id : `notice-${messages.length}`,
        );
        messages = next;
        m.parts.push({ kind: 'notice', level: e.level, text: e.text, ...(e.words ? { words: e.words } : {}) });
        continue;
      }
      if (e.name === 'chat.retrying') {
        retryingAt = { attempt: e.attempt, of: e.of };
        continue;
      }
      // Anything else of the turn: its request got through (or the turn ended).
      retryingAt = undefined;
      const [next, m] = withLastAssistant(
        messages,
        e.name === 'chat.approval' ? (turns[e.sessionId] ?? e.approvalId) : e.turnId,
      );
      messages = next;
      if (e.name === 'chat.delta') addText(m.parts, e.text);
      else if (e.name === 'chat.toolCall') {
        const i = m.parts.findIndex((p) => p.kind === 'tool' && p.card.callId === e.card.callId);
        if (i >= 0) m.parts[i] = { kind: 'tool', card: e.card };
        else m.parts.push({ kind: 'tool', card: e.card });
      } else if (e.name === 'chat.approval') {
        const { name: _event, ...request } = e;
        m.parts.push({ kind: 'approval', request });
      } else if (e.name === 'chat.skillLoaded') {
        loadedTick++;
        m.parts.push({ kind: 'skill', name: e.skill, reason: e.reason, ...(e.words ? { words: e.words } : {}) });
      } else {
        streaming = false;
        Object.assign(
          m,
          answerEnd(e.reason, e.error?.message, e.retryable, e.error?.words),
          e.error ? { error: e.error.message } : {},
        );
        loadedTick++;
        if (e.unsent !== undefined) {
          // Not stored, so not in the conversation: the message leaves the transcript and goes back to the input box.
          const i = messages.findLastIndex(
            (x) => x.role === 'user' && x.parts.some((p) => p.kind === 'text' && p.text === e.unsent),
          );
          if (i >= 0) messages = messages.filter((_, j) => j !== i);
          draft = e.unsent;
        }
      }
    }
    set({
      messages,
      streaming,
      retryingAt,
      loadedTick,
      turns,
      early,
      heldDrafts,
      notices,
      ...(draft !== undefined ? { draft } : {}),
    });
  },
}));
