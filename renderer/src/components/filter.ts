// Skill filtering and grouping for the sidebar: name, description and triggers, case-insensitive, any script.
// Pure functions so the 2,000-skill bench and the tests exercise exactly what the sidebar runs.
import type { Tier } from '../../../preload/contract';
import type { SkillRowData } from '../state/skills';

const TIERS: Tier[] = ['project', 'user', 'builtin'];

/** One collator for every sort (String.prototype.localeCompare builds one per call: slow over 2,000 names). */
const byName = new Intl.Collator(undefined, { numeric: true });

function matchesFilter(s: SkillRowData, q: string): boolean {
  if (!q) return true;
  const needle = q.normalize('NFKC').toLowerCase();
  if (s.name.toLowerCase().includes(needle)) return true;
  if (s.description.normalize('NFKC').toLowerCase().includes(needle)) return true;
  return s.triggers.some((t) => t.normalize('NFKC').toLowerCase().includes(needle));
}

export type Row = { kind: 'header'; tier: Tier; count: number } | { kind: 'skill'; skill: SkillRowData };

/** Header + skills per tier (project first: it wins), filtered; empty tiers are left out. */
export function groupRows(skills: SkillRowData[], q: string): Row[] {
  const rows: Row[] = [];
  const query = q.trim();
  for (const tier of TIERS) {
    const list = skills.filter((s) => s.tier === tier && matchesFilter(s, query));
    if (list.length === 0) continue;
    list.sort((a, b) => byName.compare(a.name, b.name));
    rows.push({ kind: 'header', tier, count: list.length });
    for (const skill of list) rows.push({ kind: 'skill', skill });
  }
  return rows;
}
