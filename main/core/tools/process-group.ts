// Process groups a tool started, named so they can be found again after a crash: the group id and its leader's start
// time (from /proc, so a pid the system reused is never taken for ours), and ending what is left of one at recovery.
import { readdirSync, readFileSync } from 'node:fs';

/** A process group a tool call started: its id (the leader's pid) and the leader's start time (clock ticks since boot). */
export interface ProcessGroupRecord {
  pgid: number;
  /** /proc/<pid>/stat field 22; undefined where there is no /proc (then a leftover is never ended: it cannot be told apart). */
  start?: number;
  /** The Knack process that started it (pid and start time): while that one runs, the group is not left over. */
  owner?: { pid: number; start: number };
}

interface Stat {
  pid: number;
  pgid: number;
  start: number;
  /** Exited, not yet reaped: nothing left to end. */
  zombie: boolean;
}

/** /proc/<pid>/stat, read past the command name (which may hold spaces and parentheses). */
function statOf(pid: number): Stat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // After the name: state(3) ppid(4) pgrp(5) … starttime(22); fields[0] is field 3.
  const pgid = Number(fields[2]);
  const start = Number(fields[19]);
  if (!Number.isInteger(pgid) || !Number.isInteger(start)) return undefined;
  return { pid, pgid, start, zombie: fields[0] === 'Z' };
}

/** The record of a group just started with `pid` as its leader (read right after spawn). */
export function groupRecord(pid: number): ProcessGroupRecord {
  const s = statOf(pid);
  const me = statOf(process.pid);
  return {
    pgid: pid,
    ...(s ? { start: s.start } : {}),
    ...(me ? { owner: { pid: me.pid, start: me.start } } : {}),
  };
}

/** The recorded group's Knack still runs (another window or `knack serve` holding the same session). */
function ownerAlive(g: ProcessGroupRecord): boolean {
  if (!g.owner) return false;
  const s = statOf(g.owner.pid);
  return s !== undefined && !s.zombie && s.start === g.owner.start;
}

/**
 * The live members of the recorded group left over by a Knack that is gone. A pid is not reused while a group still holds its number, so members are
 * ours unless the whole group ended and a new one took the number: then its leader (alive, with another start time) or
 * its members (started before ours could not have been) give it away, and nothing is returned.
 */
export function liveMembers(g: ProcessGroupRecord): number[] {
  if (g.start === undefined || ownerAlive(g)) return [];
  let pids: string[];
  try {
    pids = readdirSync('/proc');
  } catch {
    return [];
  }
  const leader = statOf(g.pgid);
  if (leader && leader.pgid === g.pgid && leader.start !== g.start) return [];
  const out: number[] = [];
  for (const name of pids) {
    if (!/^\d+$/.test(name)) continue;
    const s = statOf(Number(name));
    if (s && s.pgid === g.pgid && !s.zombie) {
      if (s.start < g.start) return []; // older than our leader: not our group
      out.push(s.pid);
    }
  }
  return out;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    /* gone */
  }
}

/**
 * End what is left of a recorded group: SIGTERM, up to `graceMs` for it to go, then SIGKILL. Returns how many of its
 * processes were alive. Synchronous (a short blocking wait, only when a leftover exists): recovery runs before the
 * session continues, and nothing of it may run alongside.
 */
export function endLeftoverGroup(g: ProcessGroupRecord, graceMs = 500): number {
  const alive = liveMembers(g);
  if (alive.length === 0) return 0;
  signalGroup(g.pgid, 'SIGTERM');
  // A stopped process holds SIGTERM until it runs again: SIGCONT lets it see it (SIGKILL below ends it either way).
  signalGroup(g.pgid, 'SIGCONT');
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0; waited < graceMs && liveMembers(g).length > 0; waited += 25) Atomics.wait(pause, 0, 0, 25);
  if (liveMembers(g).length > 0) signalGroup(g.pgid, 'SIGKILL');
  return alive.length;
}
