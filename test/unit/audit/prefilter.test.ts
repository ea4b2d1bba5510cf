// The audit's prefilter never costs a detection: the hint scanner finds exactly the rules whose hints occur in a text,
// and every text a rule's pattern matches holds one of that rule's hints (strings generated from the patterns).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CJK_RE, RULES } from '../../../main/core/skills/trust/audit-rules.js';
import { hintScanner, type RuleMask } from '../../../main/core/skills/trust/audit-hints.js';
import { auditText } from '../../../main/core/skills/trust/audit.js';
import { normalizeLine } from '../../../main/core/skills/trust/normalize.js';

const scanner = hintScanner(RULES);

/**
 * The rules a plain reading finds: some hint (or one of each side of the rule's hint pair) occurs in the lower-cased
 * text with its whitespace runs collapsed.
 */
function naive(text: string): number[] {
  const lower = text.toLowerCase().replace(/\s+/g, ' ');
  const has = (hs: string[]): boolean => hs.some((h) => lower.includes(h));
  return RULES.flatMap((r, i) => (has(r.hints) || (r.hintPair && has(r.hintPair[0]) && has(r.hintPair[1])) ? [i] : []));
}

/** Whether rule `i` is set in a mask (bit i of the mask's 32-bit words). */
function hasRule(mask: RuleMask, i: number): boolean {
  return ((mask[i >> 5]! >>> (i & 31)) & 1) === 1;
}

function scanned(text: string): number[] {
  const m = scanner.mask();
  scanner.scan(text, m);
  return RULES.flatMap((_, i) => (hasRule(m, i) ? [i] : []));
}

const HINTS = [...new Set(RULES.flatMap((r) => [...r.hints, ...(r.hintPair?.flat() ?? [])]))];
const piece = fc.oneof(
  fc.constantFrom(...HINTS),
  fc.constantFrom(...HINTS).map((h) => h.toUpperCase()),
  fc.constantFrom(...HINTS).map((h) => h.replace(/ /g, '\t\n ')),
  fc.constantFrom(' ', '\t', '\n', '\u00a0', '\u3000', 'İ', 'K', 'é', '中', '\u200b', '.', '('),
  fc.string({ maxLength: 6 }),
  fc.string({ unit: 'grapheme', maxLength: 4 }),
);

test('the hint scanner finds exactly the rules whose hints occur (any case, any whitespace run as one space, any script)', () => {
  fc.assert(
    fc.property(
      fc.array(piece, { maxLength: 30 }).map((a) => a.join('')),
      (t) => {
        assert.deepEqual(scanned(t), naive(t));
      },
    ),
    { numRuns: 4000 },
  );
});

/** A pattern's source without \b, lookarounds and anchors: a wider language fast-check can generate strings from. */
function widened(src: string): string {
  let out = '';
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === '\\') {
      if (src[i + 1] === 'b') out += '(?: ?)';
      else out += c + src[i + 1];
      i++;
    } else if (c === '[') {
      let j = i + 1;
      if (src[j] === '^') j++;
      if (src[j] === ']') j++;
      while (j < src.length && src[j] !== ']') j += src[j] === '\\' ? 2 : 1;
      out += src.slice(i, j + 1);
      i = j;
    } else if (
      c === '(' &&
      src[i + 1] === '?' &&
      (src[i + 2] === '=' || src[i + 2] === '!' || (src[i + 2] === '<' && (src[i + 3] === '=' || src[i + 3] === '!')))
    ) {
      let depth = 0;
      let j = i;
      for (; j < src.length; j++) {
        const d = src[j];
        if (d === '\\') {
          j++;
        } else if (d === '[') {
          while (++j < src.length && src[j] !== ']') if (src[j] === '\\') j++;
        } else if (d === '(') {
          depth++;
        } else if (d === ')' && --depth === 0) {
          break;
        }
      }
      i = j;
    } else if (c !== '^' && c !== '$') out += c;
  }
  return out;
}

test('every text a rule matches holds one of its hints: the prefilter never hides a match', () => {
  const holes: string[] = [];
  RULES.forEach((rule, i) => {
    let matched = 0;
    // The widened pattern drops \b: for a pattern with several word boundaries few generated strings match the rule,
    // so a rule none matched is tried again (up to 10 × 400 strings) rather than left unproven or failed by chance.
    for (let round = 0; round < 10 && matched === 0; round++)
      fc.assert(
        fc.property(fc.stringMatching(new RegExp(widened(rule.re.source))), (s) => {
          for (const t of [s, normalizeLine(s).text]) {
            if (!rule.re.test(t)) continue;
            matched++;
            const m = scanner.mask();
            scanner.scan(t, m);
            // A rule's Chinese forms have no ASCII hint: the audit tries them on any text with CJK characters.
            const tried = hasRule(m, i) || (rule.zh !== undefined && CJK_RE.test(t));
            if (!tried && holes.length < 10) holes.push(`${rule.id}: ${JSON.stringify(t.slice(0, 120))}`);
          }
        }),
        { numRuns: 400 },
      );
    assert.ok(matched > 0, `${rule.id}: no generated text matched its pattern, the property says nothing about it`);
  });
  assert.deepEqual(holes, []);
});

test('forms the old whole-file prefilter hid are caught: spaced fork bomb, rm split over lines, spaced os . popen', () => {
  const level = (t: string, k: 'markdown' | 'shell' | 'script'): string[] =>
    auditText('x', t, k).findings.map((f) => `${f.level} ${f.rule}`);
  assert.ok(level('```bash\n:() { :|:& };:\n```\n', 'markdown').includes('P0 destructive.disk'));
  assert.ok(level('#!/bin/sh\nrm\\\n  -rf /\n', 'shell').includes('P0 destructive.rm-root'));
  assert.ok(level('import os\nos . popen(cmd)\n', 'script').includes('P0 exec.os-system'));
  assert.ok(level('s = new vm . Script(code)\n', 'script').includes('P0 exec.indirect-eval'));
  assert.ok(level(`T = "ghr_${'x1Y2'.repeat(9)}"\n`, 'script').includes('P1 secrets.hardcoded'));
});
