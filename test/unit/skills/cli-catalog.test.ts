// `knack skills list|show|lint|index|enable|disable` with temp --home/--data-dir, so the real home is never touched:
// in-process (main()), and the first test through the real bin (node bin/knack.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, skillMd, writeTree } from '../../helpers/tmp.js';
import { cliArgs, cliEnv, cliFolders, KNACK_BIN, run } from '../../helpers/cli.js';

function setup() {
  const f = cliFolders();
  const builtin = join(f.root, 'builtin');
  writeTree(builtin, { 'deploy/SKILL.md': skillMd({ name: 'deploy', description: 'builtin deploy' }) });
  writeTree(join(f.home, '.workbuddy/skills'), {
    'deploy/SKILL.md': skillMd({ name: 'deploy', description: 'user deploy' }),
    'notes/SKILL.md': skillMd({ name: 'notes', description: 'Take notes\nacross lines' }),
    'broken/SKILL.md': '---\nname: broken\ndescription: [unclosed\n---\n',
  });
  writeTree(join(f.ws, '.workbuddy/skills'), {
    'deploy/SKILL.md': skillMd({ name: 'deploy', description: 'project deploy', read_when: ['ship it'] }),
  });
  return { ...f, builtin };
}

/** `knack ARGS` in-process, in the set-up's folders (or another workspace). */
function knack(s: ReturnType<typeof setup>, ...args: string[]) {
  return run([...args, ...s.args], undefined, { KNACK_BUILTIN_SKILLS: s.builtin, KNACK_HOME: '', KNACK_DATA_DIR: '' });
}

