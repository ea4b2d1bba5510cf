// User rules and grants: persisted allow/ask/deny decisions that match tool calls by tool, category, command, path or host.
// Precedence: a per-tool rule beats a category rule beats a `*` rule; within one level deny beats ask beats allow.
import type { Access, ToolCall } from './types.js';
import type { Effect, NewRule, Rule } from '../store/policy-repo.js';
import { isInside, relPosix } from '../base/paths.js';
import { globMatcher } from '../base/glob.js';

export const CATEGORIES = ['@read', '@write', '@execute', '@network'] as const;

/** The category a call falls in, from what it touches (strongest first). */
export function categoryOf(access: Access): (typeof CATEGORIES)[number] | '@meta' {
  if (access.command !== undefined) return '@execute';
  if (access.network) return '@network';
  if (access.write?.length) return '@write';
  if (access.read?.length) return '@read';
  return '@meta';
}

/** Collapse whitespace and drop leading `VAR=value` assignments. */
export function normalizeCommand(s: string): string {
  let t = s.trim().replace(/\s+/g, ' ');
  while (/^[A-Za-z_][A-Za-z0-9_]*=\S* /.test(t)) t = t.replace(/^[A-Za-z_][A-Za-z0-9_]*=\S* /, '');
  return t;
}

/** Split a command line on ; && || | |& & and newlines (`2>&1` and `&>` are redirections, not separators). */
function splitCommandLine(cmd: string): string[] {
  return cmd.split(/&&|\|\||\|&|[;|\n]|(?<![<>])&(?!>)/);
}

/** The simple commands of a command line, normalised (assignments dropped): what deny rules look for. */
export function commandSegments(cmd: string): string[] {
  return splitCommandLine(cmd).map(normalizeCommand).filter(Boolean);
}

/**
 * The simple commands exactly as they will run, whitespace collapsed but `VAR=value` prefixes kept: what an allow
 * must cover whole. `LD_PRELOAD=x.so git diff` or `GIT_EXTERNAL_DIFF=evil git diff` is not a `git diff`.
 */
export function runSegments(cmd: string): string[] {
  return splitCommandLine(cmd).map((s) => s.trim().replace(/\s+/g, ' ')).filter(Boolean);
}

/** True when the simple command `segment` (from runSegments) starts with the words of `prefix`, assignments included. */
export function segmentStartsWith(segment: string, prefix: string): boolean {
  const p = prefix.trim().replace(/\s+/g, ' ');
  return segment === p || segment.startsWith(p + ' ');
}

/**
 * Substitutions and file redirections make a command line's effect unknowable from its prefix. Output redirections
 * in every spelling count (`>`, `>>`, `>|`, `>&file`, `&>`, `&>>`); harmless are only /dev/null and duplicating onto
 * another descriptor (`2>&1`, `>&2`, `2>&-`).
 */
