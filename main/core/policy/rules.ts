// User rules and grants: persisted allow/ask/deny decisions that match tool calls by tool, category, command, path or host.
// Precedence: a per-tool rule beats a category rule beats a `*` rule; within one level deny beats ask beats allow.
import type { Access, SkillIdentity, ToolCall } from './types.js';
import type { Effect, NewRule, Rule } from '../store/index.js';
import { english, isInside, relPosix, say, type Said, type WordCode } from '../base/index.js';
import { globMatcher } from '../base/index.js';
import { joinWords, parseCommandLine, quoteWord, ruleWords, type ParsedLine } from './shell.js';
import { hostCovers, normalizeHost } from './hosts.js';
import { COMMAND_TOOLS } from './tool-table.js';
import { inertOf, riskyArgument } from './inert.js';

export const CATEGORIES = ['@read', '@write', '@execute', '@network'] as const;

/** The category a call falls in, from what it touches (strongest first). */
export function categoryOf(access: Access): (typeof CATEGORIES)[number] | '@meta' {
  if (access.command !== undefined) return '@execute';
  if (access.network) return '@network';
  if (access.write?.length) return '@write';
  if (access.read?.length) return '@read';
  return '@meta';
}

/** Collapse whitespace and drop leading `VAR=value` assignments (for storing deny rules and showing lines). */
function normalizeCommand(s: string): string {
  let t = s.trim().replace(/\s+/g, ' ');
  while (/^[A-Za-z_][A-Za-z0-9_]*=\S* /.test(t)) t = t.replace(/^[A-Za-z_][A-Za-z0-9_]*=\S* /, '');
  return t;
}

/** The simple commands a line runs directly, as text (for messages); a line the parser refuses is one segment. */
export function commandSegments(cmd: string): string[] {
  const p = parseCommandLine(cmd);
  const top = p.commands.filter((c) => c.topLevel);
  if (!p.parsed || top.length === 0) return cmd.trim() ? [normalizeCommand(cmd)] : [];
  return top.map((c) => c.args.map((a) => (a === undefined ? '…' : quoteWord(a))).join(' ')).filter(Boolean);
}

/** The stored scope of a rule made for one skill's scripts: `name@tier:/real/dir`, plus `#hash` when the content is known. */
export function skillScopeKey(id: SkillIdentity): string {
  return `${id.name}@${id.tier ?? '?'}:${id.dir}${id.hash ? `#${id.hash}` : ''}`;
}

/**
 * The scope of an "always" answered while the agent had skills loaded: the agent's calls while every one of these
 * (same tier, folder and content) is loaded. `loaded:` + one skillScopeKey per line.
 */
export const LOADED_PREFIX = 'loaded:';

export function loadedScopeKey(ids: SkillIdentity[]): string {
  return LOADED_PREFIX + [...new Set(ids.map(skillScopeKey))].sort().join('\n');
}

