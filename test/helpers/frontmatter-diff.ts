// The fast frontmatter reader against `yaml`: one comparison used by the fixture and property tests. When the fast
// reader answers, everything the manifest reads must be what `yaml` gives: data, key lines, field lines, sources.
import assert from 'node:assert/strict';
import { parseFrontmatterFast } from '../../main/core/skills/format/frontmatter-fast.js';
import {
  parseFrontmatterYaml,
  parseFrontmatterYamlOnly,
  type ParsedYaml,
} from '../../main/core/skills/format/frontmatter.js';

/** Every path into a parsed value (each prefix), plus children that are not there and index spellings yaml accepts. */
function paths(v: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(prefix);
  if (prefix.length > 8) return out;
  if (Array.isArray(v)) {
    v.forEach((x, i) => {
      paths(x, [...prefix, i], out);
      out.push([...prefix, String(i)]);
    });
    out.push([...prefix, v.length], [...prefix, '-1'], [...prefix, 'x']);
  } else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) paths(x, [...prefix, k], out);
    out.push([...prefix, 'no-such-key'], [...prefix, 0]);
  } else out.push([...prefix, 'x'], [...prefix, 0]);
  return out;
}

function view(y: ParsedYaml): unknown {
  const data = y.data;
  return {
    data,
    diagnostics: y.diagnostics,
    keyLines: [...y.keyLines],
    lines: data
      ? paths(data)
          .filter((p) => p.length)
          .map((p) => [p, y.lineOf(p)])
      : [],
    sources: data ? Object.keys(data).map((k) => [k, y.sourcesOf(k)]) : [],
  };
}

/**
 * Compare the fast reader with yaml on one frontmatter text; returns whether the fast reader answered. Throws (an
 * assertion error naming the text) when it answered differently from yaml, or answered where yaml reports a problem.
 */
export function compareWithYaml(text: string, file = 'SKILL.md'): boolean {
  const fast = parseFrontmatterFast(text, 2);
  const slow = parseFrontmatterYamlOnly(text, file, 2);
  const through = parseFrontmatterYaml(text, file, 2);
  // The public entry point gives yaml's answer in every case, whichever reader answered; but where yaml fails on a
  // text field that is then read as text (a `yaml.unquoted` warning each, frontmatter.ts), and the fast reader gave up.
  const readAsText = !slow.data && through.data && through.diagnostics.every((d) => d.code === 'yaml.unquoted');
  if (readAsText) assert.equal(fast, undefined, `the fast reader answered invalid YAML:\n${JSON.stringify(text)}`);
  else
    assert.deepStrictEqual(
      view(through),
      view(slow),
      `parseFrontmatterYaml differs from yaml on:\n${JSON.stringify(text)}`,
    );
  if (!fast) return false;
  assert.equal(
    slow.diagnostics.length,
    0,
    `the fast reader accepted what yaml refuses:\n${JSON.stringify(text)}\n${JSON.stringify(slow.diagnostics)}`,
  );
  assert.deepStrictEqual(fast.data, slow.data, `data differs on:\n${JSON.stringify(text)}`);
  return true;
}
