// Generated frontmatter, plain and hostile: whenever the fast reader answers, it answers exactly what `yaml` does
// (data, key lines, field lines, metadata sources), and it never answers where `yaml` reports a problem.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compareWithYaml } from '../../helpers/frontmatter-diff.js';
import { parseFrontmatterFast } from '../../../main/core/skills/format/frontmatter-fast.js';

const KEYS = [
  'name',
  'description',
  'license',
  'metadata',
  'permissions',
  'allowed-tools',
  'read_when',
  'title',
  'version',
  'author',
  'workbuddy.title',
  'tools',
  'network',
  'paths',
  'read',
  'yes',
  'on',
  'true',
  'null',
  '1',
  '0x1',
  '__proto__',
  'a-b',
  'x_y/z',
];
const key = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...KEYS.slice(0, 15)) },
  fc.constantFrom(...KEYS),
  fc.stringMatching(/^[a-z_][a-z0-9_.-]{0,8}$/),
);

/** Tokens that are tricky for scalar typing and for the plain-scalar grammar. */
const TOKENS = [
  'yes',
  'No',
  'on',
  'OFF',
  'true',
  'False',
  'TRUE',
  'null',
  'Null',
  'NULL',
  '~',
  '1e3',
  '1E+3',
  '0o17',
  '+0o7',
  '0x1F',
  '-0x1',
  '1_000',
  '012',
  '00',
  '-0',
  '+1',
  '.5',
  '5.',
  '1.0',
  '1.',
  '.inf',
  '-.Inf',
  '+.INF',
  '.nan',
  '.NaN',
  '2024-01-01',
  '12345678901234567890',
  '-.5e-3',
  '1e',
  '.',
  '-',
  '--',
  '-x',
  'a:b',
  'a: b',
  'a :b',
  'a #b',
  'a#b',
  '#x',
  ':x',
  '?x',
  '? x',
  '[a]',
  '{a}',
  'a,b',
  "it's",
  '"q"',
  '\\',
  '\\n',
  '&a',
  '*a',
  '!t',
  '!!str',
  '%x',
  '@x',
  '`x`',
  '|',
  '>',
  '...',
  '---',
  'é',
  '中文字',
  '😀',
  '👨‍👩‍👧',
  '\u202eevil',
  '\u2066x\u2069',
  '\u200b',
  '\t',
  'Bash(git:*)',
  'Read',
  'x y',
  ' ',
  '\u00a0',
  '\u0085',
  '\u2028',
];
const token = fc.oneof(fc.constantFrom(...TOKENS), { weight: 3, arbitrary: fc.stringMatching(/^[a-z0-9]{1,6}$/) });
const words = fc.array(token, { minLength: 1, maxLength: 5 }).map((ws) => ws.join(' '));
const rawText = fc.oneof(words, fc.string({ maxLength: 12 }), fc.string({ unit: 'grapheme', maxLength: 8 }));

const comment = fc.oneof(
  fc.constant(''),
  fc.constant(''),
  fc.constant(' # note'),
  fc.constant(' #'),
  fc.constant('#x'),
);
const spaces = fc.constantFrom('', '', ' ', '  ');

const plain = fc.tuple(words, comment).map(([w, c]) => w + c);
const doubleQ = fc.oneof(
  rawText.map((s) => JSON.stringify(s)),
  fc
    .tuple(
      rawText,
      fc.constantFrom(
        '\\n',
        '\\t',
        '\\x41',
        '\\u00e9',
        '\\U0001F600',
        '\\q',
        '\\',
        '\\ud800',
        '\\_',
        '\\N',
        '\\L',
        '\\/',
        '\\"',
        '\\0',
        '\\U00110000',
      ),
    )
    .map(([s, e]) => `"${s.replace(/["\\]/g, '')}${e}"`),
);
const singleQ = fc.oneof(
  rawText.map((s) => `'${s.replace(/'/g, "''")}'`),
  rawText.map((s) => `'${s}'`),
);
const flowItem = fc.oneof(token, doubleQ, singleQ);
const flowSeq = fc
  .tuple(fc.array(flowItem, { maxLength: 4 }), spaces, fc.boolean(), comment)
  .map(([items, sp, trailing, c]) => `[${sp}${items.join(`,${sp} `)}${trailing && items.length ? ',' : ''}${sp}]${c}`);
const inlineScalar = fc.oneof(plain, plain, doubleQ, singleQ, flowSeq);

/** Lines after the key line: `ind` is the key's column. */
type Block = (ind: number) => fc.Arbitrary<{ head: string; lines: string[] }>;

const multiPlain: Block = (ind) =>
  fc
    .tuple(
      words,
      fc.array(
        fc.tuple(
          fc.integer({ min: 0, max: 4 }),
          fc.oneof(words, fc.constant('')),
          fc.constantFrom('', '"x"', '- y', '[z]'),
        ),
        { minLength: 1, maxLength: 3 },
      ),
    )
    .map(([first, more]) => ({
      head: first,
      lines: more.map(([extra, w, p]) => (w ? ' '.repeat(ind + extra) + p + w : ' '.repeat(extra))),
    }));

const blockScalar: Block = (ind) =>
  fc
    .tuple(
      fc.constantFrom('|', '>'),
      fc.constantFrom('', '', '-', '+', '2', '1-', '+ # c'),
      fc.integer({ min: 0, max: 3 }),
      fc.array(
        fc.tuple(fc.integer({ min: -2, max: 2 }), fc.oneof(words, fc.constant(''), fc.constant('# not a comment'))),
        { maxLength: 5 },
      ),
      fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 2 }),
    )
    .map(([style, chomp, base, body, trailing]) => ({
      head: style + chomp,
      lines: [
        ...body.map(([shift, w]) =>
          w ? ' '.repeat(Math.max(0, ind + 1 + base + shift)) + w : ' '.repeat(Math.max(0, base + shift)),
        ),
        ...trailing.map((n) => ' '.repeat(n)),
      ],
    }));