const SCOPE_RE = /^([^@\n]+)@([^:\n]*):([^\n]+?)(?:#([0-9a-f]{8,128}))?$/;
const sameName = (a: string, b: string): boolean =>
  a.normalize('NFKC').toLowerCase() === b.normalize('NFKC').toLowerCase();

/** A stored skill scope read back: a bare name (rules from before identities), one skill's identity, or loaded skills. */
export type SkillScope =
  | { kind: 'name'; name: string }
  | { kind: 'skill'; id: SkillIdentity }
  | { kind: 'loaded'; ids: SkillIdentity[] }
  | { kind: 'unreadable'; text: string };

function parseKey(key: string): SkillIdentity | undefined {
  const m = SCOPE_RE.exec(key);
  if (!m) return undefined;
  const [, name = '', tier = '', dir = '', hash] = m;
  return { name, dir, ...(tier !== '?' && tier !== '' ? { tier } : {}), ...(hash ? { hash } : {}) };
}

export function parseSkillScope(scope: string): SkillScope {
  if (scope.startsWith(LOADED_PREFIX)) {
    const ids = scope.slice(LOADED_PREFIX.length).split('\n').map(parseKey);
    return ids.length && ids.every((i) => i !== undefined)
      ? { kind: 'loaded', ids: ids as SkillIdentity[] }
      : { kind: 'unreadable', text: scope };
  }
  const id = parseKey(scope);
  if (id) return { kind: 'skill', id };
  // A bare name (rules stored before rules were bound to identities): kept and still read, see skillScopeMatches.
  return /[@\n]/.test(scope) ? { kind: 'unreadable', text: scope } : { kind: 'name', name: scope };
}

/** Does a stored identity name this skill? Same name, real folder and tier (when stored); same content when a hash is stored. */
function identityMatches(want: SkillIdentity, id: SkillIdentity): boolean {
  if (!sameName(want.name, id.name) || want.dir !== id.dir) return false;
  if (want.tier !== undefined && want.tier !== id.tier) return false;
  // Bound to content: a skill whose content is unknown right now (changed since its last review) does not match.
  return want.hash === undefined || want.hash === id.hash;
}

/**
 * Does a rule's skill scope name the skill whose script acts? By identity (tier, real folder, content hash), never by
 * name alone. Rules stored before content binding (no hash) still match tier + folder; bare names (older still) match
 * only a user or built-in skill of that name. Scopes made while skills were loaded apply to the agent, not scripts.
 */
function skillScopeMatches(scope: string, id: SkillIdentity | undefined): boolean {
  if (!id) return false;
  const s = parseSkillScope(scope);
  if (s.kind === 'name') return sameName(s.name, id.name) && (id.tier === 'user' || id.tier === 'builtin');
  return s.kind === 'skill' && identityMatches(s.id, id);
}

/** Does a `loaded:` scope hold for the agent: is every skill it names loaded now, with the same identity and content? */
function loadedScopeMatches(scope: string, loaded: SkillIdentity[] | undefined): boolean {
  const s = parseSkillScope(scope);
  return s.kind === 'loaded' && s.ids.every((want) => (loaded ?? []).some((id) => identityMatches(want, id)));
}

const TIER_WORDS: Record<string, WordCode> = { builtin: 'tierBuiltin', user: 'tierUser', project: 'tierProject' };

/** A skill identity for people: `deploy (user tier, /home/u/.workbuddy/skills/deploy, content 0123456789ab)`. */
function skillIdentityWords(id: SkillIdentity, unbound: Said = say('rule.anyContent')): Said {
  const tier = id.tier === undefined ? undefined : TIER_WORDS[id.tier] ? say(TIER_WORDS[id.tier]!) : id.tier;
  return say('rule.identity', {
    name: id.name,
    tier: tier === undefined ? say('rule.anyTier') : say('rule.tier', { tier }),
    dir: id.dir,
    content: id.hash ? say('rule.content', { hash: id.hash.slice(0, 12) }) : unbound,
  });
}

/** A stored skill scope for people (rule listings, decisions): which skill, where, which content. */
function skillScopeWords(scope: string): Said {
  const s = parseSkillScope(scope);
  switch (s.kind) {
    case 'name':
      return say('rule.skillByName', { name: s.name });
    case 'skill':
      return say('rule.skillBound', { identity: skillIdentityWords(s.id, say('rule.anyContentOld')) });
    case 'loaded': {
      const skills = s.ids.map((i) => skillIdentityWords(i)).reduce((a, b) => say('listAndWord', { a, b }));
      return say(s.ids.length > 1 ? 'rule.whileLoadedMany' : 'rule.whileLoaded', { skills });
    }
    default:
      return say('rule.skillUnreadable', { scope });
  }
}

export interface MatchContext {
  /** Real workspace path. */
  workspace: string;
  /** The skill whose script makes the call, if any (its identity, not just its name). */
  skill?: SkillIdentity;
  /** For the agent: the identities of the skills loaded now (`loaded:` scopes match against them). */
  loaded?: SkillIdentity[];
  /** Real paths the call touches (already resolved by the gate). */
  realPaths: string[];
}

/** Does the rule's scope (workspace, skill, path, host) cover the call? Commands are checked separately. */
function scopeMatches(r: Rule, call: ToolCall, ctx: MatchContext): boolean {
  if (r.workspace !== undefined && r.workspace !== ctx.workspace) return false;
  if (r.skill !== undefined) {
    const holds = r.skill.startsWith(LOADED_PREFIX)
      ? loadedScopeMatches(r.skill, ctx.loaded)
      : skillScopeMatches(r.skill, ctx.skill);
    if (!holds) return false;
  }
  if (r.path !== undefined) {
    if (ctx.realPaths.length === 0) return false;
    // Deny and ask rules ignore case (on macOS and Windows `Secrets/` is `secrets/`); an allow never widens that way.
    const m = globMatcher(r.path, { nocase: r.effect !== 'allow' });
    if (!ctx.realPaths.every((p) => isInside(p, ctx.workspace) && m(relPosix(p, ctx.workspace)))) return false;
  }
  if (r.host !== undefined) {
    // Both sides in one spelling: `[::ffff:127.0.0.1]`, `127.1` and `127.0.0.1` are the same host.
    const h = call.access.host === undefined ? undefined : normalizeHost(call.access.host);
    if (!h) return false;
    // As the sandbox's proxy reads it: `*.x` is a strict subdomain of x (hosts.ts hostCovers).
    if (!hostCovers(r.host, h)) return false;
  }
  return true;
}

export interface RuleMatch {
  effect: Effect;
  rule: Rule;
  /** Why, when the rule did not match as written (an ask for a line that may dodge a deny rule); `words` the same. */
  reason?: string;
  words?: Said;
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
  const parsed = cmd === undefined ? undefined : parseCommandLine(cmd);
  let seen: WordList[] | undefined;
  const lists = (): WordList[] => (seen ??= wordLists(cmd ?? '', parsed!));
  for (const level of levels) {
    const scoped = level.filter((r) => scopeMatches(r, call, ctx));
    const deny = scoped.find((r) => r.effect === 'deny' && commandHits(r, cmd, lists));
    if (deny) return { effect: 'deny', rule: deny };
    const ask = scoped.find((r) => r.effect === 'ask' && commandHits(r, cmd, lists));
    if (ask) return { effect: 'ask', rule: ask };
    // A line whose commands cannot be known before it runs (`${x}m`, `base64 -d | bash`) may run what a deny or ask
    // rule names: it asks rather than being allowed.
    for (const r of scoped) {
      if (r.effect === 'allow' || r.command === undefined || cmd === undefined) continue;
      const why = uncertainty(r.command, parsed!);
      if (why) {
        const words = say(r.effect === 'deny' ? 'gate.ruleMayDeny' : 'gate.ruleMayAsk', { rule: ruleSaid(r), why });
        return { effect: 'ask', rule: r, reason: english(words), words };
      }
    }
    const allows = scoped.filter((r) => r.effect === 'allow');
    if (cmd === undefined) {
      const a = allows.find((r) => r.command === undefined);
      if (a) return { effect: 'allow', rule: a };
      continue;
    }
    // A rule allowing the tool with no command pattern is a blanket grant you chose: it covers any command line.
    const blanket = allows.find((r) => r.command === undefined);
    if (blanket) return { effect: 'allow', rule: blanket };
    // A command is allowed only when the line is plain words and every simple command in it is covered.
    if (allows.length === 0 || !parsed || parsed.notPlain !== undefined || parsed.commands.length === 0) continue;
    const used: Rule[] = [];
    const covered = parsed.commands.every((c) => {
      const r = c.words && allows.find((a) => a.command !== undefined && allowCovers(c.words!, a.command));
      if (r && !used.includes(r)) used.push(r);
      return r !== undefined;
    });
    if (covered && used[0]) return { effect: 'allow', rule: used[0], rules: used };
  }
  return undefined;
}

/** Deny/ask rules with a command match anywhere in the line: any command, nested or run by another program. */
function commandHits(r: Rule, cmd: string | undefined, lists: () => WordList[]): boolean {
  if (r.command === undefined) return true;
  if (cmd === undefined || cmd.trim() === '') return false;
  const want = ruleWords(r.command);
  return want.length > 0 && lists().some((l) => denyMatches(want, l.words));
}

/** Literal-word fallback for what the parser cannot read: quotes and backslashes dropped, split on shell punctuation. */
function roughWords(line: string): string[] {
  return line
    .replace(/['"\\]/g, '')
    .split(/[\s;&|()<>`$={}]+/)
    .filter(Boolean);
}

/** One list of words a deny/ask rule is matched against (the program anywhere in it, see denyMatches). */
interface WordList {
  words: string[];
}

/**
 * May this simple command (its words without assignments) run code given as an argument, or stand for another
 * program? Anything not known to be inert: shells and interpreters, runners (`xargs`, `env`, `sudo`, `find`),
 * `sed`/`awk`, `git -c …`, a path to a program, a program nobody has looked at.
 */
function mayRunArguments(args: string[]): boolean {
  return exactOnly(args);
}

/**
 * Every word list a deny/ask rule must look at. A line of plain words where no command runs its arguments as code
 * is matched by each command's own words (its argv): `git commit -m "rm -rf is bad"` runs git, not rm. Anywhere
 * else the match stays conservative: each simple command anywhere in the line (a word that is not literal left
 * out), the commands inside every literal argument read as a command line (`bash -c "…"`, `echo "…" | sh`,
 * `python -c "…"`), and a rough split of the raw text.
 */
function wordLists(line: string, parsed: ParsedLine, depth = 0): WordList[] {
  const plain =
    parsed.parsed &&
    parsed.notPlain === undefined &&
    parsed.commands.length > 0 &&
    parsed.commands.every((c) => c.words !== undefined);
  if (plain && !parsed.commands.some((c) => mayRunArguments(c.args as string[]))) {
    return parsed.commands.map((c) => ({ words: c.words! }));
  }
  const out: WordList[] = [{ words: roughWords(line) }];
  for (const c of parsed.commands) {
    out.push({ words: c.args.map((a) => a ?? '\0') });
    // What bash runs: braces expanded, $'…' decoded (`{rm,-rf,x}`, `$'\x72m'`).
    out.push({ words: c.fields.flatMap((f) => f ?? ['\0']) });
    if (depth < 3) {
      for (const a of c.fields.flatMap((f) => f ?? [])) {
        // An argument that is a command line: `bash -c "…"`, `trap '…' EXIT`, and the value of `alias x='…'` or
        // `git -c alias.x='!…'`.
        const eq = a.indexOf('=');
        for (const text of new Set([a, eq >= 0 ? a.slice(eq + 1).replace(/^!/, '') : a, a.replace(/^!/, '')])) {
          if (/[\s;&|`$()]/.test(text)) out.push(...wordLists(text, parseCommandLine(text), depth + 1));
        }
      }
    }
  }
  return out;
}

