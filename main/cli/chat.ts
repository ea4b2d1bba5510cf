// `knack chat`: a conversation on the terminal over the agent (streamed text, tool calls, approvals asked here),
// `--once` for one message, `--json` for event lines; with no model configured it is the offline inspector.
import { createInterface, type Interface } from 'node:readline/promises';
import { CliError, stringFlag, type Command, type CommandContext } from './command.js';
import { openWorkspaceFor } from './workspace.js';
import type { KnackWorkspace } from '../core/workspace.js';
import {
  addTurnUsage,
  Agent,
  describeUsage,
  ProviderError,
  PRESETS,
  type AgentEvent,
  type ChatSession,
  type PendingApproval,
  type TurnResult,
  type TurnUsage,
} from '../core/agent/index.js';
import { decisionLines } from '../core/policy/index.js';
import { TOOL } from '../core/policy/index.js';
import { displaySafe, invisibleClass } from '../core/policy/index.js';
import { proposalIn } from '../core/skills/use/index.js';
import { saveSkill } from './save-skill.js';
import { english, say } from '../core/base/index.js';

const OPTIONS = {
  once: { type: 'string' as const },
  provider: { type: 'string' as const },
  model: { type: 'string' as const },
  'base-url': { type: 'string' as const },
  session: { type: 'string' as const },
  yes: { type: 'boolean' as const, short: 'y' },
  plan: { type: 'boolean' as const },
  offline: { type: 'boolean' as const },
  'max-steps': { type: 'string' as const },
};

const OFFLINE_LABEL =
  "[offline inspector] No model is set up: set ANTHROPIC_API_KEY (or another provider's key, or --provider NAME; `knack chat providers` lists them); showing what would go to the model";

/** What `--once` prints when no model answered: a message sent with no model set up went nowhere. */
const NO_MODEL_LINE =
  'knack chat: No model is set up, so the message was not answered (set a key, or use --offline for the inspector alone)';

/** Controls, bidi controls and tag characters: blanked in one-line summaries (the shared table, preload/display.ts). */
const SHORT_UNSAFE = invisibleClass(['control', 'bidi', 'tag']);

