// One bubblewrap command line per wall configuration, built once by the sandbox runtime and reused for every command
// (Linux). The runtime's wrap costs 100–300 ms a command (resolving every path again, `which bash`, a ripgrep spawn,
// building ~100 arguments); what it builds depends only on the configuration, the runtime's proxy and the state of the
// paths it is given, so it is built around a stand-in command that runs the real one from the environment, and only
// the command's id (which binds its proxy connections to its host list) changes from one command to the next. The
// key it is kept under holds everything it was built from (see Wall.wrap); a change to any of it builds anew.
import { lstatSync, realpathSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { quoteWords, unquoteWords } from './offline.js';

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

/** bwrap's options before the command, by how many words follow each (its manual); any other ends the reading. */
const BWRAP_ARITY: Record<string, number> = {
  ...Object.fromEntries(
    [
      '--bind',
      '--bind-try',
      '--ro-bind',
      '--ro-bind-try',
      '--dev-bind',
      '--dev-bind-try',
      '--setenv',
      '--symlink',
      '--chmod',
      '--file',
      '--bind-data',
      '--ro-bind-data',
    ].map((f) => [f, 2]),
  ),
  ...Object.fromEntries(
    [
      '--tmpfs',
      '--dev',
      '--proc',
      '--dir',
      '--remount-ro',
      '--unsetenv',
      '--cap-add',
      '--cap-drop',
      '--chdir',
      '--hostname',
      '--uid',
      '--gid',
      '--seccomp',
      '--args',
      '--perms',
      '--lock-file',
      '--sync-fd',
      '--info-fd',
      '--block-fd',
    ].map((f) => [f, 1]),
  ),
  ...Object.fromEntries(
    [
      '--new-session',
      '--die-with-parent',
      '--unshare-all',
      '--unshare-net',
      '--unshare-pid',
      '--unshare-user',
      '--unshare-user-try',
      '--unshare-ipc',
      '--unshare-uts',
      '--unshare-cgroup',
      '--unshare-cgroup-try',
      '--share-net',
      '--clearenv',
      '--as-pid-1',
    ].map((f) => [f, 0]),
  ),
};

/**
 * The runtime's line (`[shell, '-c', 'bwrap …']`, Linux) without the stubs it mounts over missing paths that Knack
 * protects itself (`covered`: each is watched while the command runs and what it made there is moved aside after,
 * protect.ts): `--ro-bind /dev/null X` and `--ro-bind <empty folder> X`, and the empty folder's own read-only pin once
 * nothing else names it. bubblewrap creates such a mount point on the host at every run and only the runtime's own
 * wraps remove it, so a line holding one cannot be reused. Undefined when the line is not one bwrap line of known
 * options: then it is not reused (a wider line is never made).
 */
export function withoutStubs(argv: readonly string[], covered: (path: string) => boolean): string[] | undefined {
  if (argv.length !== 3 || argv[1] !== '-c') return undefined;
  const words = unquoteWords(argv[2]!);
  if (!words || !words[0]?.endsWith('bwrap')) return undefined;
  const kept: string[] = [words[0]];
  const empties = new Set<string>();
  let i = 1;
  for (; i < words.length && words[i] !== '--';) {
    const arity = BWRAP_ARITY[words[i]!];
    if (arity === undefined || i + arity >= words.length) return undefined;
    const [flag, src, dest] = [words[i]!, words[i + 1]!, words[i + 2]!];
    const emptyFolder = /\/claude-empty-[^/]+$/.test(src);
    if (
      flag === '--ro-bind' &&
      src !== dest &&
      (src === '/dev/null' || emptyFolder) &&
      !exists(dest) &&
      covered(dest)
    ) {
      if (emptyFolder) empties.add(src);
    } else kept.push(...words.slice(i, i + arity + 1));
    i += arity + 1;
  }
  if (i >= words.length) return undefined;
  const rest = words.slice(i);
  // An empty folder no stub uses any more: its pin goes too.
  const out: string[] = [];
  for (let j = 0; j < kept.length;) {
    const w = kept[j]!;
    const arity = j === 0 ? 0 : BWRAP_ARITY[w]!;
    const pin = w === '--ro-bind' && kept[j + 1] === kept[j + 2] && empties.has(kept[j + 1]!);
    if (!pin) out.push(...kept.slice(j, j + arity + 1));
    j += arity + 1;
  }
  const line = [...out, ...rest];
  if (empties.size && line.some((w) => [...empties].some((e) => w.includes(e)))) return undefined;
  return [argv[0]!, '-c', quoteWords(line)];
}

function exists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}
