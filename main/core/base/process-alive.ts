// Whether a process of this machine is alive, for files that name their maker by pid (a lock, a temporary clone).

/** Whether process `pid` is alive: signal 0 checks without sending; EPERM means it is, another user's. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
