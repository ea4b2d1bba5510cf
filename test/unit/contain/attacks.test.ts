// Issue 26's attack classes through `knack tools call bash`, with the gate's analysis switched off (a rule that allows
// every bash command): the wall alone holds. A canary outside the workspace stays untouched, a loopback listener gets
// no connection, a fake ~/.ssh key is never printed.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { loopbackListener } from '../../helpers/wall-run.js';
import { main } from '../../../main/cli/index.js';
import { cliArgs } from '../../helpers/cli.js';

const root = tempDir('knack-attack-');
const home = join(root, 'home');
const ws = join(root, 'ws');
const canary = join(root, 'canary.txt');
const canaryDir = join(root, 'canary-dir');
const key = join(home, '.ssh', 'id_ed25519');
mkdirSync(join(home, '.ssh'), { recursive: true });
mkdirSync(ws, { recursive: true });
mkdirSync(canaryDir);
writeFileSync(join(canaryDir, 'keep.txt'), 'keep\n');
writeFileSync(key, 'PRIVATE-KEY-CANARY\n');
writeFileSync(canary, 'untouched\n');
writeFileSync(join(ws, 'in.txt'), 'owned\n');
const common = cliArgs({ ws, home, data: join(home, 'data') });

let listener: Awaited<ReturnType<typeof loopbackListener>>;
let port = 0;

async function knack(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const io = { out: (t: string) => void (out += t + '\n'), err: (t: string) => void (out += t + '\n') };
  const code = await main([...args, ...common], io);
  return { code, out };
}

before(async () => {
  listener = await loopbackListener();
  port = listener.port;
  // The gate's analysis off: every bash command is allowed by the user's rule.
  assert.equal((await knack(['policy', 'rules', 'add', 'allow', '--tool', 'bash'])).code, 0);
});
after(() => listener.close());

const b64 = (s: string) => Buffer.from(s).toString('base64');

const attacks: [string, () => string][] = [
  ['a carriage return hides the rest of the line', () => `git log -1 2>/dev/null \r# ; echo owned > ${canary}`],
  ['python writes outside', () => `python3 -c "open('${canary}','w').write('owned')"`],
  ['perl writes outside', () => `perl -e 'open(F, ">${canary}"); print F "owned"'`],
  ['brace expansion deletes outside', () => `{rm,-rf,${canaryDir}}`],
  ['base64 -d | bash', () => `echo ${b64(`echo owned > ${canary}; rm -rf ${canaryDir}`)} | base64 -d | bash`],
  ['$-quoted program name', () => `$'\\x72m' -rf ${canaryDir}`],
  ['a variable as the program', () => `x=r; \${x}m -rf ${canaryDir}`],
  ['uniq writes its output file', () => `uniq in.txt ${canary}`],
  ['iconv -o', () => `iconv -f utf-8 -t utf-8 -o ${canary} in.txt`],
  ['abbreviated long options', () => `rm --rec --forc ${canaryDir}`],
  ['a trap runs on exit', () => `trap 'echo owned > ${canary}' EXIT; true`],
  ['git alias runs a shell', () => `git -c alias.x='!echo owned > ${canary}' x`],
  ['/dev/tcp to the loopback listener', () => `exec 3<>/dev/tcp/127.0.0.1/${port}; echo hi >&3`],
  ['curl to the loopback listener', () => `curl -sS -m 5 http://127.0.0.1:${port}/`],
  [
    'python socket to the loopback listener',
    () => `python3 -c "import socket; socket.create_connection(('127.0.0.1', ${port}), 3)"`,
  ],
  ['read the ssh key', () => `cat ${key}; cp ${key} stolen.txt`],
  ['read the ssh key with an interpreter', () => `python3 -c "print(open('${key}').read())"`],
];

for (const [name, command] of attacks) {
  test(`the wall holds with the gate off: ${name}`, async () => {
    const r = await knack(['tools', 'call', 'bash', '--args', JSON.stringify({ command: command() }), '--json']);
    // The wall itself holds: a command refused because the sandbox is down proves nothing here.
    assert.doesNotMatch(r.out, /sandbox unavailable/, r.out);
    const read = (f: string): string | undefined => (existsSync(f) ? readFileSync(f, 'utf8') : undefined);
    assert.equal(read(canary), 'untouched\n', r.out);
    assert.equal(read(join(canaryDir, 'keep.txt')), 'keep\n', r.out);
    assert.equal(listener.hits(), 0, r.out);
    assert.doesNotMatch(r.out, /PRIVATE-KEY-CANARY/);
    assert.equal(
      existsSync(join(ws, 'stolen.txt')) && readFileSync(join(ws, 'stolen.txt'), 'utf8').includes('CANARY'),
      false,
    );
  });
}

test('a blocked write comes back as a structured error naming the path, never as success', async () => {
  const r = await knack([
    'tools',
    'call',
    'bash',
    '--args',
    JSON.stringify({ command: `echo owned > ${canary}` }),
    '--json',
  ]);
  assert.equal(r.code, 1);
  const res = JSON.parse(r.out) as {
    ok: boolean;
    error: { code: string; message: string; details: { blocked: { kind: string; target: string }[] } };
  };
  assert.equal(res.ok, false);
  assert.equal(res.error.code, 'sandbox.blocked');
  assert.ok(
    res.error.details.blocked.some((x) => x.kind === 'write' && x.target === canary),
    r.out,
  );
  assert.match(res.error.message, /sandbox: false/);
});
