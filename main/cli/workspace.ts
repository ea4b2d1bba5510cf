// Opens the core workspace for a CLI command: prints settings/tool diagnostics as one line each and asks
// the terminal when the gate says `ask` (never when stdin is not a terminal: then the answer is no).
import { createInterface } from 'node:readline/promises';
import { displaySafeLines } from '../core/policy/index.js';
import { openWorkspace, type KnackWorkspace, type WorkspaceOptions } from '../core/workspace.js';
import { formatDiagnostic } from '../core/base/index.js';
import type { Catalog } from '../core/skills/catalog/index.js';
import type { Diagnostic } from '../core/base/index.js';
import { CliError, type CommandContext } from './command.js';

async function ttyConfirm(question: string): Promise<boolean> {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return false;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    // The question is escaped where it is built (cli/approval.ts); escape again here so no caller can forget.
    return /^y(es)?$/i.test((await rl.question(`${displaySafeLines(question)} [y/N] `)).trim());
  } catch (e) {
    // End of input (Ctrl-D) closes the question: that is a no, said as one, never an error that hides what is held.
    if ((e as Error).name !== 'AbortError') throw e;
    process.stderr.write('\n');
    return false;
  } finally {
    rl.close();
  }
}

/** The terminal question, or the test's `io.confirm`, or nothing (no terminal: `ask` means no). */
export function confirmOf(ctx: CommandContext): ((q: string) => Promise<boolean>) | undefined {
  return ctx.io.confirm ?? (process.stdin.isTTY && process.stderr.isTTY ? ttyConfirm : undefined);
}

export function printDiagnostic(ctx: CommandContext, d: Diagnostic): void {
  // A diagnostic may quote another party's words (an MCP server's tool name): escaped, never acted on by the terminal.
  ctx.io.err(displaySafeLines(formatDiagnostic(d)));
}

export async function openWorkspaceFor(
  ctx: CommandContext,
  options: Partial<Omit<WorkspaceOptions, 'paths' | 'workspace'>> = {},
): Promise<KnackWorkspace> {
  let ws: KnackWorkspace;
  try {
    ws = await openWorkspace({
      paths: ctx.paths,
      workspace: ctx.workspace,
      onDiagnostic: (d) => printDiagnostic(ctx, d),
      ...options,
    });
  } catch (e) {
    throw new CliError((e as Error).message, 3);
  }
  // A command answers once: it waits for the verdicts of skills still being audited on the workers.
  await ws.catalog.settled();
  return ws;
}

/** Run `fn` over an open workspace and always close it. */
export async function withWorkspace<T>(
  ctx: CommandContext,
  fn: (ws: KnackWorkspace) => Promise<T> | T,
  options: Partial<Omit<WorkspaceOptions, 'paths' | 'workspace'>> = {},
): Promise<T> {
  const ws = await openWorkspaceFor(ctx, options);
  try {
    return await fn(ws);
  } finally {
    await ws.close();
  }
}

/** Run `fn` over the workspace's (trust-reviewed) catalog and always close the workspace. */
export function withCatalog<T>(
  ctx: CommandContext,
  fn: (catalog: Catalog) => Promise<T> | T,
  options: { requireStore?: boolean } = {},
): Promise<T> {
  return withWorkspace(ctx, (ws) => fn(ws.catalog), options);
}
