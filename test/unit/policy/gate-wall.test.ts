// The gate with the OS sandbox up: a plain command runs without a question and only reaches its allowed hosts;
// destroying work in the workspace still asks; leaving the sandbox is its own question; required + down refuses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDir } from '../../helpers/tmp.js';
import { DEFAULT_SETTINGS, type Settings } from '../../../main/core/config/settings.js';
import { ceilingFrom, type WallView } from '../../../main/core/policy/ceiling.js';
import { createGate, type SkillPolicy } from '../../../main/core/policy/gate.js';
import { parsePermissions } from '../../../main/core/policy/permissions.js';
import { accessForArgs } from '../../../main/core/policy/tool-table.js';
import type { Rule } from '../../../main/core/store/policy-repo.js';
import type { Actor } from '../../../main/core/policy/types.js';

function gateWith(
  wall: WallView | undefined,
  opts: { network?: boolean; rules?: Rule[]; skills?: SkillPolicy[] } = {},
) {
  const ws = tempDir();
  const settings: Settings = structuredClone(DEFAULT_SETTINGS);
  settings.policy.ceiling.network = opts.network ?? false;
  const ceiling = { ...ceilingFrom(settings, ws, []), wall: () => wall };
  const skills = new Map((opts.skills ?? []).map((s) => [s.name, s]));
  return createGate({ ceiling, rules: () => opts.rules ?? [], skill: (n) => skills.get(n) });
}
const bash = (command: string, extra: Record<string, unknown> = {}) => {
  const args = { command, ...extra };
  return { tool: 'bash', args, access: accessForArgs('bash', args) };
};
const agent = (...activeSkills: string[]): Actor => ({ kind: 'agent', activeSkills });
const up: WallView = { mode: 'auto', available: true, reason: '' };

test('with the sandbox up, everyday commands run without a question and carry no hosts while the network is off', () => {
  const g = gateWith(up);
  for (const c of ['git status', 'ls -la', 'npm test', 'python3 tool.py > out.txt', 'grep -rn TODO src | head']) {
    const d = g.authorize(bash(c), agent());
    assert.equal(d.verdict, 'allow', `${c}: ${d.reason}`);
    assert.deepEqual(d.sandbox, { hosts: [] }, c);
  }
});

test('destroying work inside the workspace still asks, in every spelling the gate can read', () => {
  const g = gateWith(up);
  for (const c of [
    'rm -rf build',
    'rm --rec --force src',
    'git reset --hard HEAD~1',
    'git clean -fdx',
    'git push --force origin main',
    'git checkout -- .',
    'find . -name "*.ts" -delete',
    '{rm,-rf,src}',
    'echo cm0gLXJmIC4= | base64 -d | bash',
    'python3 -c "import shutil; shutil.rmtree(\'src\')"',
    'eval "$X"',
    'git log -1 \r# ; touch X',
  ]) {
    const d = g.authorize(bash(c), agent());
    assert.equal(d.verdict, 'ask', `${c}: ${d.reason}`);
  }
  assert.match(
    g.authorize(bash('git reset --hard'), agent()).reason,
    /protects the machine, not your uncommitted work/,
  );
});

test('destroying work or running given code asks behind any wrapper, past git’s own options, and abbreviated', () => {
  const g = gateWith(up);
  for (const c of [
    'git -C . reset --hard',
    'git -c core.x=y clean -fdx',
    'git --work-tree . clean -fdx',
    'git reset --ha HEAD~1',
    'git -C . stash clear',
    'git restore src/app.ts',
    'git checkout -f main',
    'nice -n 5 rm -rf src',
    'timeout 5 rm -rf src',
    'env -u HOME rm -rf src',
    'xargs -n 1 rm -rf < dirs.txt',
    'busybox rm -rf src',
    'find . -exec /bin/rm -f {} +',
    'timeout 5 bash -c "rm -rf src"',
    `nice -n 5 python3 -c "import shutil; shutil.rmtree('src')"`,
    "find . -maxdepth 0 -exec sh -c 'rm -rf src' ';'",
    'flock /tmp/l eval "$CMD"',
    'timeout 5 bash <<EOF\nrm -rf src\nEOF',
    'echo "rm -rf src" | nice -n 5 sh',
  ]) {
    const d = g.authorize(bash(c), agent());
    assert.equal(d.verdict, 'ask', `${c}: ${d.reason}`);
  }
  for (const c of ['git -C sub status', 'git log --grep reset', 'git restore --staged src/app.ts', 'grep -rn rm src'])
    assert.equal(g.authorize(bash(c), agent()).verdict, 'allow', c);
});

