// `knack sessions list|search|show|export|rename|delete`: the chat sessions stored in the database (for this workspace, or
// all with --all). Export is Markdown or JSON; keys are never in a session, so never in an export.
import { writeFileSync } from 'node:fs';
import { CliError, printJson, stringFlag, type Command, type CommandContext } from './command.js';
import { withWorkspace } from './workspace.js';
import {
  deleteSession,
  exportSessionOf,
  findSession,
  formatCost,
  listSessions,
  renameSession,
  searchSessions,
  sessionCost,
  sessionEvents,
} from '../core/agent/index.js';
import type { KnackWorkspace } from '../core/workspace.js';
import { displaySafe } from '../core/policy/index.js';

function run<T>(ctx: CommandContext, fn: (ws: KnackWorkspace) => T): Promise<T> {
  return withWorkspace(
    ctx,
    (ws) => {
      try {
        return fn(ws);
      } catch (e) {
        if (e instanceof CliError) throw e;
        throw new CliError((e as Error).message);
      }
    },
    { requireStore: true },
  );
}

const when = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').slice(0, 16);

const list: Command = {
  path: ['sessions', 'list'],
  summary: 'Chat sessions of this workspace (--all: every workspace), most recent first.',
  usage: '[--all] [--json]',
  options: { all: { type: 'boolean' } },
  maxPositionals: 0,
  run: (ctx) =>
    run(ctx, (ws) => {
      // Cost is the session's running total; blank (never $0) when a call could not be priced or none was made.
      const rows = listSessions(ws, { allWorkspaces: ctx.values.all === true }).map((r) => {
        const costUsd = sessionCost(ws, r.id);
        return costUsd === undefined ? r : { ...r, costUsd };
      });
      if (ctx.json) {
        printJson(ctx.io, rows);
        return 0;
      }
      if (rows.length === 0) ctx.io.out('no sessions yet (start one with: knack chat)');
      for (const r of rows) {
        const cost = ('costUsd' in r ? formatCost(r.costUsd) : '').padStart(8);
        ctx.io.out(
          `${r.id.slice(0, 8)}  ${when(r.updatedAt)}  ${String(r.events).padStart(5)} events  ${cost}  ${r.model ?? 'offline'}  ${r.title || '(untitled)'}${ctx.values.all ? `  ${r.workspace}` : ''}`,
        );
      }
      return 0;
    }),
};

const show: Command = {
  path: ['sessions', 'show'],
  summary: 'A session as readable Markdown (--json: every event).',
  usage: 'ID [--json]',
  maxPositionals: 1,
  run: (ctx) =>
    run(ctx, (ws) => {
      const id = ctx.positionals[0];
      if (!id) throw new CliError('usage: knack sessions show ID');
      if (ctx.json) printJson(ctx.io, { session: findSession(ws, id), events: sessionEvents(ws, id) });
      else ctx.io.out(exportSessionOf(ws, id, 'md'));
      return 0;
    }),
};

const exportCmd: Command = {
  path: ['sessions', 'export'],
  summary: 'Export a session as Markdown or JSON (to stdout, or --out FILE).',
  usage: 'ID --format md|json [--out FILE]',
  options: { format: { type: 'string' }, out: { type: 'string' } },
  maxPositionals: 1,
  run: (ctx) =>
    run(ctx, (ws) => {
      const id = ctx.positionals[0];
      if (!id) throw new CliError('usage: knack sessions export ID --format md|json');
      const format = stringFlag(ctx, 'format') ?? 'md';
      if (format !== 'md' && format !== 'json') throw new CliError(`--format: expected md or json, got "${format}"`);
      const text = exportSessionOf(ws, id, format);
      const out = stringFlag(ctx, 'out');
      if (out) writeFileSync(out, text.endsWith('\n') ? text : text + '\n');
      else ctx.io.out(text);
      return 0;
    }),
};

const del: Command = {
  path: ['sessions', 'delete'],
  summary: 'Delete a session and its events.',
  usage: 'ID',
  maxPositionals: 1,
  run: (ctx) =>
    run(ctx, (ws) => {
      const id = ctx.positionals[0];
      if (!id) throw new CliError('usage: knack sessions delete ID');
      const row = findSession(ws, id);
      deleteSession(ws, row.id);
      if (ctx.json) printJson(ctx.io, { deleted: row.id });
      else ctx.io.out(`deleted session ${row.id.slice(0, 8)} (${row.title || 'untitled'})`);
      return 0;
    }),
};

const search: Command = {
  path: ['sessions', 'search'],
  summary: 'Sessions of this workspace (--all: every workspace) holding every word, in a title, message or answer.',
  usage: 'WORDS... [--all] [--json]',
  options: { all: { type: 'boolean' } },
  maxPositionals: 100,
  run: (ctx) =>
    run(ctx, (ws) => {
      const query = ctx.positionals.join(' ').trim();
      if (!query) throw new CliError('usage: knack sessions search WORDS...');
      const hits = searchSessions(ws, query, { allWorkspaces: ctx.values.all === true });
      if (ctx.json) {
        printJson(ctx.io, hits);
        return 0;
      }
      if (hits.length === 0) ctx.io.out(`no session holds "${displaySafe(query)}"`);
      for (const h of hits) {
        // Words of the excerpt between [ ]; what the model wrote is escaped before it reaches the terminal.
        const text = h.snippet.map((p) => (p.hit ? `[${displaySafe(p.text)}]` : displaySafe(p.text))).join('');
        ctx.io.out(
          `${h.session.id.slice(0, 8)}  ${displaySafe(h.session.title || '(untitled)')}\n    ${h.in}: ${text}`,
        );
      }
      return 0;
    }),
};

const rename: Command = {
  path: ['sessions', 'rename'],
  summary: 'Give a session a title.',
  usage: 'ID TITLE...',
  maxPositionals: 100,
  run: (ctx) =>
    run(ctx, (ws) => {
      const [id, ...words] = ctx.positionals;
      if (!id || words.join('').trim() === '') throw new CliError('usage: knack sessions rename ID TITLE...');
      const row = renameSession(ws, id, words.join(' '));
      if (ctx.json) printJson(ctx.io, row);
      else ctx.io.out(`renamed session ${row.id.slice(0, 8)}: ${displaySafe(row.title)}`);
      return 0;
    }),
};

export const sessionsCommands: Command[] = [list, search, show, exportCmd, rename, del];
