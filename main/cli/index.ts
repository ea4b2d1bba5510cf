// The `knack` command line: finds the command for argv, runs it over the core, prints one line per error.
import { buildContext, CliError, processIo, type Command, type Io } from './command.js';
import { SourceError } from '../core/skills/sources/index.js';
import { skillsCatalogCommands } from './skills-catalog.js';
import { skillsMatchCommands } from './skills-match.js';
import { trustCommands } from './trust.js';
import { skillsSourceCommands } from './skills-sources.js';
import { toolsCommands } from './tools.js';
import { mcpCommands } from './mcp.js';
import { sandboxCommands } from './sandbox.js';
import { chatCommands } from './chat.js';
import { sessionsCommands } from './sessions.js';
import { serveCommands } from './serve.js';
import { storeCommands } from './store.js';

/** Top-level commands that open a workspace's skill catalog (and so may audit a folder). */

export const COMMANDS: Command[] = [
  ...skillsCatalogCommands,
  ...skillsMatchCommands,
  ...trustCommands,
  ...skillsSourceCommands,
  ...toolsCommands,
  ...mcpCommands,
  ...sandboxCommands,
  ...chatCommands,
  ...sessionsCommands,
  ...serveCommands,
  ...storeCommands,
];

export function usage(): string {
  const lines = ['usage: knack <command> [options]', '', 'commands:'];
  for (const c of COMMANDS) lines.push(`  knack ${c.path.join(' ')} ${c.usage}`.trimEnd() + `\n      ${c.summary}`);
  lines.push(
    '',
    'common options: --workspace DIR (default: current folder)  --home DIR (the home of the user tier)',
    '                --data-dir DIR (database folder: KNACK_DATA_DIR, else KNACK_HOME, default ~/.knack)  --json',
  );
  return lines.join('\n');
}

function findCommand(argv: string[]): { cmd: Command; rest: string[] } | undefined {
  let best: { cmd: Command; rest: string[] } | undefined;
  for (const cmd of COMMANDS) {
    if (cmd.path.every((p, i) => argv[i] === p) && (!best || cmd.path.length > best.cmd.path.length)) {
      best = { cmd, rest: argv.slice(cmd.path.length) };
    }
  }
  return best;
}

export async function main(argv: string[], io: Io = processIo): Promise<number> {
  if (argv.length === 0 || argv[0] === 'help' || argv[0] === '--help' || argv[0] === '-h') {
    io.out(usage());
    return argv.length === 0 ? 2 : 0;
  }
  const found = findCommand(argv);
  if (!found) {
    io.err(`knack: unknown command "${argv.slice(0, 2).join(' ')}" (try: knack help)`);
    return 2;
  }
  const { cmd, rest } = found;
  try {
    const ctx = buildContext(cmd, rest, io);
    if (ctx.values.help) {
      io.out(`usage: knack ${cmd.path.join(' ')} ${cmd.usage}\n${cmd.summary}`);
      return 0;
    }
    return await cmd.run(ctx);
  } catch (e) {
    // A source that cannot be read or used is the command's input at fault, as a CliError is: its one line, exit 2.
    if (e instanceof CliError || e instanceof SourceError) {
      io.err(`knack ${cmd.path.join(' ')}: ${e.message}`);
      return e instanceof CliError ? e.exitCode : 2;
    }
    io.err(`knack ${cmd.path.join(' ')}: ${(e as Error).message ?? String(e)}`);
    if (process.env.KNACK_DEBUG) io.err((e as Error).stack ?? '');
    return 1;
  }
}
