// A real child process changing the MCP trust record of a data folder, as a second Knack would (serve mode beside the
// desktop app). `trust PREFIX N`: trusts PREFIX0…PREFIXn-1, one locked change each; `revoke PREFIX N`: trusts each
// and then forgets it, two locked changes. Each prints READY and starts once GO exists, so two children loaded apart
// change the record at once.
// `hold`: takes the MCP edit lock, prints HELD, and keeps it until killed.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { trustMcpServer, withMcpEditLock } from '../../main/core/mcp/index.js';
import type { McpServerConfig } from '../../main/core/mcp/index.js';

const [dataDir, workspace, mode, prefix, count, go] = process.argv.slice(2) as [
  string,
  string,
  'trust' | 'revoke' | 'hold',
  string?,
  string?,
  string?,
];
const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

if (mode === 'hold') {
  await withMcpEditLock(dataDir, () => {
    process.stdout.write('HELD\n');
    for (;;) sleep(60_000); // until killed
  });
} else {
  process.stdout.write('READY\n');
  while (!existsSync(go!)) sleep(1);
  const config = (name: string): McpServerConfig =>
    ({
      name,
      source: join(workspace, '.workbuddy', 'mcp.json'),
      command: process.execPath,
      args: [name],
      env: {},
      network: [],
    }) as unknown as McpServerConfig;
  for (let i = 0; i < Number(count); i++) {
    const name = `${prefix}${i}`;
    await withMcpEditLock(dataDir, () => trustMcpServer(dataDir, workspace, name, config(name)));
    if (mode === 'revoke') await withMcpEditLock(dataDir, () => trustMcpServer(dataDir, workspace, name, undefined));
    // A moment between changes, as between a person's clicks: the other process waiting for the lock gets its turn.
    await new Promise((r) => setTimeout(r, 1));
  }
  process.stdout.write('DONE\n');
}