export function hasHiddenEffects(cmd: string): boolean {
  if (/\$\(|`|<\(|>\(/.test(cmd)) return true;
  for (const m of cmd.matchAll(/(?:\d*|&)>([>|&]?)\s*([^\s;|&<>()]*)/g)) {
    const op = m[1];
    const target = m[2] ?? '';
    if (target === '/dev/null' && op !== '&') continue;
    if (op === '&' && /^(\d+|-)$/.test(target)) continue;
    return true;
  }
  return false;
}

export function startsWithWords(text: string, prefix: string): boolean {
  const p = normalizeCommand(prefix);
  return text === p || text.startsWith(p + ' ');
}

export interface MatchContext {
  /** Real workspace path. */
  workspace: string;
  /** The skill whose script makes the call, if any. */
  skill?: string;
  /** Real paths the call touches (already resolved by the gate). */
  realPaths: string[];
}

/** Does the rule's scope (workspace, skill, path, host) cover the call? Commands are checked separately. */
function scopeMatches(r: Rule, call: ToolCall, ctx: MatchContext): boolean {
  if (r.workspace !== undefined && r.workspace !== ctx.workspace) return false;
  if (r.skill !== undefined && r.skill !== ctx.skill) return false;
  if (r.path !== undefined) {
    if (ctx.realPaths.length === 0) return false;
    // Deny and ask rules ignore case (on macOS and Windows `Secrets/` is `secrets/`); an allow never widens that way.
    const m = globMatcher(r.path, { nocase: r.effect !== 'allow' });
    if (!ctx.realPaths.every((p) => isInside(p, ctx.workspace) && m(relPosix(p, ctx.workspace)))) return false;
  }
  if (r.host !== undefined) {
    const h = call.access.host?.toLowerCase();
    if (!h) return false;
    const want = r.host.toLowerCase();
    if (want.startsWith('*.') ? !(h === want.slice(2) || h.endsWith(want.slice(1))) : h !== want) return false;
  }
  return true;
}

export interface RuleMatch {
  effect: Effect;
  rule: Rule;
  /** For command allows covering several segments: every rule used. */
  rules?: Rule[];
}

/** Decide a call by the rules, or undefined when no rule speaks to it. */
export function evaluateRules(rules: Rule[], call: ToolCall, ctx: MatchContext): RuleMatch | undefined {
  const cat = categoryOf(call.access);
  const levels = [
    rules.filter((r) => r.tool === call.tool),
    rules.filter((r) => r.tool === cat),
    rules.filter((r) => r.tool === '*'),
  ];
  const cmd = call.access.command;
  const segments = cmd === undefined ? [] : commandSegments(cmd);
  const running = cmd === undefined ? [] : runSegments(cmd);
  const whole = cmd === undefined ? '' : normalizeCommand(cmd);
  for (const level of levels) {
    const scoped = level.filter((r) => scopeMatches(r, call, ctx));
    const deny = scoped.find((r) => r.effect === 'deny' && commandHits(r, whole, segments));
    if (deny) return { effect: 'deny', rule: deny };
    const ask = scoped.find((r) => r.effect === 'ask' && commandHits(r, whole, segments));
    if (ask) return { effect: 'ask', rule: ask };
    const allows = scoped.filter((r) => r.effect === 'allow');
    if (cmd === undefined) {
      const a = allows.find((r) => r.command === undefined);
      if (a) return { effect: 'allow', rule: a };
      continue;
    }
    // A rule allowing the tool with no command pattern is a blanket grant you chose: it covers any command line.
    const blanket = allows.find((r) => r.command === undefined);
    if (blanket) return { effect: 'allow', rule: blanket };
    // A command is allowed only when every simple command in it is covered and nothing is hidden.
    if (allows.length === 0 || hasHiddenEffects(cmd) || running.length === 0) continue;
    const used: Rule[] = [];
    const covered = running.every((seg) => {
      const r = allows.find((a) => a.command !== undefined && allowCovers(seg, a.command));
      if (r && !used.includes(r)) used.push(r);
      return r !== undefined;
    });
    if (covered && used[0]) return { effect: 'allow', rule: used[0], rules: used };
  }
  return undefined;
}

/** Deny/ask rules with a command match anywhere in the line (any segment, or as words inside it). */
function commandHits(r: Rule, whole: string, segments: string[]): boolean {
  if (r.command === undefined) return true;
  if (whole === '') return false;
  const p = normalizeCommand(r.command);
  if (segments.some((s) => startsWithWords(s, p) || startsWithWords(s.replace(/^(sudo|env|nohup|time|command|exec) /, ''), p))) return true;
  return new RegExp(`(^|[\\s;&|(])${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[\\s;&|)])`).test(whole);
}

/** Programs whose first argument is a subcommand worth keeping in a generalised rule. */
const SUBCOMMAND_PROGRAMS = new Set(['git', 'npm', 'pnpm', 'yarn', 'cargo', 'go', 'docker', 'kubectl', 'gh', 'pip', 'uv', 'bun', 'deno', 'poetry', 'brew', 'apt', 'dotnet', 'mvn', 'gradle']);

/**
 * Programs where a rule for the bare name would grant anything at all: shells and interpreters (`python -c …`),
 * privilege, deletion and permission changes, command runners (`xargs`, `env`, `find -exec`), remote access.
 * "Always allow" keeps their whole command line.
 */
const EXACT_ONLY_PROGRAMS = new Set([
  'sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'csh', 'tcsh', 'pwsh', 'powershell', 'cmd', 'osascript',
  'python', 'python2', 'python3', 'node', 'nodejs', 'deno', 'bun', 'perl', 'ruby', 'php', 'lua', 'java', 'tsx', 'ts-node', 'npx', 'bunx', 'pnpx', 'uvx',
  'sudo', 'doas', 'su', 'pkexec', 'rm', 'rmdir', 'shred', 'dd', 'mkfs', 'truncate', 'chmod', 'chown', 'chgrp', 'mv', 'kill', 'pkill', 'killall',
  'eval', 'exec', 'source', '.', 'xargs', 'env', 'nohup', 'time', 'timeout', 'watch', 'nice', 'command', 'builtin', 'find', 'parallel',
  'curl', 'wget', 'ssh', 'scp', 'sftp', 'rsync', 'nc', 'ncat', 'socat', 'telnet', 'crontab', 'launchctl', 'systemctl',
]);

/** An allow rule for one of these programs names one exact command (a bare prefix would grant anything). */
function exactOnly(command: string): boolean {
  const [first = '', second] = command.split(' ');
  return EXACT_ONLY_PROGRAMS.has(first) || first.includes('/') || (SUBCOMMAND_PROGRAMS.has(first) && second?.startsWith('-') === true);
}

/**
 * Does an allow rule's command cover one simple command (from runSegments)? By words as a prefix (`git status`
 * covers `git status -s`), except for the exact-only programs above: `rm -rf build` covers only itself, never
 * `rm -rf build ~`. A rule ending in " *" (`python3 tools/gen.py *`) is a prefix you chose explicitly.
 */
export function allowCovers(segment: string, ruleCommand: string): boolean {
  const p = ruleCommand.trim().replace(/\s+/g, ' ');
  if (p.endsWith(' *')) return segmentStartsWith(segment, p.slice(0, -2));
  return exactOnly(p) ? segment === p : segmentStartsWith(segment, p);
}

/**
 * The reusable prefix for "always allow" of one simple command: `git status -s` → `git status`, `ls -la x` → `ls`.
 * Where the bare program would be a blanket grant (`rm`, `python`, `sudo`, a path to a program, `git -c …`) the
 * whole command is kept: allowing `rm -rf build` once and for all must not allow `rm -rf ~`.
 */
export function commandPrefix(segment: string): string {
  const whole = normalizeCommand(segment);
  const words = whole.split(' ');
  const first = words[0] ?? '';
  const second = words[1];
  if (exactOnly(whole)) return whole;
  if (SUBCOMMAND_PROGRAMS.has(first) && second) return `${first} ${second}`;
  return first;
}

/**
 * "Always allow" → the fewest reusable rules: one command prefix per distinct program (not the exact line),
 * one host for network calls, the tool for this workspace for file tools.
 */
export function generaliseRules(call: ToolCall, workspace: string, effect: Effect = 'allow', skill?: string): NewRule[] {
  const base: NewRule = { effect, tool: call.tool, workspace, ...(skill ? { skill } : {}) };
  if (call.access.command !== undefined && call.tool !== 'bash') {
    // Other command-like tools (connector tools that change things) describe their call as a synthetic line:
    // "always" means this tool, "never" this tool too.
    return [base];
  }
  if (call.access.command !== undefined) {
    const prefixes = [...new Set(commandSegments(call.access.command).map(commandPrefix).filter(Boolean))];
    if (effect !== 'allow') return [{ ...base, command: normalizeCommand(call.access.command) }];
    return prefixes.map((command) => ({ ...base, command }));
  }
  if (call.access.network && call.access.host) return [{ ...base, host: call.access.host.toLowerCase() }];
  return [base];
}

/** True when `a` already covers everything `b` would (so adding `b` would be a redundant one-off). */
export function subsumes(a: NewRule, b: NewRule): boolean {
  if (a.effect !== b.effect || a.tool !== b.tool) return false;
  if (a.workspace !== undefined && a.workspace !== b.workspace) return false;
  if (a.skill !== undefined && a.skill !== b.skill) return false;
  if (a.host !== undefined && a.host !== b.host) return false;
  if (a.path !== undefined && a.path !== b.path) return false;
  if (a.command !== undefined && (b.command === undefined || !(a.effect === 'allow' ? allowCovers(normalizeCommand(b.command), a.command) : startsWithWords(normalizeCommand(b.command), a.command)))) return false;
  return true;
}

export function describeRule(r: NewRule | Rule): string {
  const parts = [`${r.effect} ${r.tool}`];
  if (r.command !== undefined) parts.push(`command "${r.command}"`);
  if (r.path !== undefined) parts.push(`path ${r.path}`);
  if (r.host !== undefined) parts.push(`host ${r.host}`);
  if (r.skill !== undefined) parts.push(`for skill ${r.skill}`);
  parts.push(r.workspace !== undefined ? `in ${r.workspace}` : 'everywhere');
  return parts.join(' ');
}
