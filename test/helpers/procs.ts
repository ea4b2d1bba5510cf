// Processes as /proc shows them (Linux), for tests that check what a call left running.
import { readdirSync, readFileSync } from 'node:fs';

/** Pids whose command line holds `needle` (a zombie's is empty: it is gone). */
export function withMarker(needle: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(needle)) out.push(Number(name));
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

/** Pids whose environment holds `needle` (`NAME=value`): finds a process without a mark on its command line. */
export function withEnv(needle: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`, 'utf8').split('\0').includes(needle)) out.push(Number(name));
    } catch {
      /* gone meanwhile, or not ours to read */
    }
  }
  return out;
}

/** The fields of /proc/PID/stat after the command name (state is [0], the process group [2]); undefined once gone. */
export function statOf(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** Poll (every 50 ms, at most `ms`) until `what()` is empty; returns what is left then. */
export async function leftAfter(what: () => number[], ms = 2000): Promise<number[]> {
  const end = Date.now() + ms;
  let left = what();
  while (left.length && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
    left = what();
  }
  return left;
}
