// `knack store status|acknowledge`: the database's health. A damaged database is set aside whole (store/db.ts); until
// the user acknowledges it, the rules it held count as unreadable and every tool call asks.
import { formatDiagnostic } from '../core/base/index.js';
import { Store, DB_FILE } from '../core/store/index.js';
import { sweepHeldAtOpen } from '../core/skills/trust/index.js';
import { damageDiagnostic } from '../core/workspace.js';
import { join } from 'node:path';
import { CliError, printJson, type Command, type CommandContext } from './command.js';

/**
 * Open the store, printing one line for each damaged database set aside and not yet acknowledged, and one for the held
 * copies removed because no approval waits for them (`quiet`: neither, and nothing removed).
 */
export function openStore(ctx: CommandContext, quiet = false): Store {
  let store: Store;
  try {
    store = Store.openIn(ctx.paths.dataDir);
  } catch (e) {
    throw new CliError(`cannot open the database in ${ctx.paths.dataDir}: ${(e as Error).message}`, 3);
  }
  if (quiet) return store;
  for (const d of store.damage()) ctx.io.err(formatDiagnostic(damageDiagnostic(d)));
  // Held copies of skills no approval waits for any more are removed, and said (skills/trust/held.ts).
  const swept = sweepHeldAtOpen(ctx.paths.dataDir, store).diagnostic;
  if (swept) ctx.io.err(formatDiagnostic(swept));
  return store;
}

const status: Command = {
  path: ['store', 'status'],
  summary: 'The database: where it is, its schema version, SQLite integrity check, and damaged files set aside.',
  usage: '[--json]',
  maxPositionals: 0,
  async run(ctx) {
    const store = openStore(ctx, true);
    try {
      const file = join(ctx.paths.dataDir, DB_FILE);
      const damage = store.damage();
      const integrity = store.integrityCheck();
      if (ctx.json) printJson(ctx.io, { file, version: store.version, integrity, damage });
      else {
        ctx.io.out(`${file}: schema ${store.version}, integrity ${integrity}`);
        for (const d of damage) ctx.io.out(formatDiagnostic(damageDiagnostic(d)));
      }
      return damage.length || integrity !== 'ok' ? 1 : 0;
    } finally {
      store.close();
    }
  },
};

const acknowledge: Command = {
  path: ['store', 'acknowledge'],
  summary:
    'Say you have seen the damaged databases set aside (they stay where they are): your rules count as read again.',
  usage: '[--json]',
  maxPositionals: 0,
  async run(ctx) {
    const store = openStore(ctx, true);
    try {
      const damage = store.damage();
      store.acknowledgeDamage();
      if (ctx.json) printJson(ctx.io, { acknowledged: damage });
      else if (!damage.length) ctx.io.out('nothing to acknowledge: no damaged database was set aside');
      else
        for (const d of damage)
          ctx.io.out(`acknowledged: ${d.movedTo} (kept; remove it yourself once you have what you need from it)`);
      return 0;
    } finally {
      store.close();
    }
  },
};

export const storeCommands: Command[] = [status, acknowledge];
