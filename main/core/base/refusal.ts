// A request refused or a failure said on purpose (a file that cannot be attached, a turn that cannot be retried, an
// event the conversation does not have): why, as words the window says in its language; its message is their English
// (for the CLI, the logs and the model) unless a fuller one is given with them.
import { english, type Said } from '../../../preload/words.js';

export class Refusal extends Error {
  constructor(
    readonly words: Said,
    message = english(words),
  ) {
    super(message);
  }
}
