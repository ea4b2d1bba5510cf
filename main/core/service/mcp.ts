// Contract handlers for the MCP server form: list the servers of both mcp.json files, add or change one (checked with
// the loader's schema, tried once inside the sandbox before it is written), remove one, turn one off or on. After a
// write the running servers follow the files (McpManager.sync) and the window hears `tools.mcpChanged`.
import { join } from 'node:path';
import type { Handlers } from './dispatch.js';
import { ServiceError } from './dispatch.js';
import { fsWords, Refusal, say } from '../base/index.js';
import type { ServiceContext } from './context.js';
import { mcpView } from './tools.js';
import {
  MCP_EDIT_LOCK,
  McpEditError,
  checkMcpEntry,
  keepMcpTrust,
  listMcpEntries,
  loadMcpConfig,
  mcpFileOf,
  mcpTrustKey,
  removeMcpEntry,
  setMcpEntryEnabled,
  trustMcpServer,
  trustedMcpServers,
  withMcpEditLock,
  writeMcpEntry,
  type McpServerConfig,
} from '../mcp/index.js';

type McpHandlers = Pick<Handlers, 'mcp.list' | 'mcp.save' | 'mcp.remove' | 'mcp.setEnabled'>;

/** The servers of both files that start in `workspace`: the user's, and the workspace's the user trusted as they are. */
export function mcpServersOf(dataDir: string, workspace: string) {
  const trusted = trustedMcpServers(dataDir, workspace);
  return loadMcpConfig(dataDir, workspace, {
    trustWorkspace: false,
    trusted: (s: McpServerConfig) => trusted[s.name] === mcpTrustKey(s),
  });
}

/** A file problem as the contract's error: invalid_input, naming the file, line and field. */
function editError(e: unknown): never {
  if (e instanceof McpEditError)
    throw new ServiceError(
      'invalid_input',
      e.words ?? say('mcp.other', { error: e.message }),
      { fields: e.diagnostics.map((d) => ({ file: d.file, line: d.line, field: d.field, message: d.message })) },
      e.message,
    );
  throw e;
}

/**
 * Trust the workspace's server `name` as `config` is (undefined: no longer). A trust record that is damaged or cannot be
 * read is the user's file, left as it is: refused in its words, not an internal failure.
 */
function trust(dataDir: string, workspace: string, name: string, config: McpServerConfig | undefined): void {
  try {
    trustMcpServer(dataDir, workspace, name, config);
  } catch (e) {
    if (e instanceof Refusal) throw new ServiceError('refused', e.words, undefined, e.message);
    throw e;
  }
}

/**
 * Change the workspace's trust (each name trusted as its config, or forgotten; none for the user's file), then write
 * `file`: all or nothing. When either cannot be written (a folder read-only, the disk full), the trust record is put
 * back as it was and the window is told in words, naming the file; a record that refuses the change (damaged,
 * unreadable) leaves `file` unwritten.
 */
async function trustThenWrite<T>(
  dataDir: string,
  workspace: string,
  file: string,
  changes: [string, McpServerConfig | undefined][],
  write: () => T,
): Promise<T> {
  try {
    return await withMcpEditLock(dataDir, () => trustThenWriteHeld(dataDir, workspace, file, changes, write));
  } catch (e) {
    // The lock's own failures (the change has not run): another Knack holding it, or a lock that cannot be made.
    if (e instanceof ServiceError) throw e;
    if (e instanceof Refusal) throw new ServiceError('unavailable', e.words, undefined, e.message);
    if (typeof (e as NodeJS.ErrnoException).code !== 'string') throw e;
    throw new ServiceError(
      'unavailable',
      say('mcp.cannotWrite', { file: join(dataDir, MCP_EDIT_LOCK), error: fsWords(e) }),
    );
  }
}

