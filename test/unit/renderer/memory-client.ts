// A typed in-memory KnackClient for component tests only (the app always uses the contract client).
// Holds plain data, records calls, lets a test push chat events and make any method fail. Contract methods are answered
// by `handlers` through the contract's own client, so what they answer and what a test emits is checked against it.
import { createClient } from '../../../preload/client';
import {
  contractError,
  methods,
  type EventName,
  type EventPayload,
  type MethodArgs,
  type MethodName,
  type MethodOutput,
  wordedError,
} from '../../../preload/contract';
import { english, say, type Said } from '../../../preload/words';
import type { KnackClient } from '../../../renderer/src/api/client';
import { useView } from '../../../renderer/src/state/store';
import type { BrokenSkill } from '../../../renderer/src/state/skills';
import type {
  AuditFinding,
  AuditReport,
  AuditState,
  InstallOutcome,
  SkillDetail,
  SkillSummary,
  PolicyRule,
  SettingsView,
  ContextView,
  LoadedSkill,
  McpEntry,
  McpServerStatus,
  Permissions,
  ModelChoices,
  SandboxStatus,
  SessionHit,
  SessionMeta,
  ToolInfo,
  TranscriptItem,
  WorkspaceInfo,
} from '../../../preload/contract';

/** A skill as skills.list sends it: built in, on, audited clean, unless given. */
export function skill(name: string, p: Partial<SkillSummary> = {}): SkillSummary {
  return {
    name,
    description: `${name} does things`,
    tier: 'builtin',
    source: 'workbuddy',
    dir: `/skills/${name}`,
    file: `/skills/${name}/SKILL.md`,
    enabled: true,
    shadows: [],
    diagnostics: [],
    audit: { status: 'clean', findings: 0 },
    triggers: [],
    ...p,
  };
}

/** An audit state: `audited('P1', 'needs-trust')` is a P1 skill waiting for trust. */
export function audited(level: AuditState['level'], status: AuditState['status'] = 'clean'): AuditState {
  return { status, ...(level ? { level } : {}), findings: level === 'P2' || !level ? 0 : 1 };
}

/**
 * An install's outcome as main answers it: its status (with reason, words, approval id) and the audit report of
 * `skill` (P2, no findings, unless given).
 */
export function outcome(
  p: Pick<InstallOutcome, 'status' | 'reason' | 'words' | 'approvalId'> & Partial<AuditReport> & { skill: string },
): InstallOutcome {
  const { status, reason, words, approvalId, ...r } = p;
  return {
    status,
    skill: p.skill,
    ...(reason ? { reason } : {}),
    ...(words ? { words } : {}),
    ...(approvalId ? { approvalId } : {}),
    report: {
      dir: `/tmp/${p.skill}`,
      level: 'P2',
      findings: [],
      contentHash: `hash-${p.skill}`,
      files: 1,
      bytes: 100,
      manifestDiagnostics: [],
      ...r,
    },
  };
}

/** What the fake main answers, per contract method (input with its defaults filled in, as main receives it). */
export type Handlers = {
  [M in MethodName]?: (input: MethodArgs<M>) => MethodOutput<M> | Promise<MethodOutput<M>>;
};

/** What a skill asks for, as an audit report states it (nothing unless given). */
export function asks(p: Partial<Permissions> = {}): Permissions {
  return { tools: [], commands: {}, network: false, read: [], write: [], declared: 'permissions', ...p };
}

/** A provider preset as settings.get lists it (no key anywhere). */
export function preset(
  id: string,
  label: string,
  baseUrl: string,
  defaultModel: string,
  p: Partial<SettingsView['presets'][number]> = {},
): SettingsView['presets'][number] {
  return {
    id,
    label,
    kind: 'openai',
    baseUrl,
    defaultModel,
    contextWindow: 200000,
    keyOptional: false,
    hasKey: false,
    ...p,
  };
}