/** Shells and interpreters (any version suffix): with no operand they run what arrives on their input. */
const READS_PROGRAM = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'mksh',
  'fish',
  'csh',
  'tcsh',
  'busybox',
  'pwsh',
  'python',
  'perl',
  'ruby',
  'node',
  'php',
  'lua',
  'tclsh',
  'wish',
  'osascript',
  'source',
  '.',
]);

function readsProgramFromInput(argv: string[]): boolean {
  const family = programName(argv[0] ?? '').replace(/[\d.]+$/, '');
  if (!READS_PROGRAM.has(family)) return false;
  const rest = argv.slice(1);
  return rest.includes('-') || rest.includes('-s') || rest.every((a) => a.startsWith('-'));
}

/** xargs's options whose value may be the next word (`-n 2`, `--max-args 2`). */
const XARGS_VALUED = new Set(['-a', '-d', '-E', '-I', '-L', '-n', '-P', '-s']);
const XARGS_VALUED_LONG = [
  '--arg-file',
  '--delimiter',
  '--max-args',
  '--max-procs',
  '--max-chars',
  '--process-slot-var',
];

/**
 * For `xargs`, the program and words it runs, to which it adds what it reads from its input (`echo -rf x | xargs rm`
 * runs `rm -rf x`); undefined for any other program.
 */