/** A sequence item: an inline scalar, or a block scalar / multi-line plain value under its dash (at column `at`). */
const seqItem = (at: number): fc.Arbitrary<string[]> =>
  fc.oneof(
    { weight: 6, arbitrary: inlineScalar.map((x) => [`${' '.repeat(at)}- ${x}`]) },
    { weight: 1, arbitrary: fc.constantFrom('-', '- a: b', '- - x').map((x) => [' '.repeat(at) + x]) },
    {
      weight: 2,
      arbitrary: fc.oneof(blockScalar(at), multiPlain(at)).map((v) => [`${' '.repeat(at)}- ${v.head}`, ...v.lines]),
    },
  );
const blockSeq: Block = (ind) =>
  fc
    .constantFrom(0, 2, 2, 1, 4)
    .chain((extra) => fc.array(seqItem(ind + extra), { minLength: 1, maxLength: 4 }))
    .map((items) => ({ head: '', lines: items.flat() }));

function mapping(ind: number, depth: number): fc.Arbitrary<string[]> {
  const entry = fc
    .tuple(
      key,
      fc.oneof(
        { weight: 5, arbitrary: inlineScalar.map((v) => ({ head: v, lines: [] as string[] })) },
        { weight: 1, arbitrary: fc.constant({ head: '', lines: [] as string[] }) },
        { weight: 2, arbitrary: multiPlain(ind) },
        { weight: 2, arbitrary: blockScalar(ind) },
        { weight: 2, arbitrary: blockSeq(ind) },
        {
          weight: depth < 2 ? 2 : 0,
          arbitrary: fc
            .constantFrom(2, 2, 4, 1)
            .chain((step) => mapping(ind + step, depth + 1).map((lines) => ({ head: '', lines }))),
        },
      ),
      fc.constantFrom('', '', '', '# comment', '   ', ''),
    )
    .map(([k, v, extra]) => [
      `${' '.repeat(ind)}${k}:${v.head === '' ? '' : ' '}${v.head}`,
      ...v.lines,
      ...(extra ? [extra] : []),
    ]);
  return fc.array(entry, { minLength: 1, maxLength: 5 }).map((es) => es.flat());
}

/** A frontmatter text; sometimes damaged (a character inserted, a line repeated or dropped), sometimes with CRLF. */
const frontmatter = fc
  .tuple(
    mapping(0, 0),
    fc.nat(),
    fc.nat(),
    fc.constantFrom('none', 'none', 'insert', 'repeat', 'drop'),
    fc.constantFrom(':', ' ', '-', '"', "'", '#', '\t', '[', '\n', '  '),
    fc.boolean(),
  )
  .map(([lines, at, pos, damage, ch, crlf]) => {
    const ls = [...lines];
    const i = at % ls.length;
    if (damage === 'repeat') ls.splice(i, 0, ls[i]!);
    if (damage === 'drop' && ls.length > 1) ls.splice(i, 1);
    if (damage === 'insert')
      ls[i] = ls[i]!.slice(0, pos % (ls[i]!.length + 1)) + ch + ls[i]!.slice(pos % (ls[i]!.length + 1));
    const text = ls.join('\n') + '\n';
    return crlf ? text.replace(/\n/g, '\r\n') : text;
  });

test('the fast reader answers exactly as yaml on generated frontmatter, or leaves it to yaml', () => {
  let answered = 0;
  let runs = 0;
  fc.assert(
    fc.property(frontmatter, (text) => {
      runs++;
      if (compareWithYaml(text)) answered++;
    }),
    { numRuns: Number(process.env.FM_RUNS ?? 3000) },
  );
  // The property is not vacuous: plain frontmatter is mostly the fast reader's to answer.
  assert.ok(answered > runs / 10, `the fast reader answered only ${answered} of ${runs}`);
});

test('the fast reader types scalars as the YAML 1.2 core schema does', () => {
  for (const t of TOKENS) {
    compareWithYaml(`a: ${t}\n`);
    compareWithYaml(`a: [${t}]\n`);
    compareWithYaml(`a:\n  - ${t}\n`);
    compareWithYaml(`${t}: x\n`);
  }
  const fast = parseFrontmatterFast('a: yes\nb: 1e3\nc: 0o17\nd: .inf\ne: ~\nf: 2024-01-01\ng: -0\nh: 1.0\n');
  assert.deepStrictEqual(fast?.data, { a: 'yes', b: 1000, c: 15, d: Infinity, e: null, f: '2024-01-01', g: -0, h: 1 });
});

test('hostile frontmatter never crashes or hangs the fast reader', () => {
  const deep = Array.from({ length: 5000 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n') + '\n';
  assert.equal(parseFrontmatterFast(deep), undefined);
  compareWithYaml(Array.from({ length: 40 }, (_, i) => `${' '.repeat(i * 2)}k${i}:`).join('\n') + '\n');
  const wide = Array.from({ length: 20_000 }, (_, i) => `k${i}: v`).join('\n') + '\n';
  assert.equal(Object.keys(parseFrontmatterFast(wide)!.data).length, 20_000);
  const longLine = `description: ${'a: '.repeat(50_000)}\n`;
  assert.equal(parseFrontmatterFast(longLine), undefined);
  compareWithYaml(`a: [${'x, '.repeat(10_000)}y]\n`);
  compareWithYaml(`a: "${'\\'.repeat(9_999)}"\n`);
  compareWithYaml(`a: |\n${'  x\n'.repeat(10_000)}`);
});
