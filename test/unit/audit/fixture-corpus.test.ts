// The audit over the project's own adversarial and benign skill folders (test/fixtures/audit): every hostile form is
// caught at its level (P0 unless the case says P1), every benign folder audits no higher than its level. Each folder is a real skill.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { auditSkill } from '../../../main/core/skills/trust/audit.js';
import { LEVEL_RANK, type Level } from '../../../main/core/skills/trust/audit-rules.js';
import { assertSaid } from '../../helpers/words.js';

const ROOT = join(import.meta.dirname, '..', '..', 'fixtures', 'audit');
const cases = (kind: string): [string, Level][] =>
  Object.entries(JSON.parse(readFileSync(join(ROOT, kind, 'expected.json'), 'utf8')) as Record<string, Level>);

test('every adversarial fixture is caught at its level, with file, line and rule', () => {
  const missed: string[] = [];
  for (const [name, want] of cases('adversarial')) {
    const r = auditSkill(join(ROOT, 'adversarial', name));
    if (LEVEL_RANK[r.level] < LEVEL_RANK[want])
      missed.push(`${name}: ${r.level} (want ${want}) ${JSON.stringify(r.findings.map((f) => f.rule))}`);
    const top = r.findings.find((f) => f.level === r.level);
    if (top) assert.ok(top.line >= 1 && top.rule && top.message, name);
  }
  assert.deepEqual(missed, []);
  assert.ok(cases('adversarial').length >= 25);
});

test('every benign fixture audits no higher than its level: emoji, RTL scripts, checklists, regex.exec, guarded rm', () => {
  const alarms: string[] = [];
  for (const [name, want] of cases('benign')) {
    const r = auditSkill(join(ROOT, 'benign', name));
    if (LEVEL_RANK[r.level] > LEVEL_RANK[want])
      alarms.push(
        `${name}: ${r.level} ${JSON.stringify(r.findings.map((f) => `${f.level} ${f.file}:${f.line} ${f.rule}`))}`,
      );
  }
  assert.deepEqual(alarms, []);
});

test('placements aggravate: the description and HTML comments are named in the finding and judged at full level', () => {
  const d = auditSkill(join(ROOT, 'adversarial', 'description-pipe-to-shell'));
  const f = d.findings.find((x) => x.rule === 'exec.pipe-to-shell' && x.level === 'P0');
  assert.ok(f, JSON.stringify(d.findings));
  assert.equal(f.line, 3);
  assert.match(f.message, /frontmatter description/);
  const c = auditSkill(join(ROOT, 'adversarial', 'html-comment-command'));
  assert.ok(
    c.findings.some((x) => x.level === 'P0' && /HTML comment/.test(x.message)),
    JSON.stringify(c.findings),
  );
  // The same command as visible prose (not a code block) stays the milder reading it always had.
  const inline = auditSkill(join(ROOT, 'adversarial', 'inline-node-child-process'));
  assert.ok(
    inline.findings.some((x) => x.level === 'P0' && /inline node program/.test(x.message)),
    JSON.stringify(inline.findings),
  );
});

test('issue 26: a dangerous command only in reference documentation is a P1 finding with its file and line', () => {
  const r = auditSkill(join(ROOT, 'benign', 'reference-sudo-doc'));
  assert.equal(r.level, 'P1', JSON.stringify(r.findings));
  const sudo = r.findings.find((f) => f.rule === 'privilege.sudo');
  assert.ok(sudo, JSON.stringify(r.findings));
  assert.equal(`${sudo.file}:${sudo.line}`, 'references/kotlin.md:6');
  assert.match(sudo.message, /reference documentation/);
  // The same command in a script, or in SKILL.md's own instructions, is still refused.
  const inScript = auditSkill(join(ROOT, 'adversarial', 'rev-pipe-shell'));
  assert.equal(inScript.level, 'P0');
  const t = auditSkill(join(ROOT, 'benign', 'test-dynamic-import'));
  assert.deepEqual(
    t.findings.map((f) => `${f.level} ${f.file}:${f.line} ${f.rule}`),
    ['P1 tests/run.test.mjs:3 exec.dynamic-import'],
  );
  assert.equal(auditSkill(join(ROOT, 'adversarial', 'js-dynamic-import')).level, 'P0');
});

