// Matching and SkillSearch benchmarks: one message against 10,000 skills × 5 triggers (automaton vs a loop over
// every trigger), SkillSearch latency over 10,000 skills, dictionary load time, and recall@5 on public-skills vs BM25.
import { readFileSync, readdirSync, mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SkillMatcher } from '../../main/core/skills/use/matcher.js';
import { SkillSearch } from '../../main/core/skills/use/skill-search.js';
import { loadBilingualMap } from '../../main/core/search/bilingual.js';
import { terms } from '../../main/core/search/tokenize.js';
import { parseSkillFile } from '../../main/core/skills/format/manifest.js';
import type { CatalogEntry, SkillManifest } from '../../main/core/skills/format/types.js';
import { defaultPermissions } from '../../main/core/policy/permissions.js';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'shared', 'fixtures');

function entry(m: SkillManifest, tier: CatalogEntry['tier'] = 'user'): CatalogEntry {
  return { manifest: m, tier, source: 'workbuddy', dir: `/s/${m.name}`, realDir: `/s/${m.name}`, file: `/s/${m.name}/SKILL.md`, size: 0, mtimeMs: 0, diagnostics: [], enabled: true };
}

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EN = ('deploy release build test lint format review commit branch merge rebase migrate backup restore index query cache ' +
  'schema table api endpoint auth token secret log metric alert trace profile benchmark docker kubernetes helm terraform ' +
  'invoice report chart slide email translate summarize refactor debug crash leak upgrade dependency package bundle image video ' +
  'audio pdf spreadsheet csv json yaml config cron queue worker webhook payment customer ticket issue incident postmortem').split(' ');
const ZH = ('部署 发布 构建 测试 格式化 审查 提交 分支 合并 迁移 备份 恢复 索引 查询 缓存 接口 认证 密钥 日志 指标 告警 性能 ' +
  '容器 镜像 发票 报表 图表 幻灯片 邮件 翻译 总结 重构 调试 崩溃 升级 依赖 打包 视频 音频 表格 配置 定时 队列 支付 客户 工单 故障 复盘').split(' ');

function synthetic(n: number, seed = 42): CatalogEntry[] {
  const r = rng(seed);
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
  const out: CatalogEntry[] = [];
  for (let i = 0; i < n; i++) {
    const readWhen: string[] = [];
    for (let k = 0; k < 5; k++) {
      const zh = r() < 0.4;
      readWhen.push(zh ? `${pick(ZH)}${pick(ZH)}${r() < 0.3 ? pick(ZH) : ''}` : `${pick(EN)} ${pick(EN)}${r() < 0.5 ? ' ' + pick(EN) : ''}`);
    }
    const description = `Helps ${pick(EN)} the ${pick(EN)} ${pick(EN)} and ${pick(EN)} ${pick(EN)}; use when working on ${pick(EN)} ${pick(EN)}. ${r() < 0.3 ? `用于${pick(ZH)}${pick(ZH)}和${pick(ZH)}。` : ''}`;
    const name = `skill-${i.toString().padStart(5, '0')}-${pick(EN)}`;
    const tier = (['builtin', 'user', 'project'] as const)[i % 3]!;
    out.push(entry({ name, description, metadata: {}, allowedTools: [], readWhen, agentCreated: false, dependsOn: [], extra: {}, requested: { permissions: defaultPermissions(), diagnostics: [] } }, tier));
  }
  return out;
}

function messages(n: number, seed = 7): string[] {
  const r = rng(seed);
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    out.push(
      r() < 0.5
        ? `Can you ${pick(EN)} the ${pick(EN)} ${pick(EN)} and then ${pick(EN)} the ${pick(EN)} before we ${pick(EN)} ${pick(EN)}? It has to be done today for the ${pick(EN)} team.`
        : `帮我把${pick(ZH)}${pick(ZH)}的问题处理一下，然后${pick(ZH)}${pick(ZH)}，最后记得${pick(ZH)}。`,
    );
  }
  return out;
}

function time<T>(fn: () => T): { ms: number; value: T } {
  const t0 = performance.now();
  const value = fn();
  return { ms: performance.now() - t0, value };
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const f = (n: number, d = 2): string => n.toFixed(d);

// ---------------------------------------------------------------- matching
{
  const skills = synthetic(10_000);
  const built = time(() => new SkillMatcher(skills));
  const m = built.value;
  const msgs = messages(200);
  // Same answers first: the baseline is the same matcher semantics checked trigger by trigger.
  let hits = 0;
  for (const msg of msgs) {
    const a = m.match(msg);
    const b = m.matchNaive(msg);
    if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`automaton and loop disagree on: ${msg}`);
    hits += a.length;
  }
  const rounds = 3;
  const fast = time(() => {
    for (let i = 0; i < rounds; i++) for (const msg of msgs) m.match(msg);
  });
  const naive = time(() => {
    for (const msg of msgs) m.matchNaive(msg);
  });
  const perFast = fast.ms / (rounds * msgs.length);
  const perNaive = naive.ms / msgs.length;
  console.log(`matching: ${m.skillCount} skills, ${m.triggerCount} triggers, automaton built in ${f(built.ms, 0)} ms`);
  console.log(`  one message: automaton ${f(perFast * 1000, 1)} µs vs loop over all triggers ${f(perNaive * 1000, 1)} µs  →  ${f(perNaive / perFast, 1)}× faster (target ≥ 20×)`);
  console.log(`  (${msgs.length} messages, ${f(hits / msgs.length, 1)} matched skills per message on average; results identical)`);
}

