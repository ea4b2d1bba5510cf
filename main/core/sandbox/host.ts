// The sandbox host: the child-process entry that runs skill scripts in isolated-vm isolates, one per run.
// Speaks the protocol over Node IPC (child_process.fork) or Electron's parentPort (utilityProcess); never touches files.
import ivm from 'isolated-vm';
import { parseClientMessage, type ClientMessage, type HostMessage } from './protocol.js';
import { startRun, type ActiveRun } from './isolate-run.js';

/** The host's side of the channel: Node's process IPC or Electron's `process.parentPort`. */
interface ParentChannel {
  send(msg: HostMessage): void;
  onMessage(cb: (raw: unknown) => void): void;
}

interface ElectronParentPort {
  postMessage(msg: unknown): void;
  on(event: 'message', cb: (e: { data: unknown }) => void): void;
}

function parentChannel(): ParentChannel {
  const port = (process as unknown as { parentPort?: ElectronParentPort }).parentPort;
  if (port) {
    return { send: (m) => port.postMessage(m), onMessage: (cb) => port.on('message', (e) => cb(e.data)) };
  }
  if (typeof process.send !== 'function') {
    process.stderr.write(
      'knack sandbox host: no parent channel (start it with child_process.fork or utilityProcess.fork)\n',
    );
    process.exit(2);
  }
  return {
    send: (m) => {
      if (process.connected) process.send!(m);
    },
    onMessage: (cb) => process.on('message', cb),
  };
}

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

/** Log lines are sent in batches at most this often. */
const LOG_FLUSH_MS = 20;

export function runHost(channel: ParentChannel): void {
  const runs = new Map<string, ActiveRun>();
  const heartbeatMs = flag('--heartbeat-ms', 100);

  const handle = (msg: ClientMessage): void => {
    switch (msg.type) {
      case 'run': {
        if (runs.has(msg.runId)) {
          channel.send({
            type: 'protocolError',
            error: { code: 'protocol.duplicate_run', message: `run ${msg.runId} is already running` },
          });
          return;
        }
        let lines: string[] = [];
        let flushTimer: NodeJS.Timeout | undefined;
        const flush = (): void => {
          clearTimeout(flushTimer);
          flushTimer = undefined;
          if (lines.length) channel.send({ type: 'log', runId: msg.runId, lines });
          lines = [];
        };
        const run = startRun(msg, {
          log: (text) => {
            lines.push(text);
            flushTimer ??= setTimeout(flush, LOG_FLUSH_MS);
          },
          cap: (callId, op, payloadJson) => channel.send({ type: 'cap', runId: msg.runId, callId, op, payloadJson }),
        });
        runs.set(msg.runId, run);
        void run.done.then((outcome) => {
          runs.delete(msg.runId);
          // Log lines first, then the result, at once: nothing queued behind a flood may delay it.
          flush();
          channel.send({ type: 'result', runId: msg.runId, ...outcome });
        });
        return;
      }
      case 'capResult': {
        const run = runs.get(msg.runId);
        if (!run) return; // the run already ended; late replies are dropped
        const json = msg.ok
          ? (msg.valueJson ?? 'null')
          : JSON.stringify(msg.error ?? { code: 'capability.failed', message: 'capability failed' });
        run.deliver(msg.callId, msg.ok, json);
        return;
      }
      case 'cancel':
        runs.get(msg.runId)?.stop(msg.reason);
        return;
      case 'hold':
        runs.get(msg.runId)?.hold();
        return;
      case 'release':
        runs.get(msg.runId)?.release();
        return;
    }
  };

  channel.onMessage((raw) => {
    const parsed = parseClientMessage(raw);
    if (!parsed.ok) {
      channel.send({ type: 'protocolError', error: parsed.error });
      return;
    }
    handle(parsed.message);
  });

  // Heartbeat + CPU watch: a host whose event loop stops turning is killed by the client's watchdog.
  setInterval(() => {
    for (const run of runs.values()) run.checkCpu();
    channel.send({ type: 'heartbeat', at: Date.now(), activeRuns: runs.size });
  }, heartbeatMs);

  process.on('disconnect', () => process.exit(0));
  channel.send({
    type: 'ready',
    pid: process.pid,
    isolatedVm: String((ivm as unknown as { version?: string }).version ?? '5'),
  });
}

runHost(parentChannel());