function argumentsFromInput(argv: string[]): string[] | undefined {
  if (programName(argv[0] ?? '') !== 'xargs') return undefined;
  let i = 1;
  while (i < argv.length && argv[i]!.startsWith('-')) {
    const a = argv[i]!;
    if (a === '--') return argv.slice(i + 1);
    i += XARGS_VALUED.has(a) || XARGS_VALUED_LONG.includes(a) ? 2 : 1;
  }
  return argv.slice(i);
}

/**
 * Why a deny or ask rule cannot be sure it would not match this line, or undefined: the parser's reading is not
 * trustworthy, a command's program is not known before it runs, the denied program (or one that runs its
 * arguments) gets an argument that is not known, a shell reads its commands from its input, or an alias is defined.
 */
function uncertainty(ruleCommand: string, parsed: ParsedLine): string | undefined {
  if (!parsed.parsed) return parsed.notPlain ?? 'the shell parser cannot read it';
  if (parsed.unreliable) return parsed.unreliable;
  const prog = programName(ruleWords(ruleCommand)[0] ?? '');
  for (const c of parsed.commands) {
    if (c.fields.length === 0) continue;
    if (c.fields[0] === undefined) return `the program it runs comes from ${c.unresolved ?? 'an expansion'}`;
    const argv = c.fields.flatMap((f) => f ?? ['\0']);
    const name = programName(argv[0] ?? '');
    if (c.unresolved && (name === prog || mayRunArguments(argv))) return `${quoteWord(argv[0]!)} gets ${c.unresolved}`;
    if (readsProgramFromInput(argv)) return `${quoteWord(argv[0]!)} runs the commands it reads from its input`;
    const added = argumentsFromInput(argv);
    if (added && (added.some((w) => programName(w) === prog) || mayRunArguments(added.length ? added : ['echo'])))
      return `${quoteWord(argv[0]!)} runs ${quoteWord(added[0] ?? 'echo')} with arguments it reads from its input`;
    if (name === 'alias' && argv.length > 1)
      return 'it defines an alias, which can make a later word run another command';
  }
  return undefined;
}

