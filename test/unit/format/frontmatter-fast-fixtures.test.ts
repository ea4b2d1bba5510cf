// Every real SKILL.md under test/fixtures (public skills and the spec's fixtures): the fast frontmatter reader gives
// exactly what `yaml` gives, and the manifests and diagnostics built from them are the same either way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { publicSkillFiles, FIXTURES } from '../../helpers/tmp.js';
import { compareWithYaml } from '../../helpers/frontmatter-diff.js';
import {
  frontmatterFastParses,
  frontmatterParses,
  splitFrontmatter,
  useFastFrontmatter,
} from '../../../main/core/skills/format/frontmatter.js';
import { parseSkillFile, parseSkillText, type ParsedSkill } from '../../../main/core/skills/format/manifest.js';
import { readFrontmatterText } from '../../../main/core/skills/format/skill-frontmatter.js';

/** Every SKILL.md / skill.md below a folder. */
function skillFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) skillFiles(p, out);
    else if (/^skill\.md$/i.test(name)) out.push(p);
  }
  return out;
}

test('on every shared fixture SKILL.md the fast reader answers as yaml does, or leaves it to yaml', () => {
  const files = skillFiles(FIXTURES);
  const pub = new Set(publicSkillFiles());
  assert.ok(pub.size > 0 && [...pub].every((f) => files.includes(f)), 'the walk covers every public skill');
  let answered = 0;
  let split = 0;
  let pubAnswered = 0;
  for (const f of files) {
    const s = splitFrontmatter(readFileSync(f, 'utf8'), f);
    if (!s.ok) continue;
    split++;
    if (compareWithYaml(s.frontmatter, f)) {
      answered++;
      if (pub.has(f)) pubAnswered++;
    }
  }
  // Real frontmatter is plain: nearly every public skill is the fast reader's (the rest went to yaml, same answer).
  assert.ok(pubAnswered >= pub.size * 0.9, `fast reader answered ${pubAnswered} of ${pub.size} public skills`);
  assert.ok(answered > 0 && split > 0);
});

/** A parse result with functions replaced by what they answer for the fields the trust layer asks about. */
function comparable(p: ParsedSkill): unknown {
  return JSON.parse(
    JSON.stringify(p, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v)),
  );
}

test('every shared fixture SKILL.md gives the same manifest and diagnostics with the fast reader as with yaml only', () => {
  const files = skillFiles(FIXTURES);
  const read = (fast: boolean) => {
    useFastFrontmatter(fast);
    try {
      return files.map((f) => {
        const text = readFileSync(f, 'utf8');
        const fm = readFrontmatterText(text, f);
        const lines = [
          ['permissions'],
          ['permissions', 'network'],
          ['permissions', 'tools', 0],
          ['allowed-tools'],
          ['hooks'],
          ['description'],
          ['name'],
          ['metadata'],
        ].map((p) => fm.lineOf(p));
        return {
          lenient: comparable(parseSkillText(text, f)),
          strict: comparable(parseSkillText(text, f, { strict: true })),
          fm: { data: fm.data, errors: fm.errors, lines },
        };
      });
    } finally {
      useFastFrontmatter(true);
    }
  };
  const fast = read(true);
  const slow = read(false);
  files.forEach((f, i) => assert.deepStrictEqual(fast[i], slow[i], f));
  assert.ok(fast.filter((r) => (r.lenient as { manifest?: unknown }).manifest).length > files.length / 2);
});

test("the catalog's parse of the public skills goes through the fast reader (yaml only for what it leaves)", () => {
  const files = publicSkillFiles();
  const all0 = frontmatterParses();
  const fast0 = frontmatterFastParses();
  for (const f of files) parseSkillFile(f, { folderName: null });
  const all = frontmatterParses() - all0;
  const fast = frontmatterFastParses() - fast0;
  assert.equal(all, files.length);
  assert.ok(fast >= files.length * 0.9, `${fast} of ${all} through the fast reader`);
});
