// --json is accepted by every command, so every command must answer in JSON when given it (scripts parse stdout).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { main } from '../../../main/cli/index.js';
import type { Io } from '../../../main/cli/command.js';
import { tempDir } from '../../helpers/tmp.js';
import { cliArgs } from '../../helpers/cli.js';

function capture(): Io & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (t) => void stdout.push(t), err: (t) => void stderr.push(t) };
}

test('policy rules add/remove and skills reject print JSON under --json', async () => {
  const root = tempDir();
  const common = [...cliArgs({ ws: root, home: join(root, 'home'), data: join(root, 'data') }), '--json'];
  const add = capture();
  assert.equal(
    await main(['policy', 'rules', 'add', 'allow', '--tool', 'read_file', ...common], add),
    0,
    add.stderr.join('\n'),
  );
  const id = (JSON.parse(add.stdout.join('\n')) as { rule: { id: string } }).rule.id;
  const rm = capture();
  assert.equal(await main(['policy', 'rules', 'remove', id, ...common], rm), 0, rm.stderr.join('\n'));
  assert.deepEqual(JSON.parse(rm.stdout.join('\n')), { removed: id });
  const rej = capture();
  assert.equal(await main(['skills', 'reject', 'no-such-id', ...common], rej), 2);
  assert.match(rej.stderr.join('\n'), /no pending approval no-such-id/);
});