/** A folder as workspace.open answers it: no skills, no settings problems, a sound database. */
export function folder(path: string, p: Partial<WorkspaceInfo> = {}): WorkspaceInfo {
  const name = path.split('/').filter(Boolean).pop() ?? path;
  return { path, name, skills: { total: 0, enabled: 0, broken: 0 }, diagnostics: [], ...p };
}

/** A stored session's row as main lists it (this workspace, not running). */
export function session(id: string, title: string, p: Partial<SessionMeta> = {}): SessionMeta {
  return {
    id,
    title,
    workspace: '/home/me/alpha',
    createdAt: Date.parse('2026-11-30T08:00:00Z'),
    updatedAt: Date.parse('2026-11-30T10:00:00Z'),
    messages: 2,
    provider: null,
    model: null,
    planMode: false,
    running: false,
    ...p,
  };
}

export interface MemoryClient extends KnackClient {
  /** Every call, by its contract method name (`args`: [input]) or, for the rest, the client's method name. */
  calls: { method: string; args: unknown[] }[];
  /** The fake main's answers, by contract method; a test replaces or adds any. */
  handlers: Handlers;
  /** Push a contract event to the window (checked against the contract first). */
  event<E extends EventName>(name: E, payload: EventPayload<E>): void;
  skills: SkillSummary[];
  /** SKILL.md files that could not be read (skills.list). */
  broken: BrokenSkill[];
  failing: Set<string>;
  /** The conversation main remembers as open, by workspace (sessions.remember / sessions.remembered). */
  remembered: Record<string, string>;
  /** While set, chat.send waits for it (the engine has not answered yet). */
  sendGate?: Promise<void>;
  /** catalog.changed for folder `ws` (default: the open one), with nothing named: the list is read again. */
  catalogChanged(ws?: string): void;
  /** audit.verdict carrying the skill's row. */
  skillChanged(s: SkillSummary): void;
  /** What an install of a path (skills.install) or an uploaded .zip's name (skills.installUpload) answers. */
  installReports: Record<string, InstallOutcome>;
  /** Audit findings skills.show reports, by skill name. */
  findings: Record<string, AuditFinding[]>;
  /** What context.get answers (loaded skills, sections, what was left out, tokens spent). */
  context: ContextView;
  /** What settings.get answers (the provider in use, the presets with where their keys come from, the ceiling). */
  settings: SettingsView;
  /** The stored rules (rules.list, rules.remove). */
  rules: PolicyRule[];
  tools: ToolInfo[];
  servers: McpServerStatus[];
  /** The stored sessions, newest first (sessions.list, .search, .rename, .delete). */
  sessions: SessionMeta[];
  /** What chat.models answers (chat.setModel changes `current`). */
  modelChoices: ModelChoices;
  /** What a search answers for a query (absent: the sessions whose title holds it, as title hits). */
  searchHits: Record<string, SessionHit[]>;
  /** What sandbox.status answers. */
  sandbox: SandboxStatus;
  /** The conversation chat.switchVersion answers with. */
  versionItems: TranscriptItem[];
  /** The key testConnection accepts (as the provider would); any other stored key is refused with a 401. */
  goodKey: string;
  /** The key setApiKey stored last, per preset (the test's stand-in for the key store). */
  keys: Record<string, string>;
  /** The servers of the mcp.json files (mcp.list; mcp.save, mcp.remove and mcp.setEnabled change them). */
  mcpEntries: McpEntry[];
  /** Installs held for approval (skills.pendingInstalls; skills.approveInstall and .rejectInstall decide them). */
  held: MethodOutput<'skills.pendingInstalls'>['items'];
  /** The held copies the workspace's open removed (skills.pendingInstalls `removed`). */
  heldRemoved: string[];
}

