import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { main } from '../../../main/cli/index.js';
import { capture, cliArgs } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/tmp.js';
import { startFakeAnthropic } from '../../helpers/fake-anthropic.js';
import { writeProvidersFile } from '../../../main/core/agent/index.js';

const server = await startFakeAnthropic();
after(() => server.close());

test("knack sessions list shows each session's cost, and a blank (not $0) where the model has no price", async () => {
  const home = tempDir('knack-sessions-home-');
  const dataDir = join(home, 'data');
  const common = cliArgs({ ws: tempDir('knack-sessions-ws-'), home, data: dataDir });
  writeProvidersFile(dataDir, { providers: {}, prices: { 'anthropic/priced-model': { input: 3, output: 15 } } });
  const chat = async (model: string, message: string): Promise<void> => {
    server.script({ text: 'ok', usage: { input: 1000, output: 100 } });
    const c = capture();
    process.env.ANTHROPIC_API_KEY = 'sk-ant-list-cost-0123456789';
    try {
      assert.equal(
        await main(
          ['chat', '--once', message, '--provider', 'anthropic', '--model', model, '--base-url', server.url, ...common],
          c.io,
        ),
        0,
        c.err.join('\n'),
      );
    } finally {
      delete process.env.ANTHROPIC_API_KEY;
    }
  };
  await chat('priced-model', 'a priced question');
  await chat('unknown-model', 'an unpriced question');

  const l = capture();
  assert.equal(await main(['sessions', 'list', ...common], l.io), 0, l.err.join('\n'));
  const lines = l.out.join('\n').split('\n');
  const priced = lines.find((x) => x.includes('a priced question'));
  const unpriced = lines.find((x) => x.includes('an unpriced question'));
  // 1,000 tokens in at $3/M and 100 out at $15/M.
  assert.match(priced ?? '', /events +\$0\.0045 +priced-model /, l.out.join('\n'));
  assert.match(unpriced ?? '', /events +unknown-model /, l.out.join('\n'));
  assert.doesNotMatch(unpriced ?? '', /\$/);
  // The cost column lines up: both lines put the model name at the same column.
  assert.equal(priced!.indexOf('priced-model'), unpriced!.indexOf('unknown-model'));

  const j = capture();
  assert.equal(await main(['sessions', 'list', '--json', ...common], j.io), 0);
  const rows = JSON.parse(j.out.join('')) as { title: string; costUsd?: number }[];
  const pricedRow = rows.find((r) => r.title === 'a priced question')!;
  assert.ok(Math.abs(pricedRow.costUsd! - 0.0045) < 1e-12, String(pricedRow.costUsd));
  assert.equal('costUsd' in rows.find((r) => r.title === 'an unpriced question')!, false);
});

test('knack sessions search finds a word of an old answer (escaped), rename gives the title it then lists', async () => {
  const home = tempDir('knack-sessions-home-');
  const common = cliArgs({ ws: tempDir('knack-sessions-ws-'), home, data: join(home, 'data') });
  server.script({ text: 'Feed the \u001b[31mpenguins\u001b[0m at dawn.' });
  const c = capture();
  process.env.ANTHROPIC_API_KEY = 'sk-ant-search-0123456789';
  try {
    const args = ['chat', '--once', 'zoo chores', '--provider', 'anthropic', '--model', 'm', '--base-url', server.url];
    assert.equal(await main([...args, ...common], c.io), 0, c.err.join('\n'));
  } finally {
    delete process.env.ANTHROPIC_API_KEY;
  }
  const s = capture();
  assert.equal(await main(['sessions', 'search', 'penguins', ...common], s.io), 0, s.err.join('\n'));
  const out = s.out.join('\n');
  assert.match(out, /zoo chores\n {4}answer: Feed the \\x1b\[31m\[penguins\]\\x1b\[0m at dawn\./);
  assert.doesNotMatch(out, /\u001b/, 'no escape sequence reaches the terminal');
  const id = /^([0-9a-f]{8})/.exec(out)![1]!;

  const r = capture();
  assert.equal(await main(['sessions', 'rename', id, 'Zoo', 'rota', ...common], r.io), 0, r.err.join('\n'));
  const l = capture();
  assert.equal(await main(['sessions', 'list', ...common], l.io), 0);
  assert.match(l.out.join('\n'), /Zoo rota$/m);
  const none = capture();
  assert.equal(await main(['sessions', 'search', 'walrus', ...common], none.io), 0);
  assert.match(none.out.join('\n'), /no session holds "walrus"/);
  const bad = capture();
  assert.notEqual(await main(['sessions', 'rename', id, ...common], bad.io), 0);
});