test('issue 26: an installer handed to the user to run is a P1 finding; one the agent runs, or a home wipe, is refused', () => {
  const r = auditSkill(join(ROOT, 'benign', 'install-steps-for-user'));
  assert.equal(r.level, 'P1', JSON.stringify(r.findings));
  // A list under "give the user these steps:", a list under "offer to install:", a sentence wrapped over two lines.
  const piped = r.findings.filter((f) => f.rule === 'exec.pipe-to-shell');
  assert.deepEqual(
    piped.map((f) => `${f.level} ${f.file}:${f.line}`),
    ['P1 SKILL.md:10', 'P1 SKILL.md:14', 'P1 SKILL.md:18'],
  );
  for (const f of piped) assert.match(f.message, /handed to the user/);
  const yourself = auditSkill(join(ROOT, 'adversarial', 'user-steps-then-run'));
  assert.equal(yourself.findings.find((f) => f.rule === 'exec.pipe-to-shell')?.level, 'P0');
  assert.equal(auditSkill(join(ROOT, 'adversarial', 'user-handoff-rm-home')).level, 'P0');
});

test('issue 26: text a script prints or writes into a README is a P1 finding; text piped to a shell is refused', () => {
  const r = auditSkill(join(ROOT, 'benign', 'script-prints-install-hint'));
  assert.equal(r.level, 'P1', JSON.stringify(r.findings));
  // `echo "… curl … | sh" >&2` and the same command in a ```bash block of `cat > "$OUT/README.md" << EOF`.
  const piped = r.findings.filter((f) => f.rule === 'exec.pipe-to-shell');
  assert.deepEqual(
    piped.map((f) => `${f.level} ${f.file}:${f.line}`),
    ['P1 scripts/package.sh:17', 'P1 scripts/package.sh:27'],
  );
  for (const f of piped) assert.match(f.message, /prints or writes into a document/);
  // Echoed into sh, a here-document fed to bash, one written to a script, `$(…)` inside a printed here-document.
  const hostile = auditSkill(join(ROOT, 'adversarial', 'script-text-to-shell'));
  assert.deepEqual(
    hostile.findings.filter((f) => f.level === 'P0').map((f) => `${f.file}:${f.line}`),
    ['scripts/prepare.sh:2', 'scripts/prepare.sh:4', 'scripts/prepare.sh:7', 'scripts/prepare.sh:10'],
  );
});

test('issue 26: a script that imports only execFile or spawn is a P1 finding; exec, execSync or the whole module is refused', () => {
  const r = auditSkill(join(ROOT, 'benign', 'node-execfile-cli'));
  assert.deepEqual(
    r.findings.map((f) => `${f.level} ${f.file}:${f.line} ${f.rule}`),
    ['P1 scripts/ledgers.mjs:2 exec.child-process'],
  );
  assert.match(r.findings[0]!.message, /no shell/);
  // `exec('tally', ['--version'])` (execFile promisified under that name) is not exec of a string as code.
  const hostile = auditSkill(join(ROOT, 'adversarial', 'node-exec-shell'));
  assert.deepEqual(
    hostile.findings.filter((f) => f.level === 'P0').map((f) => `${f.file}:${f.line} ${f.rule}`),
    ['scripts/sync.mjs:1 exec.child-process', 'scripts/sync.mjs:2 exec.child-process', 'scripts/sync.mjs:4 exec.exec'],
  );
});

test('every finding of every fixture says in words what its message says, in English and Chinese', () => {
  // A finding's note (in reference documentation, in a test script, handed to the user, …) explains why it is a P1
  // and not a refusal: the window shows the words, so the note has to be in them, not only in the English message.
  let checked = 0;
  for (const kind of ['adversarial', 'benign']) {
    for (const [name] of cases(kind)) {
      for (const f of auditSkill(join(ROOT, kind, name)).findings) {
        assertSaid(f.words, f.message, `${kind}/${name} ${f.file}:${f.line} ${f.rule}`);
        checked++;
      }
    }
  }
  assert.ok(checked > 100, `only ${checked} findings checked`);
});
