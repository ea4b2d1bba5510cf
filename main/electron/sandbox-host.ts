// Electron's SpawnHost: the sandbox host runs in a utilityProcess (the same host entry; it talks over parentPort).
// Pass it to the script runner in the desktop app: createScriptRunner({ ..., spawn: utilityProcessHost }).
import { utilityProcess } from 'electron';
import { hostEntry, hostEnv, type HostProcess, type SpawnHost } from '../core/sandbox/index.js';

export const utilityProcessHost: SpawnHost = ({ heartbeatMs }) => {
  const { file, execArgv } = hostEntry();
  const child = utilityProcess.fork(file, ['--heartbeat-ms', String(heartbeatMs)], {
    execArgv,
    env: hostEnv(),
    stdio: 'ignore',
    serviceName: 'Knack skill sandbox',
  });
  const exitCbs: ((code: number | null, signal: string | null) => void)[] = [];
  let exited = false;
  child.on('exit', (code) => {
    if (exited) return;
    exited = true;
    for (const cb of exitCbs) cb(code, null);
  });
  const host: HostProcess = {
    get pid() {
      return child.pid;
    },
    send(msg) {
      if (!exited) child.postMessage(msg);
    },
    onMessage: (cb) => void child.on('message', cb),
    onExit: (cb) => void exitCbs.push(cb),
    kill() {
      if (!exited) child.kill();
    },
  };
  return host;
};
