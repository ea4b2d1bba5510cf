// Commands that destroy work inside the workspace: the OS sandbox lets them run (they stay in the workspace), so the
// gate still asks — the sandbox protects the machine, not the user's uncommitted work. Read from plain words only.
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { parseCommandLine } from './shell.js';

/**
 * The folders a command of the line may run in: the working folder and where each `cd` before it leads (all of them,
 * as a `cd` inside a subshell or a pipeline may or may not carry over); undefined when one cannot be read.
 */
type Dirs = string[] | undefined;

const wrappers = new Set([
  'sudo',
  'doas',
  'env',
  'command',
  'builtin',
  'exec',
  'nice',
  'ionice',
  'chrt',
  'taskset',
  'nohup',
  'setsid',
  'stdbuf',
  'unbuffer',
  'chronic',
  'busybox',
  'time',
  'xargs',
  'timeout',
]);

/** Words after leading wrappers (`sudo`, `env X=1`, `timeout 5`, `nice -n 5`, …), their options and numbers. */
function program(words: string[]): string[] {
  let i = 0;
  const skipped = (w: string): boolean =>
    wrappers.has(w) || /^[A-Za-z_]\w*=/.test(w) || /^-/.test(w) || (i > 0 && /^(\d[\d.]*[smhd]?|0x[\da-f]+)$/i.test(w));
  while (i < words.length && skipped(words[i]!)) i++;
  return words.slice(i);
}

/** GNU and git accept any unambiguous prefix of a long option (`--rec` for `--recursive`, `--ha` for `--hard`). */
const longPrefix = (w: string, full: string, min = 3): boolean =>
  w.startsWith('--') && w.length - 2 >= min && full.startsWith(w.slice(2).split('=')[0]!);

const base = (w: string): string => w.split('/').pop()!;

/** git's options before the subcommand that take the next word as their value (`git -C dir reset`). */
const GIT_VALUED = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix']);

/** git's subcommand and the words after it, past its global options (`git -C . -c x=y reset --hard`). */
function gitSub(rest: string[], dirs: Dirs): { sub?: string; args: string[]; dirs: Dirs } {
  let i = 0;
  while (i < rest.length && rest[i]!.startsWith('-')) {
    // `git -C dir`: its paths are read from there.
    if (rest[i] === '-C') dirs = into(dirs, rest[i + 1]);
    i += GIT_VALUED.has(rest[i]!) ? 2 : 1;
  }
  return { sub: rest[i], args: rest.slice(i + 1), dirs };
}

/** The folders after `cd target` from each of `dirs` (undefined: a target the gate cannot read). */
function into(dirs: Dirs, target: string | undefined): Dirs {
  if (!dirs || target === undefined || target === '\u2026' || target === '-' || target.startsWith('~'))
    return undefined;
  return [...new Set([...dirs, ...dirs.map((d) => resolve(d, target))])].slice(0, 16);
}

/** checkout's options that take the next word as their value (a new branch's name). */
const CHECKOUT_VALUED = new Set(['-b', '-B', '--orphan']);

/**
 * Whether `git checkout WORD` reads WORD as a path (git does when no branch or commit has that name): it names a path
 * that exists in a folder the command may run in, or is a pattern or pathspec no ref name can be (`*`, `?`, `[`,
 * `:(…)`), or is not plain words. A name that is both a branch and a path counts as a path (the safe side).
 */
