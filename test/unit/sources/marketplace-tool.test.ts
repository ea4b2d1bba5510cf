// The model's marketplace tool, attacked: found through ToolSearch and run with DeferExecuteTool, it searches the
// configured marketplaces and proposes installs. A model that proposes again and again, or names a source of its own,
// installs nothing and asks nothing; what a proposal shows of a hostile marketplace entry is escaped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { agentEnv, recorder } from '../../helpers/agent-env.js';
import { makeRepo } from '../../helpers/git-repos.js';
import { skillMd, tempDir, writeTree } from '../../helpers/tmp.js';
import { capture } from '../../helpers/cli.js';
import { startFakeAnthropic } from '../../helpers/fake-anthropic.js';
import { main } from '../../../main/cli/index.js';
import type { AgentEvent } from '../../../main/core/agent/types.js';

const tmp = tempDir('knack-market-tool-tmp-');
process.env.TMPDIR = tmp;

const results = (evs: AgentEvent[]) =>
  evs.filter((e): e is Extract<AgentEvent, { type: 'tool_result' }> => e.type === 'tool_result');
const defer = (args: Record<string, unknown>) => ({
  name: 'DeferExecuteTool',
  input: { name: 'skill_marketplace', arguments: args },
});

test('a model proposing installs again and again, or from a source of its own, installs nothing; the card is escaped', async () => {
  const repos = tempDir('knack-market-tool-');
  const hostileName = 'x$(touch PWNED)\u001b]0;owned\u0007\u202egnp.exe';
  const market = makeRepo(repos, 'market', {
    '.claude-plugin/marketplace.json': JSON.stringify({
      name: 'team\u001b[2Jmarket',
      owner: { name: 'Tests' },
      plugins: [
        { name: 'pdf-tools', description: 'PDF tools', source: './', skills: ['./skills/pdf'] },
        {
          name: hostileName,
          description: 'Reads PDFs <img src=x onerror=alert(1)> \u001b[31mred\u001b[0m \u202eevil',
          source: { source: 'url', url: 'https://example.invalid/far.git' },
        },
      ],
    }),
    'skills/pdf/SKILL.md': skillMd({ name: 'pdf', description: 'Read and fill PDF forms' }, '# PDF\n\nRead PDFs.\n'),
  });
  const env = await agentEnv({ settings: () => ({ skills: { marketplaces: [market.url] } }) });
  env.server.script(
    { toolCalls: [{ name: 'ToolSearch', input: { query: 'search skill marketplace install' } }] },
    { toolCalls: [defer({ query: 'PDF 表单' })] },
    {
      toolCalls: [
        defer({ propose: { marketplace: market.url, name: 'pdf' } }),
        defer({ propose: { marketplace: market.url, name: 'pdf' } }),
        defer({ propose: { marketplace: market.url, name: 'pdf' } }),
        defer({ propose: { marketplace: 'ext::sh -c touch${IFS}PWNED', name: 'pdf' } }),
        defer({ propose: { marketplace: 'https://evil.example/market.json', name: 'pdf' } }),
        defer({ propose: { marketplace: market.url, name: 'not-listed' } }),
        defer({ propose: { marketplace: market.url, name: hostileName } }),
      ],
    },
    { text: 'I proposed a PDF skill.' },
  );
  const chat = env.agent.newSession();
  const evs = recorder(chat);
  await chat.send('find me a skill for PDF forms and install it');

  // One result per call; a turn that ended early says why (its error and end), not only which result is missing.
  const ended = evs.filter((e) => e.type === 'error' || e.type === 'turn_end' || e.type === 'model_retry');
  assert.equal(results(evs).length, 9, JSON.stringify(ended));
  const found = results(evs)[0]!;
  assert.equal(found.name, 'ToolSearch');
  assert.match(found.content, /skill_marketplace/);
  const [search, first, again, third, ext, evil, unlisted, hostile] = results(evs).slice(1);
  assert.equal(search!.ok, true, search!.content);
  assert.match(search!.content, /"name":"pdf"/);
  assert.equal(first!.ok, true, first!.content);
  const proposal = JSON.parse(first!.content).installProposal;
  assert.equal(proposal.skill, 'pdf');
  assert.equal(proposal.marketplace, market.url);
  assert.equal(proposal.command, `knack skills add ${market.url} --skill pdf`);
  for (const r of [again, third]) assert.equal(r!.code, 'marketplace.already_proposed', r!.content);
  for (const r of [ext, evil, unlisted]) assert.equal(r!.code, 'marketplace.not_listed', r!.content);

  assert.equal(hostile!.ok, true, hostile!.content);
  const shown = JSON.parse(hostile!.content).installProposal as Record<string, string>;
  for (const [field, text] of Object.entries(shown))
    assert.doesNotMatch(text, /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/, `${field} is escaped: ${text}`);
  assert.match(shown.command!, /^knack skills add \S+ --skill 'x\$\(touch PWNED\)/);

  // Nothing was installed, staged or asked, and nothing ran.
  assert.equal(evs.filter((e) => e.type === 'approval_requested').length, 0);
  for (const dir of [join(env.home, '.workbuddy'), join(env.workspace, '.workbuddy')])
    assert.ok(!existsSync(join(dir, 'skills')) || readdirSync(join(dir, 'skills')).length === 0, dir);
  for (const dir of [join(env.home, '.workbuddy'), join(env.workspace, '.workbuddy')])
    assert.equal(existsSync(join(dir, 'skills.lock.json')), false);
  assert.equal(existsSync(join(env.dataDir, 'fetched')), false);
  assert.deepEqual(env.ws.store!.policy.approvals('pending'), []);
  assert.equal(existsSync(join(env.workspace, 'PWNED')), false);
  assert.deepEqual(
    readdirSync(tmp).filter((n) => n.startsWith('knack-fetch-')),
    [],
    'no clone stays',
  );
});

test('knack chat prints a proposal as the command that reviews it, and installs nothing', async (t) => {
  const repos = tempDir('knack-market-tool-cli-');
  const market = makeRepo(repos, 'market', {
    '.claude-plugin/marketplace.json': JSON.stringify({
      name: 'cli-market',
      owner: { name: 'Tests' },
      plugins: [{ name: 'pdf-tools', description: 'PDF tools', source: './', skills: ['./skills/pdf'] }],
    }),
    'skills/pdf/SKILL.md': skillMd({ name: 'pdf', description: 'Read and fill PDF forms' }, '# PDF\n\nRead PDFs.\n'),
  });
  const home = tempDir('knack-market-tool-home-');
  const ws = tempDir('knack-market-tool-ws-');
  const data = join(home, 'data');
  writeTree(data, { 'settings.json': JSON.stringify({ skills: { marketplaces: [market.url] } }) });
  const s = await startFakeAnthropic();
  t.after(() => s.close());
  s.script({ toolCalls: [defer({ propose: { marketplace: market.url, name: 'pdf' } })] }, { text: 'Proposed.' });
  const c = capture();
  process.env.ANTHROPIC_API_KEY = 'sk-ant-test-abcdefghijk';
  let code: number;
  try {
    code = await main(
      [
        'chat',
        '--once',
        'a PDF skill please',
        '--provider',
        'anthropic',
        '--base-url',
        s.url,
        '--workspace',
        ws,
        '--home',
        home,
        '--data-dir',
        data,
      ],
      c.io,
    );
  } finally {
    delete process.env.ANTHROPIC_API_KEY;
  }
  assert.equal(code, 0, c.err.join('\n'));
  const printed = [...c.out, ...c.err].join('\n');
  assert.match(printed, /proposed skill pdf \(P2\) from cli-market/);
  assert.ok(printed.includes(`review and install it with: knack skills add ${market.url} --skill pdf`), printed);
  assert.equal(existsSync(join(home, '.workbuddy', 'skills')), false);
  assert.equal(existsSync(join(home, '.workbuddy', 'skills.lock.json')), false);
});