/** Option spellings that mean the same for well-known programs (`rm -R` = `rm -r`, `--force` = `-f`). */
const OPTION_ALIASES: Record<string, Record<string, string>> = {
  rm: { R: 'r', '--recursive': 'r', '--force': 'f' },
  cp: { R: 'r', '--recursive': 'r', '--force': 'f' },
  chmod: { '--recursive': 'R' },
  chown: { '--recursive': 'R' },
  git: { '--force': 'f' },
};

/** The program a word names, for deny rules: any path to it, any case (`/bin/rm`, `RM` on a case-insensitive disk). */
export function programName(word: string): string {
  return (word.slice(word.lastIndexOf('/') + 1) || word).toLowerCase();
}

interface OptionSet {
  shorts: Set<string>;
  longs: string[];
  positional: string[];
}

function optionSet(program: string, words: string[]): OptionSet {
  const aliases = OPTION_ALIASES[program] ?? {};
  const out: OptionSet = { shorts: new Set(), longs: [], positional: [] };
  let ended = false;
  for (const w of words) {
    if (!ended && w === '--') {
      ended = true;
      continue;
    }
    if (!ended && w.startsWith('--') && w.length > 2) {
      const name = w.includes('=') ? w.slice(0, w.indexOf('=')) : w;
      // GNU getopt takes an unambiguous abbreviation (`--rec` is `--recursive`); any prefix counts here.
      const shorts = Object.keys(aliases)
        .filter((k) => k.startsWith('--') && k.startsWith(name))
        .map((k) => aliases[k]!);
      if (shorts.length) shorts.forEach((a) => out.shorts.add(a));
      else out.longs.push(w);
      continue;
    }
    if (!ended && w.startsWith('-') && w.length > 1) {
      for (const ch of w.slice(1)) out.shorts.add(aliases[ch] ?? ch);
      continue;
    }
    out.positional.push(w);
  }
  return out;
}