/** `knack ARGS` as a real process (node bin/knack.js). */
function knackBin(s: ReturnType<typeof setup>, ...args: string[]) {
  const r = spawnSync(process.execPath, [KNACK_BIN, ...args, ...s.args], {
    encoding: 'utf8',
    env: cliEnv({ KNACK_BUILTIN_SKILLS: s.builtin }),
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('skills list shows every tier with shadowing and on/off state', () => {
  const s = setup();
  const r = knackBin(s, 'skills', 'list');
  assert.equal(r.code, 0, r.err);
  const rows = r.out
    .split('\n')
    .filter((l) => /^(project|user|builtin) /.test(l))
    .map((l) => /^(\w+) +(\S+) +(shadowed by \w+|on|off) /.exec(l)?.slice(1, 4).join(' '));
  assert.deepEqual(rows, [
    'project deploy on',
    'user deploy shadowed by project',
    'builtin deploy shadowed by project',
    'user notes on',
  ]);
  assert.match(r.out, /Take notes across lines/);
  assert.match(r.out, /1 skill could not be read/);
  const all = knackBin(s, 'skills', 'list', '--all');
  assert.match(all.out, /\(broken\).*broken\/SKILL\.md:3: description: Invalid YAML in frontmatter/);
});

test('skills list cuts a long description to the table width in characters, never inside one outside the BMP', async () => {
  const s = setup();
  const astral = '𝓐𝓑𝓒 '.repeat(60); // each letter is two UTF-16 units
  writeTree(join(s.ws, '.workbuddy/skills'), {
    'script/SKILL.md': skillMd({ name: 'script', description: `Letters ${astral}` }),
    'plain/SKILL.md': skillMd({ name: 'plain', description: 'word '.repeat(60) }),
    // 55 characters in 105 UTF-16 units: it fits.
    'short/SKILL.md': skillMd({ name: 'short', description: `Fits ${'𝓐'.repeat(50)}` }),
  });
  const r = await knack(s, 'skills', 'list');
  assert.equal(r.code, 0, r.err);
  const line = (name: string) => r.out.split('\n').find((l) => new RegExp(`^project +${name} `).test(l))!;
  for (const name of ['script', 'plain']) {
    const l = line(name);
    assert.equal([...l].length, 100, `${name}: cut to the 100-column table: ${l}`);
    assert.ok(l.endsWith('…'), l);
    assert.doesNotMatch(
      l,
      /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/,
      'no half character',
    );
  }
  assert.ok(line('short').endsWith(` Fits ${'𝓐'.repeat(50)}`), 'a description that fits is shown whole');
});

test('skills list --json gives tier, path and shadowedBy for scripts', async () => {
  const s = setup();
  const r = await knack(s, 'skills', 'list', '--json');
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out) as {
    skills: { name: string; tier: string; path: string; shadowedBy?: { tier: string } }[];
  };
  const deploy = j.skills.filter((x) => x.name === 'deploy');
  assert.deepEqual(
    deploy.map((x) => [x.tier, x.shadowedBy?.tier ?? null]),
    [
      ['project', null],
      ['user', 'project'],
      ['builtin', 'project'],
    ],
  );
  assert.equal(deploy[0]!.path, join(s.ws, '.workbuddy/skills/deploy/SKILL.md'));
});

test('skills show prints the manifest, path, tier and what it shadows; unknown names are one clear error', async () => {
  const s = setup();
  const r = await knack(s, 'skills', 'show', 'deploy');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /tier: +project/);
  assert.match(r.out, /read when: +ship it/);
  assert.match(r.out, new RegExp(`shadows: +user ${join(s.home, '.workbuddy/skills/deploy/SKILL.md')}`));
  const missing = await knack(s, 'skills', 'show', 'nope');
  assert.equal(missing.code, 2);
  assert.equal(missing.err.trim().split('\n').length, 1);
  assert.match(missing.err, /no skill named "nope"/);
  const broken = await knack(s, 'skills', 'show', 'broken');
  assert.equal(broken.code, 1);
  assert.match(broken.out, /broken\/SKILL\.md:3: description: Invalid YAML/);
});

test('skills lint prints file:line: field: message and exits 1 on errors, 0 when clean', async () => {
  const s = setup();
  const bad = await knack(s, 'skills', 'lint');
  assert.equal(bad.code, 1);
  assert.match(bad.out, /broken\/SKILL\.md:3: description: Invalid YAML in frontmatter/);
  const good = await knack(s, 'skills', 'lint', join(s.home, '.workbuddy/skills/notes'));
  assert.equal(good.code, 0, good.out);
  assert.match(good.out, /1 skill checked: 0 errors, 0 warnings/);
});

test('skills lint explains every broken spec fixture; --strict gives the reference verdict', async () => {
  const s = setup();
  const spec = join(s.root, 'spec');
  cpSync(join(FIXTURES, 'agent-skills-spec'), spec, { recursive: true });
  mkdirSync(join(spec, 'v02-missing-skill-md/my-skill'), { recursive: true });
  const lenient = await knack(s, 'skills', 'lint', spec);
  assert.equal(lenient.code, 1);
  for (const id of [
    'p02-missing-frontmatter',
    'p03-unclosed-frontmatter',
    'p04-invalid-yaml',
    'p05-non-mapping',
    'p08-missing-name',
    'p09-missing-description',
    'x03-unquoted-colon',
    'x11-description-empty',
  ]) {
    assert.match(lenient.out, new RegExp(`${id}/my-skill/SKILL\\.md:\\d+: `), id);
  }
  assert.match(
    lenient.out,
    /v08-name-dir-mismatch\/wrong-name\/SKILL\.md:2: warning: name: Directory name 'wrong-name' must match skill name 'correct-name'/,
  );
  const strict = await knack(s, 'skills', 'lint', '--strict', join(spec, 'v09-unexpected-field/my-skill'));
  assert.equal(strict.code, 1);
  assert.match(strict.out, /SKILL\.md:4: unknown_field: Unexpected fields in frontmatter: unknown_field/);
  const missing = await knack(s, 'skills', 'lint', join(spec, 'v02-missing-skill-md/my-skill'));
  assert.equal(missing.code, 1);
  assert.match(missing.out, /Missing required file: SKILL\.md/);
});

test('skills index --json reports every skill with tier, path, shadowing, diagnostics and timings', async () => {
  const s = setup();
  const r = await knack(s, 'skills', 'index', '--json');
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out) as {
    timings: Record<string, number>;
    skills: { name: string; tier: string; path: string; diagnostics: unknown[] }[];
    broken: { file: string }[];
  };
  assert.equal(j.skills.length, 4);
  assert.equal(j.broken.length, 1);
  for (const k of ['discoverMs', 'parseMs', 'mergeMs', 'totalMs', 'files', 'parsed', 'cached'])
    assert.equal(typeof j.timings[k], 'number', k);
  assert.equal(j.timings.files, 5);
  // The second run is served from the SQLite cache in the data dir.
  const again = JSON.parse((await knack(s, 'skills', 'index', '--json')).out) as {
    timings: { parsed: number; cached: number };
  };
  assert.deepEqual([again.timings.parsed, again.timings.cached], [0, 5]);
});