function checkoutPath(word: string, dirs: Dirs): boolean {
  if (!dirs || word === '\u2026' || /[*?[\\]/.test(word) || word.startsWith(':')) return true;
  return dirs.some((d) => existsSync(isAbsolute(word) ? word : resolve(d, word)));
}

function gitWhy(rest: string[], within: Dirs): string | undefined {
  const { sub: s, args, dirs } = gitSub(rest, within);
  // git takes any unambiguous prefix of a long option, down to one letter (`git reset --h` is `--hard`).
  const long = (name: string): boolean => args.some((a) => longPrefix(a, name, 1));
  const has = (short: string, name: string): boolean => args.includes(short) || long(name);
  if (s === 'reset' && long('hard')) return 'git reset --hard';
  if (s === 'clean') return 'git clean';
  if (s === 'push' && args.some((a) => a === '-f' || /^--force/.test(a) || /^\+/.test(a))) return 'git push --force';
  if (
    s === 'checkout' &&
    (args.includes('--') ||
      args.includes('.') ||
      has('-f', 'force') ||
      has('-p', 'patch') ||
      long('pathspec-from-file'))
  )
    return 'git checkout of files';
  if (s === 'checkout') {
    // Past a tree-ish, every word is a path (`git checkout main notes.txt`); one word alone is a path when git reads
    // it so (no branch of that name): its uncommitted changes are thrown away.
    const operands = args.filter((a, i) => !a.startsWith('-') && !CHECKOUT_VALUED.has(args[i - 1] ?? ''));
    if (operands.length > 1 || (operands[0] !== undefined && checkoutPath(operands[0], dirs)))
      return 'git checkout of files';
  }
  if (s === 'switch' && (has('-f', 'force') || long('discard-changes'))) return 'git switch discarding changes';
  // restore writes the working tree unless only the index is named (`--staged` without `--worktree`).
  if (s === 'restore' && (!has('-S', 'staged') || has('-W', 'worktree'))) return 'git restore of files';
  if (s === 'branch' && args.some((a) => a === '-D' || a === '--delete')) return 'git branch delete';
  const sub = args.filter((a) => !a.startsWith('-'));
  if (s === 'stash' && (sub[0] === 'drop' || sub[0] === 'clear')) return `git stash ${sub[0]}`;
  return undefined;
}

function why(words: string[], dirs: Dirs): string | undefined {
  // A deleting program is looked for anywhere in the words, not only after the wrappers known here: `nice -n 5 rm
  // -rf`, `timeout 5 rm -r`, `busybox rm -r`, `find . -exec /bin/rm`. An `rm` that is only an argument asks too.
  for (let i = 0; i < words.length; i++) {
    const cmd = base(words[i]!);
    const rest = words.slice(i + 1);
    if (cmd === 'rm' || cmd === 'rmdir') {
      const recursive = rest.some((a) => /^-[a-zA-Z]*[rR]/.test(a) || longPrefix(a, 'recursive'));
      if (recursive) return 'a recursive delete';
    }
    if (cmd === 'find' && rest.some((a) => a === '-delete')) return 'find deleting files';
    if (cmd === 'find') {
      const runs = rest.findIndex((a) => /^-(exec|execdir|ok|okdir)$/.test(a));
      if (runs >= 0 && ['rm', 'rmdir', 'unlink', 'shred'].includes(base(rest[runs + 1] ?? '')))
        return 'find deleting files';
    }
    if (cmd === 'shred') return 'shred';
    if (cmd === 'git') {
      const r = gitWhy(rest, dirs);
      if (r) return r;
    }
  }
  return undefined;
}

/**
 * What makes this command line destructive inside the workspace ("a recursive delete", "git reset --hard"), or
 * undefined. A line that is not plain words counts as destructive (what it runs cannot be read). `cwd`: the folder the
 * command runs in, where a path it names is looked for (`git checkout notes.txt` discards that file's changes).
 */
export function destructiveInWorkspace(line: string, cwd?: string): string | undefined {
  let dirs: Dirs = cwd === undefined ? undefined : [cwd];
  const parsed = parseCommandLine(line);
  if (!parsed.parsed) return `a command line that cannot be read (${parsed.notPlain ?? 'the parser refused it'})`;
  // A byte bash splits differently (a carriage return before `#`): what the gate reads is not what bash runs.
  if (parsed.unreliable !== undefined) return `a command line bash may read differently (${parsed.unreliable})`;
  // Redirections and pipes are fine (the wall holds the writes); what each command runs must be readable.
  for (const c of parsed.commands) {
    // A glob or a variable among the arguments is read as "something": what matters is the program and its options.
    const words = c.words ?? c.args.map((w) => w ?? '\u2026');
    if (c.args[0] === undefined || c.args[0] === '')
      return `a command line that is not plain words (${parsed.notPlain ?? 'an expansion'})`;
    const hidden = runsHidden(words);
    if (hidden) return hidden;
    const r = why(words, dirs);
    if (r) return r;
    if (base(words[0]!) === 'cd' || base(words[0]!) === 'pushd')
      dirs = into(
        dirs,
        words.slice(1).find((w) => !/^-[LPe@]+$/.test(w)),
      );
  }
  return undefined;
}

const SHELLS = /^(ba|da|z|k|fi|tc|c)?sh$/;
const INTERPRETERS =
  /^(python[\d.]*|perl[\d.]*|ruby[\d.]*|node|nodejs|deno|bun|php[\d.]*|lua[\d.]*|tclsh[\d.]*|osascript)$/;

/** A command that runs code the gate cannot read (a shell or interpreter given code, eval, brace expansion). */
function runsHidden(words: string[]): string | undefined {
  if (words.some((w) => /\{[^}]*(,|\.\.)[^}]*\}/.test(w))) return 'brace expansion';
  const w = program(words);
  const name = w[0] && base(w[0]);
  if (!name) return undefined;
  if (['eval', 'source', '.', 'alias', 'trap', 'exec'].includes(name))
    return `${name}, which runs code the gate cannot read`;
  if (SHELLS.test(name) && (w.length === 1 || w.slice(1).some((a) => /^-[a-z]*c/.test(a) || a === '-s')))
    return `a shell given code to run (${name})`;
  if (INTERPRETERS.test(name) && (w.length === 1 || w.slice(1).some((a) => /^-[a-zA-Z]*[ceE]$/.test(a) || a === '-')))
    return `an interpreter given code to run (${name})`;
  // Given code behind any program that runs another (`timeout 5 bash -c …`, `nice -n 5 python3 -c …`, `find -exec sh
  // -c …`), not only behind the wrappers known above.
  for (let i = 1; i < words.length; i++) {
    const inner = base(words[i]!);
    const rest = words.slice(i + 1);
    if (inner === 'eval') return 'eval, which runs code the gate cannot read';
    if (SHELLS.test(inner) && rest.some((a) => /^-[a-z]*c/.test(a) || a === '-s'))
      return `a shell given code to run (${inner})`;
    if (INTERPRETERS.test(inner) && rest.some((a) => /^-[a-zA-Z]*[ceE]$/.test(a)))
      return `an interpreter given code to run (${inner})`;
  }
  return undefined;
}
