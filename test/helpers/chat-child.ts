// A real child process holding one chat turn (for crash tests): opens the workspace, talks to the fake server,
// prints `SESSION <id>` and one `EVENT <type>` line per committed event, and waits to be killed.
import { openWorkspace } from '../../main/core/workspace.js';
import { resolvePaths } from '../../main/core/config/paths.js';
import { Agent } from '../../main/core/agent/index.js';
import { anthropicProvider } from '../../main/core/agent/providers/anthropic.js';

const [home, dataDir, workspace, baseURL, message] = process.argv.slice(2) as [string, string, string, string, string];
const ws = await openWorkspace({ paths: resolvePaths({ home, dataDir }, {}), workspace, requireStore: true });
const agent = Agent.create(ws, { providerInstance: anthropicProvider({ apiKey: 'sk-child', model: 'fake', baseURL, contextWindow: 200_000, maxRetries: 0 }) });
const chat = agent.newSession();
process.stdout.write(`SESSION ${chat.id}\n`);
chat.on((e) => void process.stdout.write(`EVENT ${e.type}\n`));
await chat.send(message);
process.stdout.write('DONE\n');
setInterval(() => {}, 1000);
