// A request the agent refuses (a file that cannot be attached, a turn that cannot be retried or edited now): why, as
// words the window says in its language; its message is their English, for the CLI, the logs and the model.
import { english, type Said } from '../base/index.js';

export class Refusal extends Error {
  constructor(readonly words: Said) {
    super(english(words));
  }
}
