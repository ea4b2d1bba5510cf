// The renderer's one door to the main process: every screen calls these methods and nothing else.
// The shipped app builds it from the typed contract (Electron bridge or serve-mode WebSocket); tests inject their own.
import type { ChatEvent, ChatMessage, Decision } from './types';
import type { Attachment, ModelChoices } from '../../../preload/contract';
import type { KnackClient as ContractClient } from '../../../preload/client';

/** A model picked in the chat header: its id and, when it is not of the provider in use, the provider it is of. */
export interface ModelPick {
  model: string;
  provider?: string;
}

export interface KnackClient extends Pick<ContractClient, 'call' | 'on'> {
  /** 'electron' offers native dialogs; 'serve' uses path fields. */
  readonly mode: 'electron' | 'serve';
  /** The desktop's native pickers (dialog.* calls) are there; serve mode types paths instead. */
  readonly nativeDialogs: boolean;

  sendMessage(
    workspace: string,
    sessionId: string | undefined,
    text: string,
    planMode: boolean,
    /** The model picked for a new conversation (of another configured provider when it names one). */
    model?: ModelPick,
    /** Files sent with the message (state/attach.ts read them). */
    attachments?: Attachment[],
    /** The message replaces the user's message number `edit` (0: the first): the conversation branches there. */
    edit?: number,
    /** With `edit`: which of the edited message's files go with it (indexes; absent: all of them). */
    keepFiles?: number[],
  ): Promise<{ sessionId: string; messageId: string }>;
  /** Answer the user's message number `turn` again, beside the answer it has (the new one streams). */
  regenerate?(sessionId: string, turn: number): Promise<{ messageId: string }>;
  /** Show another version of the user's message `turn` or of its answer; resolves with the conversation as it is then. */
  switchVersion?(sessionId: string, turn: number, which: 'message' | 'answer', index: number): Promise<ChatMessage[]>;
  /** The models the chat header's picker offers; `current` is the conversation's when one is given. */
  listModels?(sessionId?: string): Promise<ModelChoices>;
  /**
   * Answer the conversation with another model (of another configured provider when it names one) from its next turn;
   * `imagesUnseen`: the images of the conversation that model does not read.
   */
  setModel?(sessionId: string, pick: ModelPick): Promise<{ imagesUnseen?: number }>;
  stop(sessionId: string): Promise<void>;
  /** Take up the conversation's last answer again (it ended interrupted, failed or timed out): a new answer streams. */
  retry?(sessionId: string): Promise<{ messageId: string }>;
  /** `rules`: with 'always', the positions of the previewed rules the user kept ticked (absent = all of them). */
  answerApproval(
    sessionId: string,
    approvalId: string,
    decision: Decision,
    message?: string,
    rules?: number[],
  ): Promise<void>;
  setPlanMode?(sessionId: string, on: boolean): Promise<void>;
  /** A stored conversation; `running` while a turn still runs or waits for an approval (its cards are in `messages`). */
  openSession(sessionId: string): Promise<{ messages: ChatMessage[]; running: boolean }>;

  onChat(handler: (e: ChatEvent) => void): () => void;
}
