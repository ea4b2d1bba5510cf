// Approval prompts over a scripted day of everyday commands: today's gate without the sandbox (every command asks),
// and with the OS sandbox up (auto-allow when sandboxed). Prints both counts; the goal is at least 70% fewer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDir } from '../../helpers/tmp.js';
import { DEFAULT_SETTINGS, type Settings } from '../../../main/core/config/settings.js';
import { ceilingFrom, type WallView } from '../../../main/core/policy/ceiling.js';
import { createGate, type SkillPolicy } from '../../../main/core/policy/gate.js';
import { parsePermissions } from '../../../main/core/policy/permissions.js';
import { accessForArgs } from '../../../main/core/policy/tool-table.js';

/** [command, skills loaded]: what a working session runs. */
const DAY: [string, string[]][] = [
  ['git status', []],
  ['git diff --stat', []],
  ['git log --oneline -10', []],
  ['git add -A', []],
  ['git commit -m "fix: handle empty input"', []],
  ['npm test', []],
  ['npm run build', []],
  ['npx tsc -p tsconfig.json', []],
  ['pytest -q tests/', []],
  ['python3 scripts/report.py --out report.md', []],
  ['ls -la src', []],
  ['grep -rn "TODO" src | head -20', []],
  ['cat package.json', []],
  ['find . -name "*.test.ts" -not -path "./node_modules/*"', []],
  ['wc -l src/*.ts', []],
  ['mkdir -p out && cp README.md out/', []],
  ['python3 skills/csv-report/scripts/summarize.py data.csv > summary.md', ['csv-report']],
  ['curl -sS https://api.example.test/v1/status', ['api-client']],
  ['node scripts/gen.js', []],
  ['make lint', []],
  ['sed -n 1,40p src/index.ts', []],
  ['rm -rf dist', []],
];

function gate(wall: WallView | undefined) {
  const ws = tempDir();
  const settings: Settings = structuredClone(DEFAULT_SETTINGS);
  settings.policy.ceiling.network = true;
  const perm = (network: unknown) =>
    parsePermissions({ file: 'SKILL.md', permissions: { tools: ['bash', 'read_file', 'write_file'], network } })
      .permissions!;
  const skills = new Map<string, SkillPolicy>([
    ['csv-report', { name: 'csv-report', dir: '/skills/csv-report', permissions: perm(false) }],
    ['api-client', { name: 'api-client', dir: '/skills/api-client', permissions: perm(['api.example.test']) }],
  ]);
  return createGate({
    ceiling: { ...ceilingFrom(settings, ws, []), wall: () => wall },
    rules: () => [],
    skill: (n) => skills.get(n),
  });
}

function prompts(wall: WallView | undefined): string[] {
  const g = gate(wall);
  const asked: string[] = [];
  for (const [command, activeSkills] of DAY) {
    const args = { command };
    const d = g.authorize({ tool: 'bash', args, access: accessForArgs('bash', args) }, { kind: 'agent', activeSkills });
    assert.notEqual(d.verdict, 'deny', `${command}: ${d.reason}`);
    if (d.verdict === 'ask') asked.push(command);
  }
  return asked;
}

test('the everyday command set asks at least 70% less often with the sandbox up', () => {
  const before = prompts(undefined).length;
  const asked = prompts({ mode: 'auto', available: true, reason: '' });
  const after = asked.length;
  console.log(`approval prompts over ${DAY.length} everyday commands: before ${before}, after ${after}`);
  assert.equal(before, DAY.length);
  assert.ok(after <= before * 0.3, `before ${before}, after ${after}`);
  // What still asks is the one that destroys work in the workspace.
  assert.deepEqual(asked, ['rm -rf dist']);
});
