// What a call asked about would do, in plain risk lines for the approval card: the host it sends data to or connects
// to, writes outside the workspace, deletions, a downloaded script run, the network it needs while the ceiling has it
// off. Each line is a code plus parameters (the window words it in its language). Informational: the gate decides and
// the OS sandbox contains; a line missed here widens nothing. Also which "always" rules would widen network or writes.
import { isAbsolute, resolve } from 'node:path';
import { isInside } from '../base/index.js';
import { normalizeHost } from './hosts.js';
import { programName } from './rules.js';
import { parseCommandLine } from './shell.js';
import type { Access } from './types.js';

export const RISK_CODES = [
  'sends', // sends data to {host}
  'connects', // connects to {host}
  'network', // talks to the network (host unknown)
  'writesOutside', // writes {path}, outside this folder
  'deletes', // deletes files
  'downloadedScript', // runs a script it downloads
  'networkOff', // needs the network, which the limits turn off
] as const;
export type RiskCode = (typeof RISK_CODES)[number];

export interface RiskLine {
  code: RiskCode | (string & {});
  params: Record<string, string>;
}

/** Programs that talk to the network whatever their arguments. */
const NET_PROGRAMS = new Set([
  'curl',
  'wget',
  'ssh',
  'scp',
  'sftp',
  'rsync',
  'ftp',
  'nc',
  'ncat',
  'netcat',
  'socat',
  'telnet',
  'http',
  'https',
  'aria2c',
]);
/** Subcommands that reach a remote (package registries, git remotes). */
const NET_SUBCOMMANDS: Record<string, Set<string>> = {
  git: new Set(['push', 'pull', 'fetch', 'clone', 'ls-remote', 'submodule']),
  npm: new Set(['install', 'i', 'ci', 'publish', 'update', 'add']),
  pnpm: new Set(['install', 'i', 'add', 'publish', 'update']),
  yarn: new Set(['install', 'add', 'publish', 'upgrade']),
  pip: new Set(['install', 'download']),
  pip3: new Set(['install', 'download']),
  cargo: new Set(['install', 'publish', 'fetch']),
  go: new Set(['get', 'install']),
  docker: new Set(['pull', 'push', 'login']),
  gh: new Set(['api', 'pr', 'issue', 'repo', 'release']),
};
/** Options that make curl / wget send a body or a file rather than only fetch. */
const UPLOAD_OPTIONS =
  /^(-d|--data.*|-F|--form.*|-T|--upload-file|--json|-X|--request|--post-data.*|--post-file.*|--body-data.*|--method.*)$/;
const UPLOAD_SHORT = /^-[a-zA-Z]*[dFT][^-]*$/;
const SHELLS = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'fish',
  'python',
  'python3',
  'node',
  'perl',
  'ruby',
  'php',
  'pwsh',
  'source',
  '.',
]);
const DELETERS = new Set(['rm', 'rmdir', 'shred', 'unlink', 'srm', 'trash']);
const WRITERS = new Set([
  'cp',
  'mv',
  'tee',
  'touch',
  'mkdir',
  'ln',
  'install',
  'rsync',
  'scp',
  'chmod',
  'chown',
  'truncate',
]);

function hostOf(word: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(word)) {
    try {
      const h = new URL(word).hostname;
      return h ? normalizeHost(h) : undefined;
    } catch {
      return undefined;
    }
  }
  // user@host:path (scp, rsync, ssh) and user@host (ssh)
  const m = /^(?:[^@\s/]+@)([^:/\s]+)(?::|$)/.exec(word);
  return m ? normalizeHost(m[1]!) : undefined;
}

