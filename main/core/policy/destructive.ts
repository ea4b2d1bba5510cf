// Commands that destroy work inside the workspace: the OS sandbox lets them run (they stay in the workspace), so the
// gate still asks — the sandbox protects the machine, not the user's uncommitted work. Read from plain words only.
import { parseCommandLine } from './shell.js';

const wrappers = new Set(['sudo', 'env', 'command', 'builtin', 'exec', 'nice', 'nohup', 'time', 'xargs', 'timeout']);

/** Words after leading wrappers (`sudo`, `env X=1`, `xargs`, …) and assignments. */
function program(words: string[]): string[] {
  let i = 0;
  while (i < words.length && (wrappers.has(words[i]!) || /^[A-Za-z_]\w*=/.test(words[i]!) || /^-/.test(words[i]!))) i++;
  return words.slice(i);
}

/** GNU accepts any unambiguous prefix of a long option (`--rec` for `--recursive`). */
const longPrefix = (w: string, full: string, min = 3): boolean =>
  w.startsWith('--') && w.length - 2 >= min && full.startsWith(w.slice(2).split('=')[0]!);

function why(words: string[]): string | undefined {
  const w = program(words);
  const [cmd, ...rest] = w;
  if (!cmd) return undefined;
  const base = cmd.split('/').pop()!;
  if (base === 'rm' || base === 'rmdir') {
    const recursive = rest.some((a) => /^-[a-zA-Z]*[rR]/.test(a) || longPrefix(a, 'recursive'));
    if (recursive) return 'a recursive delete';
  }
  if (
    base === 'find' &&
    rest.some((a) => a === '-delete' || ((a === '-exec' || a === '-execdir') && rest.includes('rm')))
  )
    return 'find deleting files';
  if (base === 'shred') return 'shred';
  if (base === 'git') {
    const sub = rest.filter((a) => !a.startsWith('-'));
    const s = sub[0];
    if (s === 'reset' && rest.includes('--hard')) return 'git reset --hard';
    if (s === 'clean') return 'git clean';
    if (s === 'push' && rest.some((a) => a === '-f' || /^--force/.test(a) || /^\+/.test(a))) return 'git push --force';
    if ((s === 'checkout' || s === 'restore') && (rest.includes('--') || rest.includes('.')))
      return `git ${s} of files`;
    if (s === 'branch' && rest.some((a) => a === '-D' || a === '--delete')) return 'git branch delete';
    if (s === 'stash' && (sub[1] === 'drop' || sub[1] === 'clear')) return `git stash ${sub[1]}`;
  }
  return undefined;
}

/**
 * What makes this command line destructive inside the workspace ("a recursive delete", "git reset --hard"), or
 * undefined. A line that is not plain words counts as destructive (what it runs cannot be read).
 */
export function destructiveInWorkspace(line: string): string | undefined {
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
    const r = why(words);
    if (r) return r;
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
  const base = w[0]?.split('/').pop();
  if (!base) return undefined;
  if (['eval', 'source', '.', 'alias', 'trap', 'exec'].includes(base))
    return `${base}, which runs code the gate cannot read`;
  if (SHELLS.test(base) && (w.length === 1 || w.slice(1).some((a) => /^-[a-z]*c/.test(a) || a === '-s')))
    return `a shell given code to run (${base})`;
  if (INTERPRETERS.test(base) && (w.length === 1 || w.slice(1).some((a) => /^-[a-zA-Z]*[ceE]$/.test(a) || a === '-')))
    return `an interpreter given code to run (${base})`;
  return undefined;
}
