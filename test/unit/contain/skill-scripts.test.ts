// A user-tier skill's scripts (Python, shell) run through bash inside the wall: the folder of a skill that may act is
// readable there, while the rest of Knack's home folder (~/.workbuddy: mcp.json, settings) stays unreadable, and so do
// the folders of skills that may not act (turned off, or waiting for the user's approval).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { main } from '../../../main/cli/index.js';
import { cliArgs } from '../../helpers/cli.js';
import { readableSkillFolders } from '../../../main/core/contain/profile.js';
import { Wall } from '../../../main/core/contain/wall.js';
import { runInWall, wallFolders } from '../../helpers/wall-run.js';

const root = tempDir('knack-skill-scripts-');
const home = join(root, 'home');
const ws = join(root, 'ws');
const tier = join(home, '.workbuddy', 'skills');
const common = cliArgs({ ws, home, data: join(home, 'data') });

function skill(name: string, body: string, script: string): void {
  mkdirSync(join(tier, name, 'scripts'), { recursive: true });
  writeFileSync(join(tier, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${name} test skill\n---\n${body}\n`);
  writeFileSync(join(tier, name, 'scripts', 'run.py'), script);
}

async function knack(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const io = { out: (t: string) => void (out += t + '\n'), err: (t: string) => void (out += t + '\n') };
  const code = await main([...args, ...common], io);
  return { code, out };
}

const bash = (command: string) => knack(['tools', 'call', 'bash', '--args', JSON.stringify({ command }), '--yes']);

before(async () => {
  mkdirSync(ws, { recursive: true });
  skill('hello', 'Run `python3 scripts/run.py`.', 'print("hello from the skill")\n');
  skill('quiet', 'Run `python3 scripts/run.py`.', 'print("quiet skill ran")\n');
  // P1 (it reaches the network): waits for the user's approval, so it may not act.
  skill('fetcher', 'Run `python3 scripts/run.py`.', 'import urllib.request\nprint("fetcher ran")\n');
  writeFileSync(join(home, '.workbuddy', 'mcp.json'), '{"mcpServers":{"x":{"env":{"TOKEN":"MCP-TOKEN-CANARY"}}}}\n');
  assert.equal((await knack(['skills', 'disable', 'quiet'])).code, 0);
  assert.equal((await knack(['policy', 'rules', 'add', 'allow', '--tool', 'bash'])).code, 0);
});

test("an enabled user-tier skill's Python script runs inside the sandbox", async () => {
  const r = await bash(`python3 ${join(tier, 'hello', 'scripts', 'run.py')}`);
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /hello from the skill/);
  assert.match(r.out, /"sandboxed": true/);
});

test("the rest of Knack's home folder stays unreadable: mcp.json's token is never printed", async () => {
  const r = await bash(`cat ${join(home, '.workbuddy', 'mcp.json')}; ls ${tier}`);
  assert.doesNotMatch(r.out, /MCP-TOKEN-CANARY/);
  assert.doesNotMatch(r.out, /hello|quiet|fetcher/, 'the tier folder itself is not listed');
  assert.match(r.out, /sandbox\.blocked/);
});

test('a turned-off skill and a skill waiting for approval stay unreadable', async () => {
  for (const name of ['quiet', 'fetcher']) {
    const r = await bash(`python3 ${join(tier, name, 'scripts', 'run.py')}`);
    assert.doesNotMatch(r.out, /ran/, name);
    assert.match(r.out, /sandbox\.blocked/, name);
  }
});

test('only folders strictly inside a user tier are made readable: never the tier, the data folder or a secret', () => {
  const place = {
    workspace: ws,
    home,
    dataDir: join(home, '.workbuddy', 'skills', 'data'),
    userSkillTiers: [join(home, '.workbuddy', 'skills'), join(home, '.agents', 'skills')],
  };
  const t = (p: string) => join(home, p);
  assert.deepEqual(
    readableSkillFolders(place, [
      t('.workbuddy/skills/pdf'),
      t('.agents/skills/docx'),
      t('.workbuddy/skills'), // the tier itself
      t('.workbuddy/mcp'), // Knack's own folder, not a tier
      t('.workbuddy/skills/data/x'), // inside the data folder
      t('.workbuddy/skills/data'), // the data folder itself
      t('.ssh'), // a skill whose real folder is a secret one (a link)
      join(root, 'elsewhere', 'skill'), // already readable: not the wall's to open
      t('.workbuddy/skills/pdf'),
    ]),
    [t('.agents/skills/docx'), t('.workbuddy/skills/pdf')],
  );
});

test('a readable skill folder opens nothing past itself: its links to mcp.json or ~/.ssh, or a write into it', async () => {
  // The wall alone (the audit refuses such links; here the folder is handed to the wall as if it could act).
  const f = wallFolders('knack-skill-links-');
  const tiers = [join(f.home, '.workbuddy', 'skills'), join(f.home, '.agents', 'skills')];
  const skill = join(tiers[0]!, 'linker');
  mkdirSync(join(skill, 'scripts'), { recursive: true });
  mkdirSync(join(f.home, '.ssh'));
  writeFileSync(join(f.home, '.ssh', 'id_ed25519'), 'SSH-KEY-CANARY\n');
  writeFileSync(join(f.home, '.workbuddy', 'mcp.json'), 'MCP-TOKEN-CANARY\n');
  writeFileSync(join(skill, 'scripts', 'run.sh'), 'echo own script\n');
  symlinkSync(join(f.home, '.workbuddy', 'mcp.json'), join(skill, 'mcp-link.json'));
  symlinkSync(join(f.home, '.ssh'), join(skill, 'ssh-link'));
  const wall = await Wall.open(
    {
      workspace: f.ws,
      home: f.home,
      dataDir: join(f.home, '.knack'),
      userSkillTiers: tiers,
      skillFolders: () => [skill],
    },
    'auto',
  );
  try {
    assert.equal(wall.status().available, true, wall.status().reason);
    const own = await runInWall(wall, f.ws, `bash ${join(skill, 'scripts', 'run.sh')}`);
    assert.equal(own.stdout, 'own script\n', own.stderr);
    const r = await runInWall(
      wall,
      f.ws,
      `cat ${join(skill, 'mcp-link.json')}; cat ${join(skill, 'ssh-link', 'id_ed25519')}; echo x > ${join(skill, 'w.txt')}`,
    );
    assert.doesNotMatch(r.stdout, /CANARY/);
    assert.equal(existsSync(join(skill, 'w.txt')), false, 'the skill folder is read-only');
  } finally {
    await wall.close();
  }
});
