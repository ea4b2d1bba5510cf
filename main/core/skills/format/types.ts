// The skill engine's shared types: tiers, the normalised manifest and catalog records (diagnostics: base/diagnostics.ts).
// Other areas (policy, tools, sandbox, agent) import these; extend fields, never rename them.
import type { Diagnostic, Said } from '../../base/index.js';
import type { ParsedPermissions } from '../../policy/index.js';
import type { FrontmatterFacts } from './frontmatter-facts.js';

export type Tier = 'builtin' | 'user' | 'project';

/** Precedence: higher wins when two tiers hold a skill of the same name. */
export const TIER_RANK: Record<Tier, number> = { builtin: 0, user: 1, project: 2 };

/** The skill's `permissions` as written (for display); what it grants is `SkillManifest.requested`. */
export interface RawPermissions {
  raw: unknown;
  reviewed: false;
}

/** Both vocabularies (WorkBuddy and Agent Skills) normalised into one shape. */
export interface SkillManifest {
  /** `name` or `title` (NFKC-normalised). */
  name: string;
  /** `description` or `summary`. */
  description: string;
  /** Display title when the skill gave one (WorkBuddy `title`). */
  title?: string;
  license?: string;
  compatibility?: string;
  /** Agent Skills `metadata`, values coerced to strings. */
  metadata: Record<string, string>;
  /** Agent Skills `allowed-tools`, split into entries (`Bash(git:*)`, `Read`). */
  allowedTools: string[];
  /** Explicit trigger phrases (WorkBuddy `read_when`, or `metadata.read_when`). */
  readWhen: string[];
  agentCreated: boolean;
  dependsOn: string[];
  permissions?: RawPermissions;
  /**
   * The permission request (`permissions` and `allowed-tools`), read strictly once at parse time (format/permissions.ts):
   * `permissions` when it could be read, else undefined with the diagnostics that reject it. The gate, the sandbox and
   * the audit all use this; nothing re-reads SKILL.md for it.
   */
  requested: ParsedPermissions;
  /** Unknown top-level keys, kept for tools that want them. */
  extra: Record<string, unknown>;
  /**
   * What the trust audit reads from the frontmatter, taken in this same parse (format/frontmatter-facts.ts): the audit
   * uses it instead of parsing the YAML again while the frontmatter text is unchanged. Absent in manifests built by hand.
   */
  frontmatter?: FrontmatterFacts;
}

/** What the audit takes from a discovered skill's manifest (so the frontmatter is parsed once, at discovery). */
export type ParsedManifest = Pick<SkillManifest, 'requested' | 'description' | 'frontmatter'>;

/** The part of a manifest the audit takes (small: it crosses to the audit workers). */
export function parsedManifestOf(m: ParsedManifest): ParsedManifest {
  return {
    requested: m.requested,
    description: m.description,
    ...(m.frontmatter ? { frontmatter: m.frontmatter } : {}),
  };
}

/** A skill found on disk in one tier. */
export interface SkillRecord {
  manifest: SkillManifest;
  tier: Tier;
  /** Which folder convention it came from. */
  source: 'workbuddy' | 'agents';
  /** The skill folder as discovered (may be a symlink). */
  dir: string;
  /** Real path of the folder (symlinks resolved). */
  realDir: string;
  /** The SKILL.md (or skill.md) path inside `dir`. */
  file: string;
  size: number;
  mtimeMs: number;
  /** The SKILL.md's status-change time when the catalog stat'ed it (the trust review's tree check reuses that stat). */
  ctimeMs?: number;
  diagnostics: Diagnostic[];
}

/** A record in the merged catalog: precedence applied, toggles applied. */
export interface CatalogEntry extends SkillRecord {
  /** Set when a higher tier holds a skill of the same name; this one is not used. */
  shadowedBy?: { tier: Tier; file: string };
  /** Per-workspace toggle (default on). A disabled skill is never in the prompt nor matched. */
  enabled: boolean;
  /** Why it is disabled, when not by the user (e.g. audit P0 / untrusted P1). */
  disabledReason?: string;
  /** disabledReason as words (preload/words.ts): the window says them in its language. */
  disabledWords?: Said;
  /**
   * Set while the skill is not trusted: `refused` (audit P0), `pending` (P1 or widened permissions, waiting for the
   * user), `checking` (its audit has not finished). An untrusted skill acts as nobody and shadows nobody.
   */
  trust?: TrustHold;
  /** An untrusted skill that would shadow this lower-tier skill of the same name once trusted. */
  wouldShadow?: { tier: Tier; file: string; name: string };
}

export type TrustHold = 'refused' | 'pending' | 'checking';