function short(v: unknown, max = 160): string {
  const s = typeof v === 'string' ? v : (JSON.stringify(v) ?? '');
  const flat = s.replace(SHORT_UNSAFE, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Human rendering of events: text on stdout as it streams, everything else one line on stderr. */
function renderer(ctx: CommandContext): (e: AgentEvent) => void {
  const write = (t: string): void => (ctx.io.write ? ctx.io.write(t) : ctx.io.out(t));
  let midLine = false;
  // Usage of the current turn (a turn may take several model calls).
  let turn: TurnUsage | undefined;
  const line = (t: string): void => {
    if (midLine) write('\n');
    midLine = false;
    ctx.io.err(t);
  };
  return (e) => {
    switch (e.type) {
      case 'text_delta':
        write(e.text);
        midLine = !e.text.endsWith('\n');
        break;
      case 'assistant_end':
        if (e.interrupted) line('  (interrupted)');
        else if (midLine) {
          write('\n');
          midLine = false;
        }
        break;
      case 'skill_loaded':
        line(`· skill ${e.name} loaded (${e.reason}: ${e.why}, ${e.tokens} tokens)`);
        break;
      case 'skill_unloaded':
        line(`· skill ${e.name} unloaded: ${e.reason}`);
        break;
      case 'tools_discovered':
        line(`· found tools: ${e.names.join(', ')}`);
        break;
      case 'tool_call':
        line(`→ ${e.name} ${short(e.arguments)}`);
        break;
      case 'gate_decision':
        // The rule that denied, its scope, the acting skill and the real paths, as the approval prompt shows them.
        if (e.verdict === 'deny')
          for (const l of [`  ✗ denied: ${displaySafe(e.reason)}`, ...decisionLines(e).map((f) => `    ${f}`)]) line(l);
        break;
      case 'tool_result': {
        line(e.ok ? `  ✓ ${e.name} (${e.durationMs} ms)` : `  ✗ ${e.name}: ${short(e.content)}`);
        // An install the model proposed (skill_marketplace): shown, never run; the user reviews it with this command.
        const p = e.ok ? proposalIn(e.content) : undefined;
        if (p) {
          line(
            `  → proposed skill ${displaySafe(p.skill ?? p.plugin)}${p.level ? ` (${p.level})` : ''} from ${displaySafe(p.marketplaceName)}: ${displaySafe(p.description).slice(0, 160)}`,
          );
          line(`    review and install it with: ${displaySafe(p.command)}`);
        }
        break;
      }
      case 'approval_answered':
        line(
          `  approval: ${e.answer}${e.message ? ` (${e.message})` : ''}${e.rules?.length ? ` — stored: ${e.rules.join('; ')}` : ''}`,
        );
        break;
      case 'model_retry':
        line(`· ${english(say('turnRetrying', { attempt: e.attempt, of: e.of }))}`);
        break;
      case 'compaction':
        line(`· compacted ${e.compactedMessages} older messages (${e.tokensBefore} → ${e.tokensAfter} tokens)`);
        break;
      case 'error':
        line(`error: ${e.message}`);
        break;
      case 'recovered':
        line(
          `· session recovered${e.interruptedAnswer ? ': the last answer was interrupted' : ''}${e.pendingApprovals ? `, ${e.pendingApprovals} approval(s) pending` : ''}`,
        );
        break;
      case 'skill_offer':
        line(
          `· this task used ${e.toolCalls} tool calls (${e.tools.join(', ')}): type /save-skill to save it as a skill`,
        );
        break;
      case 'plan_mode':
        line(`· plan mode ${e.on ? 'on (read-only)' : 'off'}`);
        break;
      case 'user_message':
        turn = undefined;
        break;
      case 'usage': {
        turn = addTurnUsage(turn, e);
        break;
      }
      case 'turn_end':
        if (turn) line(`· ${describeUsage(turn.usage, turn.cost, turn.sessionCost)}`);
        turn = undefined;
        break;
      default:
        break;
    }
  };
}

/** Ask on the terminal: once / always (the rule is shown first) / deny (with an optional message). */
/** Lines from the terminal, buffered (typed-ahead or pasted lines are never lost between questions). */
interface LineReader {
  ask(prompt: string): Promise<string | undefined>;
  close(): void;
}

function lineReader(ctx: CommandContext): LineReader {
  const rl: Interface = createInterface({
    input: process.stdin,
    output: process.stderr,
    terminal: process.stdin.isTTY === true,
  });
  const it = rl[Symbol.asyncIterator]();
  return {
    async ask(prompt) {
      ctx.io.err(prompt.trimEnd());
      const r = await it.next();
      return r.done ? undefined : String(r.value);
    },
    close: () => rl.close(),
  };
}

async function askTerminal(
  rl: LineReader | undefined,
  ctx: CommandContext,
  p: PendingApproval,
): Promise<{ kind: 'once' | 'always' | 'deny'; message?: string }> {
  const gate = decisionLines(p.decision ?? {})
    .map((l) => `\n  ${l}`)
    .join('');
  // "Always" is offered only when a reusable rule can cover the call (as the window disables its button).
  const always = p.alwaysPreview.length > 0;
  // Every string that comes from the model's call is escaped (a CR or an escape sequence could overdraw the rule shown).
  const store = always
    ? `always would store: ${p.alwaysPreview.map(displaySafe).join('; ')}`
    : 'always: no rule can cover this call (answer once or deny)';
  ctx.io.err(
    `? ${p.tool} ${short(p.args, 400)}\n  why: ${displaySafe(p.reason)}${gate}${p.activeSkills.length ? `\n  active skills: ${p.activeSkills.map(displaySafe).join(', ')}` : ''}\n  ${store}`,
  );
  if (!rl) {
    if (ctx.io.confirm)
      return (await ctx.io.confirm(`allow ${p.tool} once?`))
        ? { kind: 'once' }
        : { kind: 'deny', message: 'declined on the terminal' };
    return { kind: 'deny', message: 'no terminal to ask (use --yes to allow asks once)' };
  }
  for (;;) {
    const got = await rl.ask(always ? '  allow [o]nce, [a]lways, [d]eny?' : '  allow [o]nce, [d]eny?');
    if (got === undefined) return { kind: 'deny', message: 'the terminal closed' };
    const a = got.trim().toLowerCase();
    if (a === 'o' || a === 'once' || a === 'y' || a === 'yes') return { kind: 'once' };
    if (a === 'a' || a === 'always') {
      if (always) return { kind: 'always' };
      ctx.io.err('  nothing to store for "always": answer once or deny');
      continue;
    }
    if (a === 'd' || a === 'deny' || a === 'n' || a === 'no' || a === '') {
      const message = ((await rl.ask('  message for the model (optional):')) ?? '').trim();
      return { kind: 'deny', ...(message ? { message } : {}) };
    }
  }
}

async function inspect(ctx: CommandContext, ws: KnackWorkspace, chat: ChatSession, text?: string): Promise<void> {
  if (text) {
    const matches = ws.matcher().match(text);
    ctx.io.out(matches.length ? `matched: ${matches.map((m) => m.name).join(', ')}` : 'matched: no skill');
  }
  const loaded = chat.loadedSkills();
  ctx.io.out(
    `loaded skills: ${loaded.length ? loaded.map((s) => `${s.name} (${s.reason}, ${s.tokens} tokens)`).join(', ') : 'none'}`,
  );
  const s = await chat.contextSections();
  ctx.io.out(
    `prompt: ${s.total} tokens of ${s.window} — system ${s.system}, project instructions ${s.instructions}, catalog ${s.catalog}, skills ${s.skills}, tools ${s.tools}, history ${s.history}, observations ${s.observations}`,
  );
}

const SLASH = new Set([
  'exit',
  'quit',
  'skills',
  'load',
  'unload',
  'tools',
  'search',
  'run',
  'context',
  'plan',
  'save-skill',
  'help',
]);

async function slash(
  ctx: CommandContext,
  ws: KnackWorkspace,
  chat: ChatSession,
  input: string,
  rl: LineReader,
): Promise<boolean> {
  const [cmd, ...rest] = input.slice(1).split(/\s+/);
  const arg = rest.join(' ').trim();
  switch (cmd) {
    case 'exit':
    case 'quit':
      return false;
    case 'skills':
      for (const e of ws.catalog.enabled())
        ctx.io.out(`${e.manifest.name} (${e.tier}): ${short(e.manifest.description, 100)}`);
      break;
    case 'load': {
      const r = await chat.loadSkill(arg);
      ctx.io.out(r.ok ? `loaded: ${r.loaded.join(', ') || '(already loaded)'}` : `cannot load: ${r.message}`);
      break;
    }
    case 'unload':
      ctx.io.out((await chat.unloadSkill(arg)) ? `unloaded ${arg}` : `${arg} is not loaded`);
      break;
    case 'tools': {
      const t = await chat.toolList();
      for (const v of t.visible) ctx.io.out(`${v.name}${v.discovered ? ' (found)' : ''}: ${v.summary}`);
      ctx.io.out(`${t.deferred.length} deferred tools (ToolSearch finds them)`);
      break;
    }
    case 'search': {
      const skills = await chat.runTool(TOOL.SkillSearch, { query: arg || ' ' });
      ctx.io.out(`skills: ${short(skills.ok ? skills.content : skills.error.message, 600)}`);
      const box = await ws.toolbox();
      ctx.io.out(
        `tools: ${
          box.index
            .search(arg, 5)
            .tools.map((t) => t.name)
            .join(', ') || 'none'
        }`,
      );
      break;
    }
    case 'run': {
      const [skill, script] = rest;
      if (!skill || !script) ctx.io.out('usage: /run SKILL SCRIPT');
      else {
        const r = await chat.runTool(TOOL.run_skill_script, { skill, script });
        ctx.io.out(short(r.ok ? r.content : r.error.message, 2000));
      }
      break;
    }
    case 'context':
      await inspect(ctx, ws, chat);
      for (const p of await chat.projection())
        ctx.io.out(
          `  ${p.kind} ${p.name}${p.path ? `/${p.path}` : ''}: ${p.reason}${p.tokens ? ` (${p.tokens} tokens)` : ''}`,
        );
      break;
    case 'plan':
      chat.setPlanMode(arg !== 'off');
      break;
    case 'save-skill':
      await saveSkill(ctx, ws, chat, arg, (q) => rl.ask(q));
      break;
    default:
      ctx.io.out(
        'commands: /skills /load NAME /unload NAME /tools /search QUERY /run SKILL SCRIPT /context /plan [on|off] /save-skill [user|project] /exit',
      );
  }
  return true;
}

function maxSteps(ctx: CommandContext): number | undefined {
  const v = stringFlag(ctx, 'max-steps');
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 200)
    throw new CliError(`--max-steps: expected a whole number from 1 to 200, got "${v}"`);
  return n;
}

const chat: Command = {
  path: ['chat'],
  summary:
    'Talk to the agent: skills auto-load, tools run through the gate, approvals are asked here. No model configured: the offline inspector.',
  usage:
    '[--once "MESSAGE"] [--provider anthropic|openai|PRESET] [--model NAME] [--base-url URL] [--session ID] [--yes] [--plan] [--offline] [--json]',
  options: OPTIONS,
  maxPositionals: 0,
  async run(ctx) {
    const once = stringFlag(ctx, 'once');
    const steps = maxSteps(ctx);
    // The sandbox starts as the workspace opens: loaded before the model's first answer streams, not in it.
    const ws = await openWorkspaceFor(ctx, { requireStore: true, startWall: true });
    // Without --once the chat reads lines from stdin: a terminal, or a pipe (scripts and tests type into it the same way).
    const interactive = once === undefined;
    let rl: LineReader | undefined;
    try {
      let agent: Agent;
      try {
        const provider = stringFlag(ctx, 'provider');
        const model = stringFlag(ctx, 'model');
        const baseURL = stringFlag(ctx, 'base-url');
        agent = Agent.create(ws, {
          ...(provider || model || baseURL
            ? {
                provider: {
                  ...(provider ? { provider } : {}),
                  ...(model ? { model } : {}),
                  ...(baseURL ? { baseURL } : {}),
                },
              }
            : {}),
          autoApprove: ctx.values.yes === true,
          offline: ctx.values.offline === true,
          ...(steps ? { maxSteps: steps } : {}),
        });
      } catch (e) {
        // The provider named (or set as default) cannot be used: unknown, no base URL or model, no key.
        if (e instanceof ProviderError) throw new CliError(`No model is set up: ${e.message}`);
        throw e;
      }
      for (const w of agent.warnings) ctx.io.err(`warning: ${english(w)}`);
      const session = stringFlag(ctx, 'session');
      let chatSession: ChatSession;
      try {
        chatSession = session ? agent.openSession(session) : agent.newSession({ planMode: ctx.values.plan === true });
      } catch (e) {
        throw new CliError((e as Error).message);
      }
      if (session && ctx.values.plan) chatSession.setPlanMode(true);
      if (interactive) {
        rl = lineReader(ctx);
        // The user is about to type in a reopened chat: open its tools meanwhile (a failure shows on the first turn).
        if (session) chatSession.ready().catch(() => undefined);
      }
      const show = ctx.json ? (e: AgentEvent) => ctx.io.out(JSON.stringify(e)) : renderer(ctx);
      chatSession.on(show);
      // --yes answers every ask once, the ones asked again after a crash too (the session answers new ones itself).
      const yes = ctx.values.yes === true;
      const ask = async (p: PendingApproval): Promise<{ kind: 'once' | 'always' | 'deny'; message?: string }> =>
        yes ? { kind: 'once', message: 'approved by --yes' } : askTerminal(rl, ctx, p);
      chatSession.on((e) => {
        if (e.type !== 'approval_requested' || yes) return;
        void askTerminal(rl, ctx, e).then((a) => chatSession.answer(e.approvalId, a));
      });
      if (!ctx.json) {
        if (agent.offline) ctx.io.err(OFFLINE_LABEL);
        else
          ctx.io.err(
            `· ${agent.provider!.id} / ${agent.provider!.model} · session ${chatSession.id.slice(0, 8)}${chatSession.planMode ? ' · plan mode' : ''}`,
          );
      }
      // Re-asked approvals of a recovered session: answer them, then wait for the resumed turn.
      for (const p of chatSession.pendingApprovals()) {
        if (yes && !ctx.json)
          ctx.io.err(`? ${p.tool} ${short(p.args, 400)}\n  asked again after a restart: allowed once by --yes`);
        chatSession.answer(p.approvalId, await ask(p));
      }
      await chatSession.idle();
      if (once !== undefined) {
        const r = await chatSession.send(once);
        if (agent.offline && !ctx.json) await inspect(ctx, ws, chatSession, once);
        if (agent.offline && ctx.values.offline !== true) {
          ctx.io.err(NO_MODEL_LINE);
          return 2;
        }
        return exitCode(ctx, r);
      }
      if (!rl)
        throw new CliError('no input for an interactive chat: use --once "MESSAGE" (and --yes to allow asks once)');
      const onSigint = (): void => {
        if (chatSession.busy) chatSession.stop();
        else rl?.close();
      };
      process.on('SIGINT', onSigint);
      try {
        for (;;) {
          const line = await rl.ask('>');
          if (line === undefined) break; // closed (Ctrl-D / Ctrl-C at the prompt)
          const input = line.trim();
          if (!input) continue;
          // `/name` of a skill goes to the model (it names the skill); the inspector's own commands run here.
          if (SLASH.has(input.slice(1).split(/\s/)[0] ?? '')) {
            if (!(await slash(ctx, ws, chatSession, input, rl))) break;
            continue;
          }
          const r = await chatSession.send(input);
          if (agent.offline) await inspect(ctx, ws, chatSession, input);
          if (r.error) ctx.io.err(`error: ${r.error.message}`);
        }
      } finally {
        process.off('SIGINT', onSigint);
      }
      return 0;
    } finally {
      rl?.close();
      await ws.close();
    }
  },
};

/** How a turn that did not finish ended, in words: the last line `knack chat --once` prints before exiting non-zero. */
const END_WORDS: Record<Exclude<TurnResult['reason'], 'end_turn' | 'offline'>, string> = {
  interrupted: 'the answer was interrupted (the connection was lost before it was complete)',
  timeout: 'the answer timed out (the model sent nothing for too long)',
  error: 'the answer failed',
  cancelled: 'the answer was stopped',
  max_steps: 'the turn reached its step limit (--max-steps)',
  max_tokens: 'the answer reached its length limit',
};

/**
 * 0 for a finished answer; otherwise 1 with a line saying how the turn ended, the provider's reason after it (the
 * text that came before an interruption is kept, in the session: `knack chat --session ID` goes on from there).
 */
function exitCode(ctx: CommandContext, r: TurnResult): number {
  if (r.reason === 'end_turn' || r.reason === 'offline') return 0;
  // The error's own line was printed as it happened (its event); --json prints events as JSON, so it is said here.
  const why = ctx.json && r.error && r.error.message !== 'cancelled' ? `: ${r.error.message}` : '';
  ctx.io.err(`knack chat: ${END_WORDS[r.reason]}${why}`);
  return 1;
}

const providers: Command = {
  path: ['chat', 'providers'],
  summary:
    'The provider presets (base URL, default model, context window, key variable); add your own in providers.json.',
  usage: '[--json]',
  maxPositionals: 0,
  async run(ctx) {
    if (ctx.json) {
      ctx.io.out(JSON.stringify(PRESETS, null, 2));
      return 0;
    }
    for (const p of PRESETS)
      ctx.io.out(
        `${p.id.padEnd(11)} ${p.kind.padEnd(9)} ${p.defaultModel.padEnd(28)} ${String(p.contextWindow).padStart(8)}  ${p.keyOptional ? '(no key needed)' : p.keyEnv.join(' or ')}  ${p.baseURL ?? ''}`,
      );
    return 0;
  },
};

export const chatCommands: Command[] = [chat, providers];
