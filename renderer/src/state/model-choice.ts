// The model picked in the chat header for a conversation not started yet: sent with its first message (chat.send's
// `model`), then forgotten (the conversation holds it from there). One small store, apart from the view's.
import { create } from 'zustand';

interface ModelChoice {
  /** The model picked before the conversation exists; undefined: the provider's default. */
  pending?: string;
  pick(model: string | undefined): void;
}

export const useModelChoice = create<ModelChoice>((set) => ({
  pick: (pending) => set({ pending }),
}));