export function memoryClient(
  init: Partial<Pick<MemoryClient, 'skills' | 'tools' | 'servers'> & { loaded: LoadedSkill[] }> = {},
): MemoryClient {
  const subscribers = new Set<(name: string, payload: unknown) => void>();
  // Answers or events outside the contract fail the test where they happen.
  const contract = createClient(
    {
      async call(method, input) {
        c.calls.push({ method, args: [input] });
        if (c.failing.has(method))
          return { ok: false, error: contractError('internal', `${method} failed on purpose`) };
        const handler = c.handlers[method] as ((i: unknown) => unknown) | undefined;
        if (!handler) return { ok: false, error: contractError('unknown_method', `no handler for ${method}`) };
        try {
          return { ok: true, value: await handler(methods[method].input.parse(input)) };
        } catch (e) {
          return { ok: false, error: e as ReturnType<typeof contractError> };
        }
      },
      subscribe(listener) {
        subscribers.add(listener);
        return () => void subscribers.delete(listener);
      },
    },
    {
      onContractViolation: (what) => {
        throw new Error(what);
      },
    },
  );
  /** Where preset `id`'s key comes from now, on the preset and on the provider in use. */
  const keyNow = (id: string, source: 'key-store' | 'env' | 'none') => {
    const p = c.settings.presets.find((x) => x.id === id);
    if (p) Object.assign(p, { keySource: source, hasKey: source !== 'none' });
    const inUse = c.settings.provider;
    if (inUse?.preset === id) Object.assign(inUse, { keySource: source, hasKey: source !== 'none' });
  };
  const c = {
    call: contract.call,
    on: contract.on,
    handlers: {
      'skills.list': () => ({ skills: structuredClone(c.skills), broken: structuredClone(c.broken), diagnostics: [] }),
      'skills.show': ({ name }) => {
        const s = c.skills.find((x) => x.name === name);
        if (!s) throw wordedError('not_found', say('trust.notFound', { name }));
        const d: SkillDetail = {
          ...structuredClone(s),
          audit: { ...s.audit, contentHash: `hash-${name}` },
          body: `# ${name}\n\nDo the thing.`,
          resources: ['references/a.md'],
          readWhen: s.triggers,
          dependsOn: [],
          allowedTools: [],
          ...(c.findings[name] ? { report: report(s, c.findings[name]) } : {}),
        };
        return d;
      },
      'skills.setEnabled': ({ name, enabled }) => {
        for (const s of c.skills) if (s.name === name) s.enabled = enabled;
        return structuredClone(c.skills.find((x) => x.name === name)!);
      },
      'skills.trust': ({ name, contentHash }) => {
        if (contentHash !== `hash-${name}`) throw contractError('conflict', `${name} changed since it was shown`);
        const s = c.skills.find((x) => x.name === name)!;
        Object.assign(s, { audit: audited('P1', 'trusted'), enabled: true });
        return structuredClone(s);
      },
      'sources.updates': () => ({ items: [] }),
      'sources.close': () => ({}),
      'tools.list': () => ({ tools: c.tools }),
      'tools.search': ({ query }) => ({
        hits: c.tools
          .filter((t) => t.name.includes(query) || t.summary.includes(query))
          .map((t) => ({ ...t, score: 1 })),
      }),
      'tools.mcpStatus': () => ({ servers: c.servers }),
      'mcp.list': () => ({ servers: c.mcpEntries, status: c.servers, errors: [] }),
      'mcp.save': ({ scope, name, previousName, server }) => {
        c.mcpEntries = c.mcpEntries.filter((x) => x.name !== (previousName ?? name));
        c.mcpEntries.push({
          name,
          scope,
          file: `/data/${scope}/mcp.json`,
          kind: server.kind,
          enabled: true,
          ...(server.command ? { command: server.command } : {}),
          args: server.args ?? [],
          envKeys: (server.env ?? []).map((x) => x.name),
          network: server.network ?? [],
          ...(server.url ? { url: server.url } : {}),
          headerKeys: (server.headers ?? []).map((x) => x.name),
          held: false,
        });
        return { saved: true, tools: ['create_issue'] };
      },
      'mcp.remove': ({ name }) => {
        const before = c.mcpEntries.length;
        c.mcpEntries = c.mcpEntries.filter((x) => x.name !== name);
        return { removed: c.mcpEntries.length < before };
      },
      'mcp.setEnabled': ({ name, enabled }) => {
        c.mcpEntries = c.mcpEntries.map((x) => (x.name === name ? { ...x, enabled } : x));
        return { enabled };
      },
      'sessions.list': () => ({ sessions: c.sessions }),
      'sessions.search': ({ query }) => ({
        hits:
          c.searchHits[query] ??
          c.sessions
            .filter((x) => x.title.toLowerCase().includes(query.toLowerCase()))
            .map((x) => ({ session: x, in: 'title' as const, snippet: [{ text: x.title, hit: true }] })),
      }),
      'sessions.rename': ({ id, title }) => {
        const s = { ...c.sessions.find((x) => x.id === id)!, title };
        c.sessions = c.sessions.map((x) => (x.id === id ? s : x));
        return { session: s };
      },
      'sessions.delete': ({ id }) => {
        c.sessions = c.sessions.filter((x) => x.id !== id);
        return { deleted: true };
      },
      'context.get': ({ sessionId }) => ({ ...c.context, sessionId }),
      // Main remembers per the workspace it has open: the one the window shows.
      'sessions.remember': ({ id }) => {
        const path = useView.getState().workspace?.path ?? '';
        if (id === null) delete c.remembered[path];
        else c.remembered[path] = id;
        return { remembered: id !== null };
      },
      'chat.send': async ({ sessionId }) => {
        if (c.sendGate) await c.sendGate;
        return { sessionId: sessionId ?? 's1', turnId: 'm1' };
      },
      'chat.models': () => c.modelChoices,
      'chat.setModel': ({ sessionId, model, provider }) => {
        c.modelChoices = { ...c.modelChoices, current: model, provider: provider ?? c.modelChoices.provider };
        return { session: session(sessionId, 'First chat', { model, provider: provider ?? null }) };
      },
      'chat.setPlanMode': ({ on }) => ({ planMode: on }),
      'chat.stop': () => ({ stopped: true }),
      'chat.retry': ({ sessionId }) => ({ sessionId, turnId: 'm2' }),
      'chat.regenerate': ({ sessionId }) => ({ sessionId, turnId: 'm3' }),
      'chat.switchVersion': () => ({ items: c.versionItems }),
      'chat.answer': () => ({ ok: true }),
      'sessions.open': ({ id }) => ({
        session: session(id, 'First chat'),
        items: [{ kind: 'user', id: 'u1', text: 'hello again', at: 0 }],
        approvals: [],
      }),
      'sessions.remembered': () => ({ id: c.remembered[useView.getState().workspace?.path ?? ''] ?? null }),
      'chat.unloadSkill': ({ name }) => {
        c.context.loadedSkills = c.context.loadedSkills.filter((l) => l.name !== name);
        return { unloaded: true };
      },
      'skills.trustAll': ({ dryRun }) => {
        const p = c.skills.filter((s) => s.audit.status === 'needs-trust');
        if (!dryRun) for (const s of p) s.audit = { ...s.audit, status: 'trusted' };
        return {
          trusted: p.map((s) => s.name),
          refused: [],
          summary: dryRun ? `${p.length} skills ask for bash` : `${p.length} trusted`,
          groups: [{ rule: 'net.curl', message: 'downloads from the network', count: 3, skills: p.map((s) => s.name) }],
          widest: { tools: ['bash'], anyCommand: [], network: true, read: ['**'], write: [], undeclared: 0 },
        };
      },
      'workspace.open': ({ path }) => folder(path),
      'workspace.recent': () => ({
        items: ['alpha', 'beta'].map((name) => ({ path: `/home/me/${name}`, name, openedAt: 0, exists: true })),
      }),
      'settings.get': () => structuredClone(c.settings),
      'settings.setProvider': ({ preset: id, model, baseUrl }) => {
        const p = c.settings.presets.find((x) => x.id === id)!;
        c.settings.provider = {
          preset: id,
          model: model ?? p.defaultModel,
          baseUrl: baseUrl ?? p.baseUrl,
          contextWindow: p.contextWindow,
          hasKey: p.hasKey,
          keySource: p.keySource ?? 'none',
        };
        return structuredClone(c.settings);
      },
      'settings.setCeiling': (ceiling) => {
        Object.assign(c.settings.ceiling, ceiling);
        return structuredClone(c.settings);
      },
      'settings.setKey': ({ preset: id, key }) => {
        c.keys[id] = key;
        keyNow(id, 'key-store');
        return { hasKey: true };
      },
      'settings.clearKey': ({ preset: id }) => {
        // As the service: the stored key goes; a key in the environment stays.
        const p = c.settings.presets.find((x) => x.id === id);
        keyNow(id, p?.keyEnv ? 'env' : 'none');
        return { hasKey: !!p?.keyEnv };
      },
      'settings.testProvider': () => {
        const s = c.settings.provider!;
        const base = { provider: s.preset, model: s.model, baseUrl: s.baseUrl };
        const p = c.settings.presets.find((x) => x.id === s.preset);
        const key = c.keys[s.preset];
        if (p?.keyOptional || (key !== undefined && key === c.goodKey)) return { ok: true, ...base };
        const failed = (kind: string, words: Said, more: { status?: number; said?: string } = {}) => ({
          ok: false,
          ...base,
          kind,
          ...more,
          message: english(words),
          words,
        });
        if (key === undefined && !s.hasKey)
          return failed(
            'auth',
            say('provider.noKey', { id: s.preset, hint: `${s.preset.toUpperCase()}_API_KEY`, file: 'providers.json' }),
          );
        return failed(
          'auth',
          say('provider.authStatus', { provider: s.preset, status: 401, key: say('provider.theKey') }),
          { status: 401, said: 'invalid x-api-key' },
        );
      },
      'sandbox.status': () => ({ ...c.sandbox }),
      'rules.list': () => ({ rules: structuredClone(c.rules) }),
      'rules.remove': ({ id }) => {
        c.rules = c.rules.filter((r) => r.id !== id);
        return { removed: true };
      },
      'sessions.export': () => ({ filename: 'first-chat.md', mime: 'text/markdown', content: '# First chat\n' }),
      'skills.pendingInstalls': () => ({
        items: structuredClone(c.held),
        ...(c.heldRemoved.length ? { removed: [...c.heldRemoved] } : {}),
      }),
      'skills.install': ({ source }) => {
        const r = c.installReports[source];
        if (!r) throw contractError('not_found', `${source}: no such file or folder`);
        return r;
      },
      'skills.installUpload': ({ filename }) => {
        const r = c.installReports[filename];
        if (!r) throw contractError('refused', `${filename} is not a zip archive`);
        return r;
      },
      'skills.approveInstall': ({ approvalId, contentHash }) => {
        const h = c.held.find((x) => x.approvalId === approvalId);
        const r = Object.values(c.installReports).find((x) => x.approvalId === approvalId);
        if (!h && r) return { ...r, status: 'installed', approvalId: undefined };
        if (!h) throw contractError('not_found', `no pending install ${approvalId}`);
        if (h.contentHash !== contentHash)
          throw contractError('conflict', `approval ${approvalId} is for other content`);
        c.held = c.held.filter((x) => x !== h);
        return { status: 'installed', skill: h.skill, dest: h.target };
      },
      'skills.rejectInstall': ({ approvalId }) => {
        const h = c.held.find((x) => x.approvalId === approvalId);
        const r = Object.values(c.installReports).find((x) => x.approvalId === approvalId);
        const skill = h?.skill ?? r?.skill ?? r?.report?.skill;
        if (!skill) throw contractError('not_found', `no pending install ${approvalId}`);
        c.held = c.held.filter((x) => x !== h);
        return { status: 'rejected', skill, approvalId, reason: 'rejected by the user' };
      },
    } as Handlers,
    event(name: EventName, payload: unknown) {
      for (const s of subscribers) s(name, payload);
    },
    mode: 'serve' as const,
    nativeDialogs: false,
    calls: [] as MemoryClient['calls'],
    skills: init.skills ?? [],
    broken: [] as BrokenSkill[],
    held: [] as MemoryClient['held'],
    heldRemoved: [] as string[],
    failing: new Set<string>(),
    remembered: {} as Record<string, string>,
    installReports: {} as Record<string, InstallOutcome>,
    findings: {} as Record<string, AuditFinding[]>,
    sessions: [session('s1', 'First chat')],
    searchHits: {} as Record<string, SessionHit[]>,
    modelChoices: {
      provider: 'anthropic',
      current: 'fake-model',
      models: ['fake-model', 'fake-model-large'],
      source: 'provider',
      groups: [
        { provider: 'anthropic', label: 'Anthropic', models: ['fake-model', 'fake-model-large'], source: 'provider' },
        { provider: 'local', label: 'local', models: ['gpt-fake', 'gpt-fake-mini'], source: 'provider' },
      ],
    } as ModelChoices,
    tools: init.tools ?? [],
    servers: init.servers ?? [],
    mcpEntries: (init.servers ?? []).map((x): McpEntry => ({
      name: x.name,
      scope: 'user',
      file: '/data/mcp.json',
      kind: 'stdio',
      enabled: true,
      command: 'node',
      args: [],
      envKeys: [],
      network: [],
      headerKeys: [],
      held: false,
    })),
    context: {
      sessionId: 's1',
      contextWindow: 200000,
      total: 4000,
      sections: [
        { section: 'system', tokens: 1200, items: [] },
        { section: 'catalog', tokens: 800, items: [] },
        { section: 'skills', tokens: 0, items: [] },
        { section: 'tools', tokens: 2000, items: [] },
        { section: 'history', tokens: 0, items: [] },
      ],
      loadedSkills: init.loaded ?? [],
      leftOut: [],
    } as ContextView,
    sandbox: { available: true, backend: 'bubblewrap', reason: '', hint: '', mode: 'auto' } as SandboxStatus,
    versionItems: [] as TranscriptItem[],
    goodKey: 'sk-right-key',
    keys: {} as Record<string, string>,
    settings: {
      provider: {
        preset: 'anthropic',
        model: 'claude-sonnet-4-5',
        baseUrl: 'https://api.anthropic.com',
        contextWindow: 200000,
        hasKey: false,
        keySource: 'none',
      },
      presets: [
        preset('anthropic', 'Anthropic', 'https://api.anthropic.com', 'claude-sonnet-4-5'),
        preset('openai', 'OpenAI', 'https://api.openai.com/v1', 'gpt-4.1'),
      ],
      ceiling: { tools: ['*'], network: false, readRoots: [], writeRoots: [] },
      warnings: [],
      keyStorage: 'file',
    } as SettingsView,
    rules: [
      {
        id: 'r1',
        effect: 'allow',
        tool: 'bash',
        command: 'git status',
        createdAt: 0,
        description: 'bash: git status (this workspace)',
      },
    ] as PolicyRule[],
    catalogChanged(ws?: string) {
      const workspace = ws ?? useView.getState().workspace?.path ?? '';
      c.event('catalog.changed', { workspace, added: [], removed: [], changed: [] });
    },
    skillChanged(s: SkillSummary) {
      c.event('audit.verdict', { name: s.name, audit: s.audit, skill: s });
    },
  } as MemoryClient;

  return c;
}

/** The audit report skills.show carries for a skill with findings (bound to the hash the test trusts with). */
function report(s: SkillSummary, findings: AuditFinding[]): NonNullable<SkillDetail['report']> {
  const level = s.audit.level ?? (findings.some((f) => f.level === 'P0') ? 'P0' : 'P1');
  return {
    skill: s.name,
    dir: s.dir,
    level,
    findings,
    contentHash: `hash-${s.name}`,
    files: 1,
    bytes: 100,
    manifestDiagnostics: [],
  };
}
