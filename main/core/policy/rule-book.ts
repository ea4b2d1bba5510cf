// Adding a user rule: skip it when an existing rule already covers it, and drop the one-offs it now covers.
// The store only stores rules; deciding which ones are redundant is policy, so it lives here.
import type { PolicyRepo, NewRule, Rule } from '../store/index.js';
import { subsumes } from './rules.js';

/** Add a rule unless an existing one already covers it; returns the covering or new rule and whether it is new. */
export function addRule(repo: PolicyRepo, rule: NewRule): { rule: Rule; added: boolean } {
  const existing = repo.rules().find((r) => subsumes(r, rule));
  if (existing) return { rule: existing, added: false };
  const row = repo.insertRule(rule);
  // Rules the new one covers are now redundant one-offs: drop them.
  for (const r of repo.rules()) if (r.id !== row.id && subsumes(rule, r)) repo.removeRule(r.id);
  return { rule: row, added: true };
}
