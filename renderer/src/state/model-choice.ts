// The model picked in the chat header for a conversation not started yet: sent with its first message (chat.send's
// `model`), then forgotten (the conversation holds it from there); and whether the model answering next reads images.
// One small store, apart from the view's.
import { create } from 'zustand';
import type { ModelPick } from '../api/client';

interface ModelChoice {
  /** The model (and its provider) picked before the conversation exists; undefined: the provider's default. */
  pending?: ModelPick;
  pick(model: ModelPick | undefined): void;
  /** The model that answers the next message, when it reads no images (an image attached says so on its chip). */
  noImages?: string;
}

export const useModelChoice = create<ModelChoice>((set) => ({
  pick: (pending) => set({ pending }),
}));
