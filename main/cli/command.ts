// What a CLI command is and the context it runs in: common flags, output, and one clear line per error.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { resolvePaths, type KnackPaths } from '../core/config/index.js';

export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Write without adding a newline (streamed text); falls back to `out` when absent. */
  write?(text: string): void;
  /** Ask the user a yes/no question on the terminal; false when there is no terminal. */
  confirm?(question: string): Promise<boolean>;
}

export const processIo: Io = {
  out: (t) => void process.stdout.write(t.endsWith('\n') ? t : t + '\n'),
  err: (t) => void process.stderr.write(t.endsWith('\n') ? t : t + '\n'),
  write: (t) => void process.stdout.write(t),
};

type Options = NonNullable<ParseArgsConfig['options']>;

export interface CommandContext {
  io: Io;
  /** Parsed flags of this command (common ones included). */
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  workspace: string;
  paths: KnackPaths;
  json: boolean;
}

export interface Command {
  /** e.g. ['skills', 'list'] */
  path: string[];
  summary: string;
  /** Usage line after `knack <path>`, e.g. `[--workspace DIR] [--json]`. */
  usage: string;
  options?: Options;
  /** Positional arguments the command takes at most; more are an error (undefined: any number). */
  maxPositionals?: number;
  run(ctx: CommandContext): Promise<number>;
}

/** Flags every command takes. */
const COMMON_OPTIONS: Options = {
  workspace: { type: 'string', short: 'w' },
  home: { type: 'string' },
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

/** A user-facing error: printed as one line, exit code 2 unless given. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}

export function buildContext(
  cmd: Command,
  argv: string[],
  io: Io,
  env: NodeJS.ProcessEnv = process.env,
): CommandContext {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { ...COMMON_OPTIONS, ...cmd.options },
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    throw new CliError(`${(e as Error).message.split('\n')[0]}\nusage: knack ${cmd.path.join(' ')} ${cmd.usage}`);
  }
  const extra = cmd.maxPositionals === undefined ? undefined : parsed.positionals[cmd.maxPositionals];
  if (extra !== undefined) {
    const hint = cmd.maxPositionals === 0 ? ` (a folder to look at is given with --workspace ${extra})` : '';
    throw new CliError(`unexpected argument "${extra}"${hint}\nusage: knack ${cmd.path.join(' ')} ${cmd.usage}`);
  }
  const values = parsed.values as CommandContext['values'];
  const workspace = typeof values.workspace === 'string' ? realWorkspace(values.workspace) : process.cwd();
  const home = typeof values.home === 'string' ? resolve(values.home) : undefined;
  const dataDir = typeof values['data-dir'] === 'string' ? resolve(values['data-dir']) : undefined;
  const paths = resolvePaths({ ...(home ? { home } : {}), ...(dataDir ? { dataDir } : {}) }, env);
  return { io, values, positionals: parsed.positionals, workspace, paths, json: values.json === true };
}

/**
 * The --workspace folder under its real path, the one the gate and the ceiling resolve, so what is stored for it
 * (an "always" rule, a toggle, a session) is found again through a symlinked folder or macOS's /tmp. A mistyped
 * --workspace is an error, not a project tier that silently has no skills.
 */
function realWorkspace(given: string): string {
  let real: string;
  let st;
  try {
    real = realpathSync.native(resolve(given));
    st = statSync(real);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliError(
      `--workspace ${given}: ${code === 'ENOENT' ? 'no such folder' : code === 'ENOTDIR' ? 'not a folder' : (e as Error).message}`,
    );
  }
  if (!st.isDirectory()) throw new CliError(`--workspace ${given}: not a folder`);
  return real;
}

export function printJson(io: Io, value: unknown): void {
  io.out(JSON.stringify(value, null, 2));
}

/** Read a string flag, or throw a one-line error naming it. */
export function stringFlag(ctx: CommandContext, name: string, required = false): string | undefined {
  const v = ctx.values[name];
  if (typeof v === 'string') return v;
  if (required) throw new CliError(`missing --${name}`);
  return undefined;
}

/** Parse a JSON flag value with an error that names the flag. */
export function jsonFlag(ctx: CommandContext, name: string): unknown {
  const v = stringFlag(ctx, name);
  if (v === undefined) return undefined;
  try {
    return JSON.parse(v);
  } catch (e) {
    throw new CliError(`--${name}: invalid JSON: ${(e as Error).message}`);
  }
}