// ---------------------------------------------------------------- dictionary load
const cacheDir = mkdtempSync(join(tmpdir(), 'knack-bench-'));
{
  const cold = loadBilingualMap({ cacheDir });
  const warm = loadBilingualMap({ cacheDir });
  console.log(`\nCC-CEDICT map: derive from package data + write cache ${f(cold.ms, 0)} ms; load from cache ${f(warm.ms, 1)} ms (${cold.map.zhToEn.size} Chinese keys, ${cold.map.enToZh.size} English keys)`);
}

// ---------------------------------------------------------------- SkillSearch latency
{
  const skills = synthetic(10_000, 99);
  const built = time(() => new SkillSearch(skills, { cacheDir }));
  const s = built.value;
  const r = rng(3);
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
  const queries = Array.from({ length: 300 }, (_, i) => (i % 2 ? `how do I ${pick(EN)} the ${pick(EN)} ${pick(EN)}` : `怎么${pick(ZH)}${pick(ZH)}的${pick(ZH)}`));
  s.search(queries[0]!); // first query loads the dictionary map
  const lat: number[] = [];
  for (const q of queries) lat.push(time(() => s.search(q, { limit: 5 })).ms);
  lat.sort((a, b) => a - b);
  console.log(`\nSkillSearch over ${s.size} skills: index built in ${f(built.ms, 0)} ms; latency p50 ${f(pct(lat, 50))} ms, p99 ${f(pct(lat, 99))} ms (${queries.length} queries, English and Chinese)`);
}

// ---------------------------------------------------------------- SkillSearch quality
/** Plain Okapi BM25 (k1 1.2, b 0.75) over name + description, same tokenizer, no expansion. */
class Bm25 {
  private readonly docs: { id: string; tf: Map<string, number>; len: number }[] = [];
  private readonly df = new Map<string, number>();
  private avg = 0;
  constructor(items: { id: string; text: string }[]) {
    for (const it of items) {
      const t = terms(it.text);
      const tf = new Map<string, number>();
      for (const w of t) tf.set(w, (tf.get(w) ?? 0) + 1);
      for (const w of tf.keys()) this.df.set(w, (this.df.get(w) ?? 0) + 1);
      this.docs.push({ id: it.id, tf, len: t.length });
    }
    this.avg = this.docs.reduce((a, d) => a + d.len, 0) / Math.max(1, this.docs.length);
  }
  search(q: string, k: number): string[] {
    const N = this.docs.length;
    const qt = [...new Set(terms(q))];
    return this.docs
      .map((d) => {
        let s = 0;
        for (const w of qt) {
          const tf = d.tf.get(w);
          if (!tf) continue;
          const n = this.df.get(w)!;
          const idf = Math.log(1 + (N - n + 0.5) / (n + 0.5));
          s += (idf * tf * 2.2) / (tf + 1.2 * (1 - 0.75 + (0.75 * d.len) / this.avg));
        }
        return { id: d.id, s };
      })
      .filter((x) => x.s > 0)
      .sort((a, b) => b.s - a.s)
      .slice(0, k)
      .map((x) => x.id);
  }
}

{
  const root = join(FIXTURES, 'public-skills');
  const files: string[] = [];
  for (const repo of readdirSync(root)) {
    const dir = join(root, repo, 'skills');
    if (!existsSync(dir)) continue;
    for (const s of readdirSync(dir)) if (existsSync(join(dir, s, 'SKILL.md'))) files.push(join(dir, s, 'SKILL.md'));
  }
  const entries = files.flatMap((file) => {
    const p = parseSkillFile(file);
    return p.manifest ? [entry(p.manifest)] : [];
  });
  const dev = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'skill-search-devset.json'), 'utf8')) as Record<'en' | 'zh', { q: string; gold: string[] }[]>;
  const s = new SkillSearch(entries, { cacheDir });
  const bm = new Bm25(entries.map((e) => ({ id: e.manifest.name, text: `${e.manifest.name.replace(/-/g, ' ')} ${e.manifest.description}` })));
  console.log(`\nSkillSearch quality on public-skills (${entries.length} skills), dev set test/fixtures/skill-search-devset.json:`);
  for (const lang of ['en', 'zh'] as const) {
    let ours1 = 0;
    let ours5 = 0;
    let base1 = 0;
    let base5 = 0;
    for (const { q, gold } of dev[lang]) {
      const a = s.search(q, { limit: 5 }).map((h) => h.name);
      const b = bm.search(q, 5);
      if (gold.includes(a[0] ?? '')) ours1++;
      if (a.some((x) => gold.includes(x))) ours5++;
      if (gold.includes(b[0] ?? '')) base1++;
      if (b.some((x) => gold.includes(x))) base5++;
    }
    const n = dev[lang].length;
    console.log(`  ${lang} (${n} requests): SkillSearch recall@1 ${f(ours1 / n)} recall@5 ${f(ours5 / n)}  |  plain BM25 recall@1 ${f(base1 / n)} recall@5 ${f(base5 / n)}`);
  }
}
rmSync(cacheDir, { recursive: true, force: true });
