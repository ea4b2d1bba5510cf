// `knack serve`: the desktop interface in a browser — the built renderer and the contract over a loopback
// WebSocket, guarded by a per-run token. Runs until Ctrl+C (SIGINT) or SIGTERM, then shuts down cleanly.
import { readFileSync, realpathSync } from 'node:fs';
import { join, relative, isAbsolute } from 'node:path';
import { CliError, type Command, type CommandContext } from './command.js';
import { repoRoot } from '../core/config/index.js';
import { KnackService } from '../core/service/index.js';
import { openBrowser } from '../serve/browser.js';

function appVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

function portOf(v: unknown): number {
  if (v === undefined) return 0;
  const n = Number(v);
  if (typeof v !== 'string' || !/^\d+$/.test(v) || n > 65535)
    throw new CliError(`--port: "${String(v)}" is not a port number (0-65535)`);
  return n;
}

/**
 * The folder serve opens at start: --workspace when given; else the current folder, unless that is Knack's own
 * installation (`npm start` runs there): then none, and the window starts with its first-run folder step.
 */
export function startFolder(given: boolean, cwd: string, own: string = repoRoot): string | undefined {
  if (given) return cwd;
  let real = cwd;
  let home = own;
  try {
    real = realpathSync.native(cwd);
    home = realpathSync.native(own);
  } catch {
    // A folder that cannot be read is opened (and its error shown) as before.
  }
  const rel = relative(home, real);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel)) ? undefined : cwd;
}

/** Resolves when the process is asked to stop. */
function stopSignal(): Promise<string> {
  return new Promise((resolve) => {
    const on = (sig: string) => () => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(sig);
    };
    const onInt = on('SIGINT');
    const onTerm = on('SIGTERM');
    process.once('SIGINT', onInt);
    process.once('SIGTERM', onTerm);
  });
}

async function runServe(ctx: CommandContext, until: Promise<string> = stopSignal()): Promise<number> {
  const v = ctx.values;
  const port = portOf(v.port);
  const provider = {
    ...(typeof v.provider === 'string' ? { provider: v.provider } : {}),
    ...(typeof v.model === 'string' ? { model: v.model } : {}),
    ...(typeof v['base-url'] === 'string' ? { baseURL: v['base-url'] } : {}),
  };
  const service = new KnackService({ paths: ctx.paths, transport: 'serve', version: appVersion(), provider });
  const folder = startFolder(typeof v.workspace === 'string', ctx.workspace);
  if (folder === undefined)
    ctx.io.err(
      `knack serve: not opening Knack's own folder (${ctx.workspace}) as the workspace; choose one in the window, or pass --workspace DIR`,
    );
  else
    try {
      await service.openWorkspace(folder);
    } catch (e) {
      ctx.io.err(`knack serve: could not open ${folder}: ${(e as Error).message}; open another folder from the page`);
    }
  const rendererDir = typeof v.renderer === 'string' ? v.renderer : join(repoRoot, 'dist', 'renderer');
  let handle;
  try {
    // Loaded here: the WebSocket server is only needed by this command.
    const { startServe } = await import('../serve/server.js');
    handle = await startServe({
      handlers: service.handlers,
      events: service.events,
      rendererDir,
      port,
      log: (l) => ctx.io.err(`knack serve: ${l}`),
    });
  } catch (e) {
    await service.close();
    throw new CliError(`cannot listen on 127.0.0.1:${port}: ${(e as Error).message}`, 3);
  }
  ctx.io.out(`Knack is running at ${handle.url}`);
  ctx.io.out('(127.0.0.1 only; the token in this address is required and changes every run. Ctrl+C stops it.)');
  if (v.open === true) {
    const why = await openBrowser(handle.url);
    ctx.io.out(why ? `Not opening a browser: ${why}. Open the address above yourself.` : 'Opened it in your browser.');
  }
  const sig = await until;
  ctx.io.err(`knack serve: ${sig}, shutting down`);
  await handle.close();
  await service.close();
  return 0;
}

export const serveCommands: Command[] = [
  {
    path: ['serve'],
    summary: 'Serve the desktop interface to a browser on 127.0.0.1 (token-guarded), until Ctrl+C.',
    usage: '[--port N] [--workspace DIR] [--provider ID --model NAME --base-url URL] [--open]',
    maxPositionals: 0,
    options: {
      port: { type: 'string', short: 'p' },
      provider: { type: 'string' },
      model: { type: 'string' },
      'base-url': { type: 'string' },
      open: { type: 'boolean' },
      renderer: { type: 'string' },
    },
    run: (ctx) => runServe(ctx),
  },
];
