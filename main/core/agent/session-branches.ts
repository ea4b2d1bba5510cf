// A conversation's branches: the user's messages by turn, their versions (edits of a message, regenerated answers),
// and the forks and switches that make a new branch current. The session replays the branch it lands on.
import { Refusal, say, type Said } from '../base/index.js';
import type { Store } from '../store/index.js';
import type { Attachment } from './attachments.js';
import type { AgentEvent } from './types.js';

/** A user's message on the current branch and where its answer starts (undefined: not answered yet). */
export interface Turn {
  user: AgentEvent;
  answerAt: number | undefined;
}

export interface Versions {
  turn: number;
  message?: { index: number; count: number };
  answer?: { index: number; count: number };
}

/** The events that start an answer to a user's message (where Regenerate forks). */
const ANSWER_STARTS = new Set(['assistant_start', 'context', 'compaction']);

export class Branches {
  constructor(
    private readonly store: Store,
    private readonly id: string,
    private readonly events: () => AgentEvent[],
  ) {}

  /** The user's messages on the current branch, in order (what a `turn` number counts), with the events after each. */
  turns(): Turn[] {
    const out: Turn[] = [];
    for (const e of this.events()) {
      if (e.type === 'user_message') out.push({ user: e, answerAt: undefined });
      else if (out.length && out.at(-1)!.answerAt === undefined && ANSWER_STARTS.has(e.type))
        out.at(-1)!.answerAt = e.seq;
    }
    return out;
  }

  /** Where each of the user's messages has versions; only the points with more than one version are listed. */
  versions(): Versions[] {
    const out: Versions[] = [];
    const s = this.store.sessions;
    if (s.branches(this.id).length === 0) return out;
    this.turns().forEach((t, turn) => {
      const m = s.forkGroup(this.id, t.user.seq);
      const a = t.answerAt !== undefined ? s.forkGroup(this.id, t.answerAt) : undefined;
      const v: Versions = { turn };
      if (m.members.length > 1) v.message = { index: m.index, count: m.members.length };
      if (a && a.members.length > 1) v.answer = { index: a.index, count: a.members.length };
      if (v.message || v.answer) out.push(v);
    });
    return out;
  }

  turnAt(turn: number): Turn {
    const t = this.turns()[turn];
    if (!t) throw new Refusal(say('branch.noMessage', { n: turn + 1 }));
    return t;
  }

  /**
   * The files an edit of message `turn` (`t`) sends: the edited message's files at the indexes in `keep` (all when it
   * is absent), then `files`. Throws, with nothing changed, for an index the message does not have.
   */
  editFiles(t: Turn, turn: number, files: readonly Attachment[], keep?: readonly number[]): Attachment[] {
    const had = t.user.type === 'user_message' ? (t.user.attachments ?? []) : [];
    const bad = keep?.find((i) => i >= had.length);
    if (bad !== undefined)
      throw new Refusal(say('branch.noFileToKeep', { n: turn + 1, file: bad + 1, count: had.length }));
    return [...had.filter((_, i) => !keep || keep.includes(i)), ...files];
  }

  /** Make version `index` (0-based) of the user's message `turn`, or of its answer, the current branch. */
  switchTo(turn: number, which: 'message' | 'answer', index: number): void {
    const t = this.turnAt(turn);
    const at = which === 'message' ? t.user.seq : t.answerAt;
    if (at === undefined) throw new Refusal(say('branch.noAnswer', { n: turn + 1 }));
    this.store.sessions.switchTo(this.id, this.store.sessions.forkGroup(this.id, at), index);
  }

  /**
   * Put the conversation on a branch holding event `seq` (a search hit): true when that changed the branch. Throws,
   * with nothing changed, for an event the conversation does not have, or (`cannot`) when it cannot change branch now.
   */
  show(seq: number, cannot: Said | undefined): boolean {
    const s = this.store.sessions;
    const branch = s.branchHolding(this.id, seq);
    if (branch === s.currentBranch(this.id)) return false;
    if (cannot) throw new Refusal(cannot);
    s.useBranch(this.id, branch);
    return true;
  }

  /** A new branch from just before event `seq` (a user's message to edit, or the start of an answer to regenerate). */
  forkAt(seq: number): void {
    const g = this.store.sessions.forkGroup(this.id, seq);
    this.store.sessions.fork(this.id, g.parent, g.forkSeq);
  }
}
