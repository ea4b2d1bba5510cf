// A real child process holding an open workspace's sandbox (for crash tests): opens the workspace, runs one contained
// command that may reach a host (so the wall's network bridges are up), prints `READY <available>` and waits to be
// killed.
import { openWorkspace } from '../../main/core/workspace.js';
import { resolvePaths } from '../../main/core/config/paths.js';

const [home, dataDir, workspace] = process.argv.slice(2) as [string, string, string];
const ws = await openWorkspace({ paths: resolvePaths({ home, dataDir }, {}), workspace });
const wall = await ws.wall();
if (wall.available) {
  const p = await wall.spawn('exit 0', { cwd: workspace, hosts: ['api.example.test'], stdio: 'ignore' });
  await new Promise((r) => p.child.once('close', r));
  await p.finish('');
}
process.stdout.write(`READY ${wall.available} ${wall.status().reason}\n`);
setInterval(() => {}, 1000);