test('skills disable/enable toggle a skill for this workspace only', async () => {
  const s = setup();
  assert.equal((await knack(s, 'skills', 'disable', 'notes')).code, 0);
  const j = JSON.parse((await knack(s, 'skills', 'list', '--json')).out) as {
    skills: { name: string; enabled: boolean }[];
  };
  assert.equal(j.skills.find((x) => x.name === 'notes')?.enabled, false);
  const other = await knack({ ...s, args: cliArgs({ ...s, ws: s.root }) }, 'skills', 'list', '--json');
  assert.equal(
    (JSON.parse(other.out) as { skills: { name: string; enabled: boolean }[] }).skills.find((x) => x.name === 'notes')
      ?.enabled,
    true,
  );
  assert.equal((await knack(s, 'skills', 'enable', 'notes')).code, 0);
  const k = JSON.parse((await knack(s, 'skills', 'list', '--json')).out) as {
    skills: { name: string; enabled: boolean }[];
  };
  assert.equal(k.skills.find((x) => x.name === 'notes')?.enabled, true);
  const bad = await knack(s, 'skills', 'disable', 'nope');
  assert.equal(bad.code, 2);
  assert.match(bad.err, /no skill named "nope"/);
});

test('a --workspace that does not exist or is a file is one clear error (exit 2), not a silent empty project tier', async () => {
  const s = setup();
  for (const ws of [join(s.root, 'no-such-folder'), join(s.ws, '.workbuddy/skills/deploy/SKILL.md')]) {
    const r = await knack({ ...s, args: cliArgs({ ...s, ws }) }, 'skills', 'list');
    assert.equal(r.code, 2, r.out);
    assert.equal(r.out, '');
    assert.equal(r.err.trim().split('\n').length, 1, r.err);
    assert.match(r.err, /^knack skills list: --workspace .*: (no such folder|not a folder)/);
  }
});

test('a skill whose SKILL.md cannot be read (a folder, a pipe) is counted and shown as broken, not only a stray warning', async () => {
  const s = setup();
  mkdirSync(join(s.ws, '.workbuddy/skills/foldered/SKILL.md'), { recursive: true });
  mkdirSync(join(s.ws, '.workbuddy/skills/piped'), { recursive: true });
  execFileSync('mkfifo', [join(s.ws, '.workbuddy/skills/piped/SKILL.md')]);
  const list = await knack(s, 'skills', 'list');
  assert.equal(list.code, 0, list.err);
  // notes' sibling "broken" (bad YAML) plus the two unreadable ones.
  assert.match(list.out, /3 skills could not be read/);
  const all = await knack(s, 'skills', 'list', '--all');
  assert.match(all.out, /foldered\/SKILL\.md: .*folder, not a file/);
  assert.match(all.out, /piped\/SKILL\.md: .*not a regular file/);
  const show = await knack(s, 'skills', 'show', 'piped');
  assert.equal(show.code, 1);
  assert.match(show.out, /not a regular file/);
  const index = JSON.parse((await knack(s, 'skills', 'index', '--json')).out) as { broken: { file: string }[] };
  assert.equal(index.broken.length, 3);
  const lint = await knack(s, 'skills', 'lint');
  assert.equal(lint.code, 1);
  assert.match(lint.out, /3 left out of the catalog/);
});

test('an argument a command does not take is an error, not silently ignored (list FOLDER hints at --workspace)', async () => {
  const s = setup();
  const list = await knack(s, 'skills', 'list', 'some/folder');
  assert.equal(list.code, 2);
  assert.equal(list.out, '');
  assert.match(
    list.err,
    /^knack skills list: unexpected argument "some\/folder" \(a folder to look at is given with --workspace some\/folder\)/,
  );
  const dis = await knack(s, 'skills', 'disable', 'notes', 'deploy');
  assert.equal(dis.code, 2);
  assert.match(dis.err, /unexpected argument "deploy"/);
  // Nothing was changed by the refused command.
  const j = JSON.parse((await knack(s, 'skills', 'list', '--json')).out) as {
    skills: { name: string; enabled: boolean }[];
  };
  assert.equal(j.skills.find((x) => x.name === 'notes')?.enabled, true);
});
