// `knack sandbox status`: available here (bubblewrap), and without bubblewrap one clear line naming what is missing
// and the command that installs it; the same fields in --json, the reason also as words (said in Chinese too).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { cliArgs, KNACK_BIN, run } from '../../helpers/cli.js';
import { assertSaid } from '../../helpers/words.js';
import type { Said } from '../../../preload/words.js';

test('knack sandbox status says the sandbox is available here, in words and in JSON', async () => {
  const home = tempDir();
  const common = cliArgs({ ws: tempDir(), home, data: join(home, 'data') });
  const json = await run(['sandbox', 'status', '--json', ...common]);
  assert.equal(json.code, 0, json.err);
  assert.deepEqual(JSON.parse(json.out), {
    available: true,
    backend: 'bubblewrap',
    reason: '',
    hint: '',
    mode: 'auto',
  });
  const text = await run(['sandbox', 'status', ...common]);
  assert.equal(text.out, 'sandbox: bubblewrap, on (mode auto)\n');
});

test('without bubblewrap on PATH: unavailable, the reason names it, the hint installs it; mode off says so', async () => {
  const home = tempDir();
  const bin = tempDir();
  symlinkSync(process.execPath, join(bin, 'node'));
  const common = cliArgs({ ws: tempDir(), home, data: join(home, 'data') });
  const r = spawnSync(process.execPath, [KNACK_BIN, 'sandbox', 'status', '--json', ...common], {
    env: { ...process.env, PATH: bin },
    encoding: 'utf8',
  });
  assert.equal(r.status, 1, r.stderr);
  const s = JSON.parse(r.stdout) as { available: boolean; reason: string; hint: string; reasonWords?: Said };
  assert.equal(s.available, false);
  assert.match(s.reason, /^bubblewrap \(bwrap\), socat, .* not installed \(no executable file of that name/);
  assert.match(s.hint, /apt install bubblewrap socat ripgrep/);
  // The window says the reason in its language, the programs named the same way in each.
  const zh = assertSaid(s.reasonWords, s.reason);
  assert.match(zh, /^没有安装 bubblewrap \(bwrap\)、socat、true（沙箱的文件扫描程序）/);
  mkdirSync(join(home, 'data'), { recursive: true });
  writeFileSync(join(home, 'data', 'settings.json'), JSON.stringify({ sandbox: { mode: 'off' } }));
  const off = await run(['sandbox', 'status', ...common]);
  assert.equal(off.code, 1);
  assert.match(off.out, /sandbox: off in settings \(sandbox\.mode\)/);
});
