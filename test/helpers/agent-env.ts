// Test setup for the agent: a real workspace (temp home, data folder, project skills) and a fake provider server,
// with an Agent wired to it through the official SDK. Everything is closed when the test file ends.
import { after } from 'node:test';
import { join } from 'node:path';
import { tempDir, writeTree } from './tmp.js';
import { seedSearchCache } from './search-seed.js';
import { startFakeAnthropic } from './fake-anthropic.js';
import { startFakeOpenAI } from './fake-openai.js';
import type { FakeServer } from './fake-provider.js';
import { openWorkspace, type KnackWorkspace } from '../../main/core/workspace.js';
import { resolvePaths } from '../../main/core/config/paths.js';
import { Agent, type AgentHost, type AgentOptions } from '../../main/core/agent/index.js';
import { anthropicProvider } from '../../main/core/agent/providers/anthropic.js';
import { openaiProvider } from '../../main/core/agent/providers/openai.js';
import type { AgentEvent } from '../../main/core/agent/types.js';

export interface AgentEnv {
  ws: KnackWorkspace;
  server: FakeServer;
  agent: Agent;
  home: string;
  workspace: string;
  dataDir: string;
}

export async function agentEnv(
  opts: {
    files?: Record<string, string>;
    /** Files under the home folder (the user tier: `.workbuddy/skills/…`). */
    homeFiles?: Record<string, string>;
    settings?: (home: string) => unknown;
    kind?: 'anthropic' | 'openai';
    agent?: Omit<AgentOptions, 'providerInstance'>;
    contextWindow?: number;
    /** The provider's stall limit (ms): a reply with no bytes for this long ends as timed out. */
    stallMs?: number;
    /** The model reads images. */
    vision?: boolean;
  } = {},
): Promise<AgentEnv> {
  const home = tempDir('knack-agent-home-');
  const workspace = tempDir('knack-agent-ws-');
  const dataDir = join(home, 'data');
  writeTree(workspace, opts.files ?? {});
  writeTree(home, opts.homeFiles ?? {});
  seedSearchCache(dataDir);
  if (opts.settings) writeTree(dataDir, { 'settings.json': JSON.stringify(opts.settings(home)) });
  const ws = await openWorkspace({ paths: resolvePaths({ home, dataDir }, {}), workspace, requireStore: true });
  const kind = opts.kind ?? 'anthropic';
  const server = kind === 'anthropic' ? await startFakeAnthropic() : await startFakeOpenAI();
  const p = {
    apiKey: 'sk-test-key-0123456789',
    model: 'fake-model',
    baseURL: server.url,
    contextWindow: opts.contextWindow ?? 200_000,
    maxRetries: 0,
    ...(opts.stallMs ? { stallMs: opts.stallMs } : {}),
    ...(opts.vision ? { vision: true } : {}),
  };
  const provider = kind === 'anthropic' ? anthropicProvider(p) : openaiProvider(p);
  const agent = Agent.create(ws, { ...opts.agent, providerInstance: provider });
  after(async () => {
    await server.close();
    await ws.close();
  });
  return { ws, server, agent, home, workspace, dataDir };
}

/** Collect a session's events as they are shown. */
export function recorder(session: { on(l: (e: AgentEvent) => void): () => void }): AgentEvent[] {
  const out: AgentEvent[] = [];
  session.on((e) => out.push(e));
  return out;
}

export const typesOf = (evs: AgentEvent[]): string[] =>
  evs
    .map((e) => e.type)
    .filter((t) => t !== 'text_delta' && t !== 'context' && t !== 'usage' && t !== 'tool_call_started');

/** The real workspace as the agent sees it, with some of its parts replaced (a slow or failing tool box, say). */
export function hostOf(ws: KnackWorkspace, replace: Partial<AgentHost> = {}): AgentHost {
  return {
    workspace: ws.workspace,
    settings: ws.settings,
    store: ws.store,
    catalog: ws.catalog,
    gate: ws.gate,
    paths: ws.paths,
    matcher: () => ws.matcher(),
    toolbox: () => ws.toolbox(),
    newSession: (o) => ws.newSession(o),
    ...replace,
  };
}
