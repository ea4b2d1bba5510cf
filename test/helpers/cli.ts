// The real `knack` CLI in-process for tests: main() with an Io that collects what each command prints (a line per
// out/err call), and optionally answers the terminal's yes/no questions.
import { main } from '../../main/cli/index.js';
import type { Io } from '../../main/cli/command.js';

export interface CliRun {
  code: number;
  /** stdout, each printed line ending in a newline. */
  out: string;
  err: string;
}

/** Run `knack ARGS`; `answer` is what the terminal answers to a yes/no question (none: no terminal to ask). */
export async function run(args: string[], answer?: boolean): Promise<CliRun> {
  let out = '';
  let err = '';
  const io: Io = {
    out: (t) => void (out += `${t}\n`),
    err: (t) => void (err += `${t}\n`),
    ...(answer === undefined ? {} : { confirm: async () => answer }),
  };
  const code = await main(args, io);
  return { code, out, err };
}

/** An Io that keeps each call's text apart (streamed text included), for tests that call main() themselves. */
export function capture(): { out: string[]; err: string[]; io: Io } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: { out: (t) => void out.push(t), err: (t) => void err.push(t), write: (t) => void out.push(t) },
  };
}
