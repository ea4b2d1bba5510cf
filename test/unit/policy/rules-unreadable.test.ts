// While the user's rules cannot be read (the database was damaged and set aside, or cannot be opened), every tool call
// asks, `--yes` does not answer, and a deny rule the user wrote never silently stops applying.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir, writeTree } from '../../helpers/tmp.js';
import { capture, cliArgs, run } from '../../helpers/cli.js';
import { startFakeAnthropic } from '../../helpers/fake-anthropic.js';
import { main } from '../../../main/cli/index.js';

const SECRET = 'TOP-SECRET-7f3a91';

async function withDenyRule() {
  const root = tempDir();
  writeTree(root, { 'ws/secret/key.txt': `${SECRET}\n`, 'ws/readme.md': 'hello\n' });
  const data = join(root, 'data');
  const common = cliArgs({ ws: join(root, 'ws'), home: join(root, 'home'), data });
  const added = await run(['policy', 'rules', 'add', 'deny', '--tool', 'read_file', '--path', 'secret/**', ...common]);
  assert.equal(added.code, 0, added.err);
  const denied = await run([
    'tools',
    'call',
    'read_file',
    '--args',
    '{"path":"secret/key.txt"}',
    '--yes',
    '--no-mcp',
    ...common,
  ]);
  assert.doesNotMatch(denied.out + denied.err, new RegExp(SECRET), 'the rule holds while the database is sound');
  return { root, data, common, db: join(data, 'knack.db') };
}

/** Write garbage over one page in the middle of the file (its header stays whole). */
function damagePage(file: string): void {
  const pages = statSync(file).size / 4096;
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(4096, 0x5a), 0, 4096, 4096 * Math.max(1, Math.floor(pages / 2)));
  closeSync(fd);
}

for (const [what, damage] of [
  [
    'a damaged header',
    (f: string) => {
      const fd = openSync(f, 'r+');
      writeSync(fd, Buffer.from('not SQLite at all'), 0, 16, 0);
      closeSync(fd);
    },
  ],
  ['a damaged page', damagePage],
] as const) {
  test(`with ${what}, tools call read_file secret/key.txt never prints the secret, --yes or not`, async () => {
    const s = await withDenyRule();
    damage(s.db);
    const args = ['tools', 'call', 'read_file', '--args', '{"path":"secret/key.txt"}', '--no-mcp', ...s.common];
    const yes = await run([...args, '--yes']);
    assert.doesNotMatch(yes.out + yes.err, new RegExp(SECRET));
    assert.notEqual(yes.code, 0);
    // One clear line names the file set aside and what it means.
    const line = yes.err.split('\n').find((l) => l.includes('.damaged-'));
    assert.ok(line, yes.err);
    assert.match(line, /knack\.db\.damaged-\d{8}T\d{6}Z/);
    assert.match(line, /every tool call asks/);
    assert.match(yes.err, /--yes does not answer/);
    // Asked on the terminal and declined: not run either.
    const no = await run(args, false);
    assert.doesNotMatch(no.out + no.err, new RegExp(SECRET));
    // The reason the gate gives says why.
    const check = await run(['policy', 'check', '--tool', 'read_file', '--args', '{"path":"readme.md"}', ...s.common]);
    assert.equal(check.code, 1, check.out + check.err);
    assert.match(check.out, /^ask: .*rules cannot be read/);
  });
}

test('a person may still answer yes while the rules cannot be read; acknowledging the damage ends the asking', async () => {
  const s = await withDenyRule();
  damagePage(s.db);
  const args = ['tools', 'call', 'read_file', '--args', '{"path":"readme.md"}', '--no-mcp', ...s.common];
  const asked = await run(args, true);
  assert.equal(asked.code, 0, asked.err);
  assert.match(asked.out, /hello/);
  const status = await run(['store', 'status', ...s.common]);
  assert.equal(status.code, 1, status.out + status.err);
  assert.match(status.out, /integrity ok/);
  assert.match(status.out, /knack\.db\.damaged-/);
  const ack = await run(['store', 'acknowledge', ...s.common]);
  assert.equal(ack.code, 0, ack.err);
  assert.match(ack.out, /knack\.db\.damaged-/);
  assert.equal((await run(['store', 'status', ...s.common])).code, 0);
  const after = await run(args);
  assert.equal(after.code, 0, after.err);
  assert.match(after.out, /hello/);
});

test('a database that cannot be opened at all (newer schema) also makes every call ask, and --yes refuses', async () => {
  const s = await withDenyRule();
  const db = new Database(s.db);
  db.pragma('user_version = 9999');
  db.close();
  const r = await run([
    'tools',
    'call',
    'read_file',
    '--args',
    '{"path":"secret/key.txt"}',
    '--yes',
    '--no-mcp',
    ...s.common,
  ]);
  assert.doesNotMatch(r.out + r.err, new RegExp(SECRET));
  assert.notEqual(r.code, 0);
  assert.match(r.err, /newer than this Knack/);
  assert.match(r.err, /--yes does not answer/);
});

test('knack chat --yes: the model asking for secret/key.txt with the rules unreadable is refused, never shown', async () => {
  const s = await withDenyRule();
  damagePage(s.db);
  const model = await startFakeAnthropic();
  try {
    model.script({ toolCalls: [{ id: 'r', name: 'read_file', input: { path: 'secret/key.txt' } }] }, { text: 'done' });
    const c = capture();
    process.env.ANTHROPIC_API_KEY = 'sk-ant-test-abcdefghijk';
    try {
      await main(
        [
          'chat',
          '--once',
          'read the key',
          '--provider',
          'anthropic',
          '--base-url',
          model.url,
          '--yes',
          '--json',
          ...s.common,
        ],
        c.io,
      );
    } finally {
      delete process.env.ANTHROPIC_API_KEY;
    }
    const all = [...c.out, ...c.err].join('\n');
    assert.doesNotMatch(all, new RegExp(SECRET));
    const events = c.out.map((l) => JSON.parse(l) as { type: string; answer?: string; message?: string });
    assert.ok(
      events.some(
        (e) => e.type === 'approval_answered' && e.answer === 'deny' && /--yes does not answer/.test(e.message ?? ''),
      ),
      all,
    );
    assert.ok(!events.some((e) => e.type === 'approval_answered' && e.answer === 'once'), all);
    // What reached the model is the refusal, not the file.
    assert.doesNotMatch(JSON.stringify(model.requests), new RegExp(SECRET));
  } finally {
    await model.close();
  }
});
