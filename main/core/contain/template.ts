// One bubblewrap command line per wall configuration, built once by the sandbox runtime and reused for every command
// (Linux). The runtime's wrap costs 100–300 ms a command (resolving every path again, `which bash`, a ripgrep spawn,
// building ~100 arguments); what it builds depends only on the configuration, the runtime's proxy and the state of the
// paths it is given, so it is built around a stand-in command that runs the real one from the environment, and only
// the command's id (which binds its proxy connections to its host list) changes from one command to the next. The
// key it is kept under holds everything it was built from (see Wall.wrap); a change to any of it builds anew.
import { lstatSync, realpathSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

/** The variable the stand-in reads the command from; it unsets it before running the command. */
export const COMMAND_VAR = 'KNACK_WALL_COMMAND';

/**
 * What the runtime wraps in place of each command: `bash -c` of the command itself, as if it had been wrapped, with the
 * variable gone. A command that did not arrive fails; it never runs as an empty success.
 */
export const STAND_IN =
  `[ -n "\${${COMMAND_VAR}+x}" ] || { echo 'knack: the command did not reach the sandbox' >&2; exit 125; }; ` +
  `_knack_command=$${COMMAND_VAR}; unset ${COMMAND_VAR}; exec "$BASH" -c "$_knack_command"`;

/** The runtime's key for a command id, as its carriers (the proxy username, the violation tag) hold it. */
export const encodedId = (id: string): string => Buffer.from(id).toString('base64');

/**
 * A command id: 144 random bits (the runtime asks for at least 128), drawn again until its encoded form holds no `+`
 * or `/`, which the proxy URL would percent-encode: then it appears alike everywhere in a command line and is
 * replaced alike. 24 characters encode to 32 without padding.
 */
export function commandId(): string {
  for (;;) {
    const id = randomBytes(18).toString('base64url');
    if (!/[+/]/.test(encodedId(id))) return id;
  }
}

/** Where each path leads now (its real path and kind, or missing): a change means the runtime would build otherwise. */
export function pathState(paths: readonly string[]): string[] {
  return paths.map((p) => {
    try {
      const st = lstatSync(p);
      const kind = st.isSymbolicLink() ? 'l' : st.isDirectory() ? 'd' : 'f';
      return `${p}\0${kind}\0${realpathSync.native(p)}`;
    } catch {
      return `${p}\0-`;
    }
  });
}

export interface Template {
  argv: string[];
  env: NodeJS.ProcessEnv;
  /** The stand-in's encoded id, replaced by each command's. */
  key: string;
}

/**
 * Whether a command line the runtime built can be run again as it is. Not when it needs a mount point made on the host
 * for a path that is missing (bubblewrap creates it at each run and the runtime removes it only after its own wraps): a
 * missing denied path named in it, or its empty-directory stand-in (`claude-empty-`); nor when its mounts went through
 * a file opened for that one command (`--args`).
 */
export function reusable(t: Template, missing: readonly string[]): boolean {
  const text = t.argv.join('\n');
  if (text.includes('claude-empty-') || /(^|\s)--args\s/.test(text)) return false;
  return !missing.some((p) => text.includes(p));
}

/** The template's command line for the command `id`, run with `command` in the environment. */
export function fill(t: Template, id: string, command: string): { argv: string[]; env: NodeJS.ProcessEnv } {
  const key = encodedId(id);
  return { argv: t.argv.map((a) => a.split(t.key).join(key)), env: { ...t.env, [COMMAND_VAR]: command } };
}
