// Save as skill: the last task of a conversation drafted as a SKILL.md. The model writes the words (name,
// description, read_when triggers in the conversation's language, the steps); the permissions are not the model's
// to choose: they are read from the tool calls the task really made, the least that lets those calls run again.
import { isAbsolute, relative, sep } from 'node:path';
import type { ChatMessage, ModelProvider } from './providers/types.js';
import { TOOL, toolSpec } from '../policy/index.js';
import { createNameProblems, renderSkillMd } from '../skills/use/index.js';
import { yamlLib } from '../skills/format/index.js';
import { Refusal, say } from '../base/index.js';

export interface MadeCall {
  name: string;
  args: Record<string, unknown>;
}

/** What the model wrote for the draft (the permissions are added from the calls). */
export interface DraftWords {
  name: string;
  description: string;
  readWhen: string[];
  steps: string;
}

/** The permissions block of a SKILL.md, as YAML would hold it. */
export interface DraftPermissions {
  tools: string[];
  network: boolean | string[];
  paths: { read: string[]; write: string[] };
}

/**
 * The tool calls of the conversation's last task: every call after its last user message (the turn the user saves),
 * with a call run through DeferExecuteTool counted as the tool it ran.
 */
export function lastTaskCalls(messages: readonly ChatMessage[]): MadeCall[] {
  let start = 0;
  for (let i = messages.length - 1; i >= 0; i--)
    if (messages[i]!.role === 'user') {
      start = i + 1;
      break;
    }
  const out: MadeCall[] = [];
  for (const m of messages.slice(start)) {
    if (m.role !== 'assistant') continue;
    for (const c of m.toolCalls) {
      let args: Record<string, unknown> = {};
      try {
        const v: unknown = JSON.parse(c.arguments || '{}');
        if (v && typeof v === 'object' && !Array.isArray(v)) args = v as Record<string, unknown>;
      } catch {
        // Malformed arguments: the call is counted, what it touched is not known (it asks for nothing).
      }
      if (c.name === TOOL.DeferExecuteTool && typeof args.name === 'string') {
        const inner = args.arguments;
        out.push({
          name: args.name,
          args: inner && typeof inner === 'object' && !Array.isArray(inner) ? (inner as Record<string, unknown>) : {},
        });
      } else out.push({ name: c.name, args });
    }
  }
  return out;
}

/** The first words of a command line that a rule names (`git log`, `npm test`, `ls`). */
function commandHead(command: string): string | undefined {
  const words = command.trim().split(/\s+/);
  const first = words[0];
  if (!first || !/^[\w./-]+$/.test(first)) return undefined;
  const second = words[1];
  return second && /^[a-z][\w-]*$/.test(second) ? `${first} ${second}` : first;
}