test('leaving the sandbox is its own question, worded as such, even under an allow rule', () => {
  const rules: Rule[] = [{ id: 'r1', effect: 'allow', tool: 'bash', command: 'git', createdAt: 0 }];
  const g = gateWith(up, { rules });
  const d = g.authorize(bash('git push', { sandbox: false }), agent());
  assert.equal(d.verdict, 'ask');
  assert.match(d.reason, /runs WITHOUT the sandbox/);
  assert.equal(d.sandbox, undefined);
  const inside = g.authorize(bash('git push'), agent());
  assert.equal(inside.verdict, 'allow');
  assert.deepEqual(inside.sandbox, { hosts: [] });
});

test('mode required with the sandbox down refuses commands; auto asks for each; an unknown wall asks', () => {
  const down = { available: false, reason: 'bubblewrap (bwrap) not installed' };
  const req = gateWith({ mode: 'required', ...down }).authorize(bash('ls'), agent());
  assert.equal(req.verdict, 'deny');
  assert.match(req.reason, /requires the sandbox.*bwrap/);
  assert.equal(
    gateWith({ ...up, mode: 'required' }).authorize(bash('ls', { sandbox: false }), agent()).verdict,
    'deny',
  );
  assert.equal(gateWith({ mode: 'auto', ...down }).authorize(bash('ls'), agent()).verdict, 'ask');
  // An allow rule was given for commands that run inside the wall: with it down, each command asks all the same.
  const rules: Rule[] = [{ id: 'all', effect: 'allow', tool: 'bash', createdAt: 0 }];
  const ruled = gateWith({ mode: 'auto', ...down }, { rules }).authorize(bash('rm -rf /tmp/x'), agent());
  assert.equal(ruled.verdict, 'ask');
  assert.match(ruled.reason, /WITHOUT the sandbox, which is unavailable \(bubblewrap \(bwrap\) not installed\)/);
  // With the sandbox turned off by the user, the user's rules apply as written.
  assert.equal(
    gateWith({ mode: 'off', available: false, reason: 'off' }, { rules }).authorize(bash('ls'), agent()).verdict,
    'allow',
  );
  assert.equal(gateWith(undefined).authorize(bash('ls'), agent()).verdict, 'ask');
  assert.equal(
    gateWith({ mode: 'off', available: false, reason: 'off' }).authorize(bash('ls'), agent()).verdict,
    'ask',
  );
});

test('hosts: the ceiling ∩ the loaded skills’ permissions.network; the user’s host rules when no skill names any', () => {
  const parsed = parsePermissions({
    file: 'SKILL.md',
    permissions: { tools: ['bash'], network: ['api.example.test', 'cdn.example.test'] },
  });
  assert.deepEqual(parsed.diagnostics, []);
  const skill: SkillPolicy = { name: 'fetcher', dir: '/skills/fetcher', permissions: parsed.permissions! };
  const rules: Rule[] = [{ id: 'h', effect: 'allow', tool: 'web_fetch', host: 'docs.example.test', createdAt: 0 }];
  const on = gateWith(up, { network: true, rules, skills: [skill] });
  assert.deepEqual(on.authorize(bash('curl https://api.example.test'), agent('fetcher')).sandbox, {
    hosts: ['api.example.test', 'cdn.example.test'],
  });
  assert.deepEqual(on.authorize(bash('curl https://docs.example.test'), agent()).sandbox, {
    hosts: ['docs.example.test'],
  });
  const off = gateWith(up, { network: false, rules, skills: [skill] });
  assert.deepEqual(off.authorize(bash('curl https://api.example.test'), agent('fetcher')).sandbox, { hosts: [] });
  const bad = parsePermissions({ file: 'SKILL.md', permissions: { network: ['https://x.test/'] } });
  assert.match(bad.diagnostics[0]?.message ?? '', /must be a host name/);
});
