// A real child process holding one chat turn (for crash tests): opens the workspace, talks to the fake server,
// prints `SESSION <id>` and one `EVENT <type>` line per committed event, and waits to be killed. Given an event type
// to stop at, it freezes right after printing that event, so the turn cannot run past the point the test kills it at.
// A tool's process group is printed as `PROCESS <pgid>`.
import { openWorkspace } from '../../main/core/workspace.js';
import { resolvePaths } from '../../main/core/config/paths.js';
import { Agent } from '../../main/core/agent/index.js';
import { anthropicProvider } from '../../main/core/agent/providers/anthropic.js';

const [home, dataDir, workspace, baseURL, message, stopAt] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string?,
];
const ws = await openWorkspace({ paths: resolvePaths({ home, dataDir }, {}), workspace, requireStore: true });
const agent = Agent.create(ws, {
  providerInstance: anthropicProvider({
    apiKey: 'sk-child',
    model: 'fake',
    baseURL,
    contextWindow: 200_000,
    maxRetries: 0,
  }),
});
const chat = agent.newSession();
process.stdout.write(`SESSION ${chat.id}\n`);
chat.on((e) => {
  // The process group a tool started, for tests that look for what is left of it after the kill.
  if (e.type === 'tool_process') process.stdout.write(`PROCESS ${e.pgid}\n`);
  process.stdout.write(`EVENT ${e.type}\n`); // a pipe: written before this returns
  // KNACK_TEST_APPROVE=once: every approval is answered "once" (a command asked about when the sandbox is off).
  if (e.type === 'approval_requested' && process.env.KNACK_TEST_APPROVE === 'once')
    setImmediate(() => chat.answer(e.approvalId, { kind: 'once' }));
  if (e.type === stopAt) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); // until killed
});
await chat.send(message);
process.stdout.write('DONE\n');
setInterval(() => {}, 1000);
