// bash tells the Tools page what is true of the workspace's sandbox, in English and Chinese: inside it when it is up,
// without it (each command asking) when it is off in settings or unavailable, and never "inside the OS sandbox" then.
// The model is offered one description whatever the sandbox's state (its results say where each command ran).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serviceEnv } from '../../helpers/service-env.js';
import { assertSaid } from '../../helpers/words.js';
import { tempDir } from '../../helpers/tmp.js';

/** bash as the Tools page lists it, and as the model was offered it on a turn. */
async function bashSeenWith(t: { after(fn: () => unknown): void }, mode: 'auto' | 'off') {
  const s = await serviceEnv(t, {
    prepare: (paths) => writeFileSync(join(paths.dataDir, 'settings.json'), JSON.stringify({ sandbox: { mode } })),
  });
  const listed = (await s.call('tools.list', {})).tools.find((x) => x.name === 'bash');
  assert.ok(listed, 'bash is listed');
  s.server.script({ text: 'ok' });
  const ended = s.next('chat.turnEnd');
  await s.call('chat.send', { text: 'hello' });
  await ended;
  const body = s.server.requests.at(-1)?.body as { tools?: { name: string; description: string }[] } | undefined;
  const offered = body?.tools?.find((x) => x.name === 'bash');
  assert.ok(offered, 'bash is offered to the model');
  return { listed, description: offered.description };
}

test('with the sandbox off in settings, bash says it runs without it and asks, on the Tools page and to the model', async (t) => {
  const { listed, description } = await bashSeenWith(t, 'off');
  assert.equal(
    listed.summary,
    'Run a shell command in the workspace, without the OS sandbox (off in settings); each one asks.',
  );
  assert.equal(listed.words?.code, 'toolSummary.bash.off');
  assert.match(assertSaid(listed.words, listed.summary), /不在系统沙箱内/);
  assert.match(description, /With the sandbox off in settings or unavailable, a command runs WITHOUT it/);
});

test('with the sandbox on, bash says it runs inside it, on the Tools page and to the model', async (t) => {
  const { listed, description } = await bashSeenWith(t, 'auto');
  assert.equal(listed.summary, 'Run a shell command in the workspace, inside the OS sandbox.');
  assert.equal(listed.words?.code, 'toolSummary.bash');
  assert.match(assertSaid(listed.words, listed.summary), /在系统沙箱内/);
  assert.match(description, /inside the OS sandbox when it is up: there a command can write only in the workspace/);
  assert.equal(description, (await bashSeenWith(t, 'off')).description, 'the same description, sandbox on or off');
});

test('with the sandbox unavailable (no bubblewrap on PATH), bash says it runs without it and asks', async (t) => {
  const s = await serviceEnv(t);
  // The programs are looked for on PATH as the sandbox starts, which tools.list waits for.
  const path = process.env.PATH;
  process.env.PATH = tempDir();
  let listed;
  try {
    listed = (await s.call('tools.list', {})).tools.find((x) => x.name === 'bash');
  } finally {
    process.env.PATH = path;
  }
  assert.equal((await s.service.workspace!.wall()).available, false);
  assert.ok(listed, 'bash is listed');
  assert.equal(
    listed.summary,
    'Run a shell command in the workspace, without the OS sandbox (unavailable); each one asks.',
  );
  assert.match(assertSaid(listed.words, listed.summary), /沙箱不可用/);
});