/** A workspace-relative glob for a path argument, or undefined when it lies outside the workspace. */
function workspaceGlob(workspace: string, p: string): string | undefined {
  const abs = isAbsolute(p) ? p : `${workspace}${sep}${p}`;
  const rel = relative(workspace, abs);
  if (rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return rel === '' ? '**' : rel.split(sep).join('/');
}

/** Sorted; a set holding `**` (the whole workspace, as listing its root needs) is just that. */
const sorted = (s: Set<string>) => (s.has('**') ? ['**'] : [...s].sort());

/**
 * The least permissions the calls needed: the tools they used (a command tool limited to the command heads it ran),
 * the workspace paths they read and wrote, and the hosts they fetched from. Harness tools (finding tools and skills)
 * need no grant; skill-making tools are never a skill's.
 */
export function leastPermissions(calls: readonly MadeCall[], workspace: string): DraftPermissions {
  const tools = new Set<string>();
  const read = new Set<string>();
  const write = new Set<string>();
  const hosts = new Set<string>();
  for (const c of calls) {
    const spec = toolSpec(c.name);
    if (spec?.harness || spec?.notForSkills || c.name === TOOL.skill_marketplace) continue;
    const arg = (k: string | undefined) => (k && typeof c.args[k] === 'string' ? (c.args[k] as string) : undefined);
    const command = arg(spec?.args?.command);
    const head = command ? commandHead(command) : undefined;
    tools.add(command !== undefined ? (head ? `${c.name}(${head}:*)` : c.name) : c.name);
    const r = arg(spec?.args?.read);
    const w = arg(spec?.args?.write);
    const rg = r ? workspaceGlob(workspace, r) : undefined;
    const wg = w ? workspaceGlob(workspace, w) : undefined;
    if (rg) read.add(rg);
    if (wg) write.add(wg);
    const url = arg(spec?.args?.url);
    if (url)
      try {
        hosts.add(new URL(url).hostname);
      } catch {
        // Not a URL: nothing to grant.
      }
  }
  return {
    tools: sorted(tools),
    network: hosts.size ? sorted(hosts) : false,
    paths: { read: sorted(read), write: sorted(write) },
  };
}

/** True when the user wrote in Chinese (the triggers are asked in that language). */
function writesChinese(messages: readonly ChatMessage[]): boolean {
  const said = messages
    .filter((m): m is Extract<ChatMessage, { role: 'user' }> => m.role === 'user')
    .map((m) => m.text)
    .join('\n');
  return /[\u3400-\u9fff]/.test(said);
}

const DRAFT_INSTRUCTION = (chinese: boolean) =>
  'Turn the task we just finished into a reusable skill. Answer with one JSON object only, no prose and no code fence:\n' +
  '{"name": "lowercase-hyphenated-name", "description": "what it does and when to use it (one or two sentences)", ' +
  '"read_when": ["short phrases a user would say to ask for this task again"], ' +
  '"steps": "numbered Markdown steps another agent follows to do the task again"}\n' +
  `Write the description, read_when phrases and steps in ${chinese ? 'Chinese (中文)' : 'English'}, the language of the conversation.`;

/** The JSON object in the model's answer (it may wrap it in a fence or a sentence). */
function parseDraftWords(text: string): DraftWords {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) throw new DraftError(say('draft.noJson', { detail: text.slice(0, 200) }));
  let v: unknown;
  try {
    v = JSON.parse(text.slice(start, end + 1));
  } catch (e) {
    throw new DraftError(say('draft.badJson', { detail: (e as Error).message }));
  }
  const o = (v ?? {}) as Record<string, unknown>;
  const str = (k: string) => (typeof o[k] === 'string' ? (o[k] as string).trim() : '');
  const name = str('name')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  const readWhen = Array.isArray(o.read_when)
    ? o.read_when.filter((x): x is string => typeof x === 'string' && x.trim() !== '').map((x) => x.trim())
    : [];
  const words = { name, description: str('description'), readWhen: readWhen.slice(0, 16), steps: str('steps') };
  const missing = (['name', 'description', 'steps'] as const).filter((k) => !words[k]);
  if (missing.length) throw new DraftError(say('draft.missing', { fields: missing.join(', ') }));
  const bad = createNameProblems(words.name);
  if (bad.length) throw new DraftError(say('draft.badName', { name: words.name, detail: bad.join('; ') }));
  return words;
}

/** The SKILL.md text of a draft: the model's words, the permissions the calls needed, `agent_created: true`. */
function draftText(words: DraftWords, permissions: DraftPermissions): string {
  const text = renderSkillMd({
    name: words.name,
    description: words.description,
    body: words.steps,
    readWhen: words.readWhen,
  });
  // The permissions go in before agent_created (renderSkillMd's order otherwise), written by the YAML library.
  const [, fm, body] = /^---\n([\s\S]*?)---\n([\s\S]*)$/.exec(text)!;
  const doc = yamlLib().parseDocument(fm!);
  doc.delete('agent_created');
  doc.set('permissions', permissions);
  doc.set('agent_created', true);
  return `---\n${doc.toString({ lineWidth: 0 })}---\n${body}`;
}

/** Ask the model for the draft's words (no tools), from the conversation so far. Throws the provider's error. */
async function draftSkillWords(
  provider: ModelProvider,
  messages: readonly ChatMessage[],
  signal?: AbortSignal,
): Promise<DraftWords> {
  let text = '';
  const req = {
    system: { stable: 'You turn finished agent tasks into reusable skills (SKILL.md).', dynamic: '' },
    tools: [],
    messages: [...messages, { role: 'user' as const, text: DRAFT_INSTRUCTION(writesChinese(messages)) }],
    maxTokens: 2048,
    ...(signal ? { signal } : {}),
  };
  for await (const ev of provider.stream(req)) if (ev.type === 'text') text += ev.text;
  return parseDraftWords(text);
}

/** A drafted skill: its SKILL.md text and how many tool calls of the last task it was drafted from. */
export interface SkillDraft {
  text: string;
  calls: number;
}

/**
 * Draft the conversation's last task as a skill: the model writes the words, the permissions are the least its tool
 * calls needed in `workspace`. Throws when the last task made no tool calls, or with the provider's error.
 */
export async function draftSkill(
  provider: ModelProvider,
  messages: readonly ChatMessage[],
  workspace: string,
  signal?: AbortSignal,
): Promise<SkillDraft> {
  const calls = lastTaskCalls(messages);
  if (calls.length === 0) throw new NoStepsError();
  const words = await draftSkillWords(provider, messages, signal);
  return { text: draftText(words, leastPermissions(calls, workspace)), calls: calls.length };
}

/** The last task made no tool calls: nothing to save as a skill. */
export class NoStepsError extends Refusal {
  constructor() {
    super(say('draft.noSteps'));
  }
}

/** The model's draft is not what was asked for: why, as words (what the model or the parser said, verbatim). */
class DraftError extends Refusal {}