/** A path a command names that lies outside the workspace (absolute elsewhere, `~`, or climbing out with `..`). */
function outside(word: string, workspace: string): string | undefined {
  if (!word || word.startsWith('-') || /^[a-z][a-z0-9+.-]*:\/\//i.test(word) || word.includes('@')) return undefined;
  const w = word.startsWith('of=') ? word.slice(3) : word;
  if (w === '/dev/null' || w.startsWith('/dev/fd/') || w === '/dev/stdout' || w === '/dev/stderr') return undefined;
  if (w.startsWith('~')) return w;
  if (!isAbsolute(w) && !w.startsWith('..')) return undefined;
  return isInside(resolve(workspace, w), workspace) ? undefined : w;
}

function push(out: RiskLine[], line: RiskLine): void {
  if (!out.some((o) => o.code === line.code && JSON.stringify(o.params) === JSON.stringify(line.params)))
    out.push(line);
}

/** The commands of a line as words (nested ones too), and the targets of its `>` / `>>` redirections. */
function commandsOf(line: string): { words: string[][]; redirects: string[] } {
  const p = parseCommandLine(line);
  const words = p.commands.map((c) => (c.args.filter((a) => a !== undefined) as string[]).filter(Boolean));
  // The parser says whether a line redirects, not where to: the targets are read from the text (a risk line, not a
  // decision; the sandbox holds writes to the workspace whatever this finds).
  const redirects = [...line.matchAll(/(?:^|[^<>&\d])\d*>>?\|?\s*("[^"]*"|'[^']*'|[^\s;&|<>()]+)/g)].map((m) =>
    m[1]!.replace(/^["']|["']$/g, ''),
  );
  return { words, redirects };
}

/**
 * The risk lines of one call: `access` as the tool described it (command, write paths, network and host),
 * `workspace` the open folder, `network` whether the ceiling lets anything reach the network at all.
 */
export function callRisks(access: Access, workspace: string, network: boolean): RiskLine[] {
  const out: RiskLine[] = [];
  let needsNet = !!access.network;
  if (access.network)
    push(
      out,
      access.host
        ? { code: 'connects', params: { host: normalizeHost(access.host) } }
        : { code: 'network', params: {} },
    );
  for (const w of access.write ?? []) {
    const o = outside(w, workspace);
    if (o) push(out, { code: 'writesOutside', params: { path: o } });
  }
  if (access.command !== undefined) {
    const { words, redirects } = commandsOf(access.command);
    let fetches = false;
    let runs = false;
    for (const ws of words) {
      const prog = programName(ws[0] ?? '');
      const rest = ws.slice(1);
      const net = NET_PROGRAMS.has(prog) || !!NET_SUBCOMMANDS[prog]?.has(rest[0] ?? '');
      if (net) {
        needsNet = true;
        const hosts = [...new Set(rest.map(hostOf).filter((h): h is string => !!h))];
        const uploads =
          ((prog === 'curl' || prog === 'wget' || prog === 'http' || prog === 'https') &&
            rest.some((a) => UPLOAD_OPTIONS.test(a) || (prog === 'curl' && UPLOAD_SHORT.test(a)))) ||
          prog === 'scp' ||
          prog === 'rsync' ||
          prog === 'nc' ||
          prog === 'ncat' ||
          prog === 'netcat' ||
          (prog === 'git' && rest[0] === 'push') ||
          rest[0] === 'publish';
        if (prog === 'curl' || prog === 'wget' || prog === 'aria2c') fetches = true;
        if (!hosts.length) push(out, { code: 'network', params: {} });
        for (const host of hosts) push(out, { code: uploads ? 'sends' : 'connects', params: { host } });
      }
      if (SHELLS.has(prog)) runs = true;
      if (
        DELETERS.has(prog) ||
        (prog === 'find' && rest.includes('-delete')) ||
        (prog === 'git' && rest[0] === 'clean')
      )
        push(out, { code: 'deletes', params: {} });
      if (WRITERS.has(prog) || prog === 'dd') {
        for (const a of rest) {
          const o = outside(a, workspace);
          if (o) push(out, { code: 'writesOutside', params: { path: o } });
        }
        // `~/x` is an expansion to the parser (no literal word): read from the text.
        for (const m of access.command.matchAll(/(?:^|\s)(~[^\s;&|<>()]*)/g))
          push(out, { code: 'writesOutside', params: { path: m[1]! } });
      }
    }
    for (const r of redirects) {
      const o = outside(r, workspace);
      if (o) push(out, { code: 'writesOutside', params: { path: o } });
    }
    if (fetches && runs) push(out, { code: 'downloadedScript', params: {} });
  }
  if (needsNet && !network) push(out, { code: 'networkOff', params: {} });
  return out;
}

/**
 * Whether an "always allow" rule would widen what runs without asking beyond this folder's files: a rule for a
 * network program or a host ('network'), or one standing for a call that writes outside the workspace ('outside').
 * Such a rule is never pre-ticked on the card.
 */
export function ruleWidens(
  rule: { command?: string; host?: string },
  risks: RiskLine[],
  workspace: string,
): 'network' | 'outside' | undefined {
  if (rule.host !== undefined) return 'network';
  // A rule for the tool itself (a file tool, web fetch): it widens as far as the call it stands for.
  const own = rule.command === undefined ? risks : callRisks({ command: rule.command }, workspace, true);
  if (own.some((r) => r.code === 'writesOutside')) return 'outside';
  if (own.some((r) => r.code === 'sends' || r.code === 'connects' || r.code === 'network')) return 'network';
  return undefined;
}