/**
 * Does a deny/ask rule's command (`rm -rf`) match somewhere in these words? The program by name (any path, quoting,
 * case), the rule's options as a set (`-rf` = `-fr` = `-r -f` = `--recursive --force`), its other words in order.
 */
function denyMatches(rule: string[], words: string[]): boolean {
  const prog = programName(rule[0] ?? '');
  if (!prog) return false;
  const want = optionSet(prog, rule.slice(1));
  for (let i = 0; i < words.length; i++) {
    if (programName(words[i]!) !== prog) continue;
    const have = optionSet(prog, words.slice(i + 1));
    if (![...want.shorts].every((s) => have.shorts.has(s))) continue;
    if (!want.longs.every((l) => have.longs.some((h) => longMatches(l, h)))) continue;
    let j = 0;
    for (const p of have.positional) if (j < want.positional.length && p === want.positional[j]) j++;
    if (j === want.positional.length) return true;
  }
  return false;
}

/** Does a command's long option `h` spell the rule's `l`: itself, with a value, or abbreviated (`--forc`)? */
function longMatches(l: string, h: string): boolean {
  if (h === l) return true;
  if (l.includes('=')) return false;
  const name = h.includes('=') ? h.slice(0, h.indexOf('=')) : h;
  return name === l || (name.length > 2 && l.startsWith(name));
}

/**
 * An allow rule with these words names one exact command: the program is not known to be inert (`python3.11`,
 * `sqlite3`, `rm`, `npm test`, a path to a program, `A=1 ls`), or the words use one of its risky options or operands.
 */
function exactOnly(words: string[]): boolean {
  const inert = inertOf(words);
  return !inert || words.length < inert.prefix || riskyArgument(inert.entry, words.slice(inert.prefix)) !== undefined;
}

/**
 * Does an allow rule's command cover one simple command's words? As a prefix only for programs known to be inert
 * (inert.ts: `git status` covers `git status -s`), and then never their risky options or an output operand
 * (`sort -o`, `--outp`, `uniq IN OUT`); any other rule covers its exact words (`rm -rf build` never covers
 * `rm -rf build ~`, `python3.11` never `python3.11 -c …`). A rule ending in " *" (`python3 tools/gen.py *`) is a
 * prefix you chose explicitly.
 */
export function allowCovers(words: string[], ruleCommand: string): boolean {
  const text = ruleCommand.trim();
  const explicit = text.endsWith(' *');
  const rule = ruleWords(explicit ? text.slice(0, -2) : text);
  if (rule.length === 0 || words.length < rule.length || !rule.every((w, i) => words[i] === w)) return false;
  if (explicit) return true;
  if (words.length === rule.length) return true;
  const inert = inertOf(words);
  return inert !== undefined && riskyArgument(inert.entry, words.slice(inert.prefix)) === undefined;
}

/** True when every command of `line` is plain and covered by the allow rule's command. */
function lineCovered(line: string, ruleCommand: string): boolean {
  const p = parseCommandLine(line);
  return (
    p.notPlain === undefined &&
    p.commands.length > 0 &&
    p.commands.every((c) => c.words !== undefined && allowCovers(c.words, ruleCommand))
  );
}

