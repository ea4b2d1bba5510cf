// Programs known to be inert: they read, count, compare and print, and run nothing given to them. Only these earn a
// reusable prefix rule from "always allow" (`ls -la src` → `ls`); every other program, under any name or version
// (`python3.11`, `view`, `sqlite3`, an unknown tool), is kept as the exact line. Each entry lists the options that
// would make it write elsewhere or run something, and how many operands it reads before one becomes an output.

export interface InertEntry {
  /** Risky options: one letter for a short option (`o`), a name for a long one (`output`, also `--outp`, `--o`). */
  risky?: readonly string[];
  /** At most this many operands (`uniq IN OUT` writes OUT; `xxd IN OUT` too). */
  maxOperands?: number;
  /** Short options whose value may be the next word (`xxd -l 16`): that word is not an operand. */
  valued?: readonly string[];
}

interface InertProgram extends InertEntry {
  /** The program's inert subcommands: the reusable prefix keeps the subcommand (`git log`); others are exact. */
  sub?: Readonly<Record<string, InertEntry>>;
}

/** Long options of git that run a program, write a file or point git elsewhere, whatever the subcommand. */
const GIT_RISKY = [
  'output',
  'ext-diff',
  'textconv',
  'exec',
  'upload-pack',
  'receive-pack',
  'open-files-in-pager',
  'config',
  'config-env',
  'exec-path',
  'git-dir',
  'work-tree',
  'namespace',
];

const READS: InertEntry = {};

const INERT_PROGRAMS: Readonly<Record<string, InertProgram>> = {
  ls: READS,
  cat: READS,
  head: READS,
  tail: READS,
  wc: READS,
  echo: READS,
  // bash's printf -v NAME assigns a variable (`printf -v PATH .` makes the next `git` run ./git).
  printf: { risky: ['v'] },
  pwd: READS,
  whoami: READS,
  id: READS,
  uname: READS,
  which: READS,
  basename: READS,
  dirname: READS,
  realpath: READS,
  readlink: READS,
  stat: READS,
  du: READS,
  df: READS,
  grep: READS,
  egrep: READS,
  fgrep: READS,
  cut: READS,
  tr: READS,
  nl: READS,
  rev: READS,
  tac: READS,
  od: READS,
  hexdump: READS,
  base64: READS,
  md5sum: READS,
  sha1sum: READS,
  sha256sum: READS,
  sha512sum: READS,
  cksum: READS,
  diff: READS,
  cmp: READS,
  comm: READS,
  paste: READS,
  join: READS,
  fold: READS,
  column: READS,
  expand: READS,
  unexpand: READS,
  seq: READS,
  sleep: READS,
  true: READS,
  false: READS,
  nproc: READS,
  jq: READS,
  date: { risky: ['s', 'set'] },
  file: { risky: ['C', 'compile'] },
  tree: { risky: ['o', 'output'] },
  rg: { risky: ['pre', 'hostname-bin'] },
  uniq: { maxOperands: 1, valued: ['f', 's', 'w'] },
  xxd: { maxOperands: 1, valued: ['l', 's', 'c', 'g', 'o', 'n', 'C'] },
  sort: { risky: ['o', 'output', 'compress-program', 'T', 'temporary-directory'] },
  iconv: { risky: ['o', 'output'] },
  git: {
    risky: GIT_RISKY,
    sub: {
      status: READS,
      log: READS,
      diff: READS,
      show: READS,
      'rev-parse': READS,
      'ls-files': READS,
      blame: READS,
      shortlog: READS,
      describe: READS,
      branch: {
        risky: ['d', 'D', 'm', 'M', 'c', 'C', 'f', 'u', 't', 'delete', 'move', 'copy', 'force', 'edit-description'],
      },
      // add and commit change the repository, which is their purpose; an editor or a template would run or read
      // something else.
      add: { risky: ['e', 'edit', 'p', 'patch', 'i', 'interactive'] },
      commit: { risky: ['e', 'edit', 't', 'template'] },
    },
  },
};

/** The inert entry for these words (program, and subcommand where it has them) and how many words name it. */
export function inertOf(words: readonly string[]): { entry: InertEntry; prefix: number } | undefined {
  const [first = '', second] = words;
  const program = Object.hasOwn(INERT_PROGRAMS, first) ? INERT_PROGRAMS[first] : undefined;
  if (!program) return undefined;
  if (!program.sub) return { entry: program, prefix: 1 };
  const sub = second !== undefined && Object.hasOwn(program.sub, second) ? program.sub[second] : undefined;
  if (!sub) return undefined;
  return { entry: { risky: [...(program.risky ?? []), ...(sub.risky ?? [])], ...sub }, prefix: 2 };
}

/**
 * Why these arguments (after the program and subcommand) leave the inert entry's bounds, or undefined. Short
 * options are looked for anywhere in a cluster (`-uo/tmp/x` holds `o`); a long option matches the risky name it
 * abbreviates, as GNU getopt and git accept (`--outp` is `--output`).
 */
export function riskyArgument(entry: InertEntry, args: readonly string[]): string | undefined {
  const risky = entry.risky ?? [];
  let operands = 0;
  let ended = false;
  let value = false;
  for (const a of args) {
    if (value) {
      value = false;
      continue;
    }
    if (!ended && a === '--') {
      ended = true;
      continue;
    }
    if (!ended && a.startsWith('--')) {
      const name = a.slice(2).split('=')[0]!;
      if (name && risky.some((r) => r.length > 1 && r.startsWith(name))) return a;
      continue;
    }
    if (!ended && a.startsWith('-') && a.length > 1) {
      if ([...a.slice(1)].some((c) => risky.includes(c))) return a;
      value = a.length === 2 && (entry.valued ?? []).includes(a[1]!);
      continue;
    }
    operands++;
  }
  return entry.maxOperands !== undefined && operands > entry.maxOperands ? `an operand past the first` : undefined;
}
