// The model picked in the chat header for a conversation not started yet: sent with its first message (chat.send's
// `model`), then forgotten (the conversation holds it from there). One small store, apart from the view's.
import { create } from 'zustand';
import type { ModelPick } from '../api/client';

interface ModelChoice {
  /** The model (and its provider) picked before the conversation exists; undefined: the provider's default. */
  pending?: ModelPick;
  pick(model: ModelPick | undefined): void;
}

export const useModelChoice = create<ModelChoice>((set) => ({
  pick: (pending) => set({ pending }),
}));