/**
 * The reusable prefix for "always allow" of one command's words: `git status -s` → `git status`, `ls -la x` → `ls`,
 * for the programs known to be inert. Anything else keeps the whole command (`rm -rf build`, `python3.11 -c …`,
 * `npm test`, `sqlite3 app.db .tables`): a bare program rule would grant whatever its arguments can do.
 */
function prefixOf(words: string[]): string {
  return exactOnly(words) ? joinWords(words) : joinWords(words.slice(0, inertOf(words)!.prefix));
}

/**
 * "Always allow" → the fewest reusable rules: one command prefix per distinct program (not the exact line),
 * one host for network calls, the tool for this workspace for file tools. A command line with any expansion gives
 * no rule at all: it never counts as "the same command" again.
 */
export function generaliseRules(
  call: ToolCall,
  workspace: string,
  effect: Effect = 'allow',
  skill?: string,
): NewRule[] {
  const base: NewRule = { effect, tool: call.tool, workspace, ...(skill ? { skill } : {}) };
  if (call.access.command !== undefined && !COMMAND_TOOLS.has(call.tool)) {
    // Other command-like tools (connector tools that change things) describe their call as a synthetic line:
    // "always" means this tool, "never" this tool too.
    return [base];
  }
  if (call.access.command !== undefined) {
    const p = parseCommandLine(call.access.command);
    if (effect !== 'allow') return [{ ...base, command: normalizeCommand(call.access.command) }];
    if (p.notPlain !== undefined || p.commands.some((c) => !c.words)) return [];
    const prefixes = [...new Set(p.commands.map((c) => prefixOf(c.words!)).filter(Boolean))];
    return prefixes.map((command) => ({ ...base, command }));
  }
  if (call.access.network && call.access.host) return [{ ...base, host: normalizeHost(call.access.host) }];
  return [base];
}

/** True when `a` already covers everything `b` would (so adding `b` would be a redundant one-off). */
export function subsumes(a: NewRule, b: NewRule): boolean {
  if (a.effect !== b.effect || a.tool !== b.tool) return false;
  if (a.workspace !== undefined && a.workspace !== b.workspace) return false;
  if (a.skill !== undefined && a.skill !== b.skill) return false;
  if (a.host !== undefined && a.host !== b.host) return false;
  if (a.path !== undefined && a.path !== b.path) return false;
  if (
    a.command !== undefined &&
    (b.command === undefined ||
      !(a.effect === 'allow'
        ? lineCovered(b.command, a.command)
        : denyMatches(ruleWords(a.command), ruleWords(b.command))))
  )
    return false;
  return true;
}

/** A rule for people, as words: `allow bash command "git status" in /ws` (Settings → rules, the gate's reasons). */
export function ruleSaid(r: NewRule | Rule): Said {
  const parts: Said[] = [say('rule.head', { effect: say(`rule.${r.effect}` as WordCode), tool: r.tool })];
  if (r.command !== undefined) parts.push(say('rule.command', { command: r.command }));
  if (r.path !== undefined) parts.push(say('rule.path', { path: r.path }));
  if (r.host !== undefined) parts.push(say('rule.host', { host: r.host }));
  if (r.skill !== undefined) parts.push(skillScopeWords(r.skill));
  parts.push(r.workspace !== undefined ? say('rule.in', { workspace: r.workspace }) : say('rule.everywhere'));
  return parts.reduce((a, b) => say('joinSpace', { a, b }));
}

/** A rule's scope as words: the workspace it is limited to (or every workspace), and its skill scope. */
export function ruleScopeSaid(r: NewRule | Rule): Said {
  const where =
    r.workspace !== undefined ? say('rule.scopeWorkspace', { workspace: r.workspace }) : say('rule.scopeAll');
  return r.skill !== undefined ? say('listAnd', { a: where, b: skillScopeWords(r.skill) }) : where;
}

export function describeRule(r: NewRule | Rule): string {
  return english(ruleSaid(r));
}