/** trustThenWrite's change, run holding the MCP edit lock: no other process's change of either file comes between. */
function trustThenWriteHeld<T>(
  dataDir: string,
  workspace: string,
  file: string,
  changes: [string, McpServerConfig | undefined][],
  write: () => T,
): T {
  const kept = changes.length ? keepMcpTrust(dataDir) : undefined;
  let writing = kept?.file;
  try {
    for (const [name, config] of changes) trust(dataDir, workspace, name, config);
    writing = file;
    return write();
  } catch (e) {
    const failed = writing ?? file;
    try {
      kept?.restore();
    } catch (r) {
      throw new ServiceError(
        'unavailable',
        say('mcp.trustNotPutBack', { file: failed, error: fsWords(e), trust: kept!.file, trustError: fsWords(r) }),
      );
    }
    if (e instanceof McpEditError) editError(e);
    if (e instanceof ServiceError || typeof (e as NodeJS.ErrnoException).code !== 'string') throw e;
    throw new ServiceError('unavailable', say('mcp.cannotWrite', { file: failed, error: fsWords(e) }));
  }
}

export function mcpHandlers(ctx: ServiceContext): McpHandlers {
  const dataDir = ctx.paths.dataDir;
  /** The running servers follow the files now; the window hears their states. */
  const apply = async (): Promise<void> => {
    const ws = ctx.workspace();
    const box = await ws.toolbox();
    const status = await box.mcp.sync(mcpServersOf(dataDir, ws.workspace).servers);
    ctx.events.emit('tools.mcpChanged', { servers: status.map(mcpView) });
  };
  return {
    'mcp.list': async () => {
      const ws = ctx.workspace();
      const { entries, errors } = listMcpEntries(dataDir, ws.workspace);
      const { held } = mcpServersOf(dataDir, ws.workspace);
      const box = await ws.toolbox();
      return {
        servers: entries.map((e) => ({
          ...e,
          held: e.scope === 'project' && e.enabled && held.some((h) => h.name === e.name),
        })),
        status: box.mcp.status().map(mcpView),
        errors,
      };
    },
    'mcp.save': async ({ scope, name, previousName, server, force }) => {
      const ws = ctx.workspace();
      let checked;
      try {
        checked = checkMcpEntry(scope, name, server, {
          dataDir,
          workspace: ws.workspace,
          ...(previousName ? { previousName } : {}),
        });
      } catch (e) {
        editError(e);
      }
      // Tried once as it will run (inside the sandbox): a server that does not start is not saved unless asked.
      const box = await ws.toolbox();
      const tried = await box.mcp.probe(checked.config);
      if (tried.error && !force) return { saved: false, tools: [], error: tried.error };
      // Saving a workspace's server from the window is trusting it, as saved; a renamed one's old trust goes.
      const changes: [string, McpServerConfig | undefined][] = [];
      if (scope === 'project') {
        if (previousName && previousName !== name) changes.push([previousName, undefined]);
        changes.push([name, checked.config]);
      }
      const file = mcpFileOf(scope, dataDir, ws.workspace);
      await trustThenWrite(dataDir, ws.workspace, file, changes, () =>
        writeMcpEntry(file, name, checked.raw, previousName),
      );
      await apply();
      return { saved: true, tools: tried.tools, ...(tried.error ? { error: tried.error } : {}) };
    },
    'mcp.remove': async ({ scope, name }) => {
      const ws = ctx.workspace();
      // Its trust goes with it: a record that refuses the change, or a file that cannot be written, leaves both, and
      // the server, as they were.
      const file = mcpFileOf(scope, dataDir, ws.workspace);
      const changes: [string, undefined][] = scope === 'project' ? [[name, undefined]] : [];
      const removed = await trustThenWrite(dataDir, ws.workspace, file, changes, () => removeMcpEntry(file, name));
      if (!removed)
        throw new ServiceError(
          'not_found',
          say('mcp.noServerIn', { name, scope: say(scope === 'user' ? 'tierUser' : 'tierProject') }),
          { name },
        );
      await apply();
      return { removed };
    },
    'mcp.setEnabled': async ({ scope, name, enabled }) => {
      const ws = ctx.workspace();
      const file = mcpFileOf(scope, dataDir, ws.workspace);
      await trustThenWrite(dataDir, ws.workspace, file, [], () => setMcpEntryEnabled(file, name, enabled));
      await apply();
      return { enabled };
    },
  };
}
