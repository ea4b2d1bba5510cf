// The live policy gate over a skill catalog: every call is judged with the catalog as it is now. A catalog change
// re-reads only the skills it names — their permissions were parsed once, with their manifests — never every skill.
import type { Actor, Decision, Gate, ToolCall } from '../../policy/index.js';
import type { Ceiling } from '../../policy/index.js';
import type { SkillPolicy } from '../../policy/index.js';
import { gateOver, ownRoots, workspaceCeiling } from '../../policy/index.js';
import type { Settings } from '../../config/index.js';
import type { Store } from '../../store/index.js';
import { nameKey, type Said } from '../../base/index.js';
import { realRoot } from '../../base/index.js';
import { skillPolicyOf } from '../format/index.js';
import type { CatalogEntry } from '../format/index.js';
import { unchangedHash } from '../trust/index.js';

/**
 * A skill folder's content hash as its review recorded it, while its files are unchanged since (same names, sizes,
 * times): else undefined, and rules bound to a content hash do not apply until it is reviewed (and then they match
 * only when the content is what it was).
 */
function reviewedHash(dir: string, store?: Store): string | undefined {
  if (!store) return undefined;
  try {
    return unchangedHash(dir, store);
  } catch {
    return undefined;
  }
}

/** What the gate needs of a catalog: the winner of a name, and every entry (for the first build). */
export interface CatalogSource {
  get(name: string): CatalogEntry | undefined;
  entries(): CatalogEntry[];
}

/** A catalog change as the catalog reports it: names (or name keys) added, removed or changed. */
export interface CatalogChangeNames {
  added: string[];
  removed: string[];
  changed: string[];
}

export interface CatalogGateOptions {
  settings: Settings;
  workspace: string;
  store?: Store;
  /** The home and data folder in use: their Knack folders always ask for writes. */
  paths?: { home: string; dataDir: string };
  catalog: CatalogSource;
  /**
   * The user tier folder create_skill saves to (`~/.workbuddy/skills`): a write root beside the workspace, so saving a
   * task as a skill can pass the gate. It stays protected (Knack's own folder): every write there asks, and a skill's
   * script may never write a skill folder.
   */
  userSkillsDir?: string;
  /** Why the user's rules cannot all be read now, or undefined (policy/gate.ts GateOptions.rulesUnreadable). */
  rulesUnreadable?: () => Said | undefined;
  /** The workspace's OS sandbox as it is now (core/contain): commands inside it run without a question. */
  wall?: Ceiling['wall'];
}

/**
 * Acting skills are the catalog's winners (not shadowed), enabled or not: a disabled skill is not offered to the model,
 * but its folder stays a read-only root and its manifest still binds it should it act.
 */
export class CatalogGate implements Gate {
  private ceiling: Ceiling;
  private readonly policies = new Map<string, SkillPolicy>();
  /** Names to re-read at the next call; `all` before the first build. */
  private pending: Set<string> | 'all' = 'all';
  private current: Gate | undefined;

  constructor(private readonly opts: CatalogGateOptions) {
    this.ceiling = this.ceilingOf(opts.settings);
  }

  private ceilingOf(settings: Settings): Ceiling {
    const c = {
      ...workspaceCeiling(settings, this.opts.workspace),
      ...(this.opts.wall ? { wall: this.opts.wall } : {}),
    };
    return this.opts.userSkillsDir ? { ...c, writeRoots: [...c.writeRoots, realRoot(this.opts.userSkillsDir)] } : c;
  }

  /**
   * The user changed the ceiling (Settings): the very next call is judged by the new one — a call in flight that was
   * asked about is judged again when its answer comes (tools/executor.ts). Skills are not re-read.
   */
  setCeiling(settings: Settings): void {
    this.ceiling = this.ceilingOf(settings);
    this.current = undefined;
  }

  /** Note a catalog change: the skills it names are re-read at the next call (nothing else is). */
  changed(change: CatalogChangeNames): void {
    if (this.pending !== 'all')
      for (const n of [...change.added, ...change.removed, ...change.changed]) this.pending.add(n);
    this.current = undefined;
  }

  /** Forget everything: the next call re-reads every skill (after a change the catalog could not name). */
  invalidate(): void {
    this.pending = 'all';
    this.current = undefined;
  }

  authorize(call: ToolCall, actor: Actor): Decision {
    return this.gate().authorize(call, actor);
  }

  /** The acting skills' policies as the gate sees them now, by name key. */
  skills(): ReadonlyMap<string, SkillPolicy> {
    this.gate();
    return this.policies;
  }

  private gate(): Gate {
    if (this.current) return this.current;
    const { catalog } = this.opts;
    if (this.pending === 'all') {
      this.policies.clear();
      for (const e of catalog.entries()) {
        const key = nameKey(e.manifest.name);
        if (!e.shadowedBy && !this.policies.has(key)) this.policies.set(key, skillPolicyOf(e));
      }
    } else {
      for (const name of this.pending) {
        const e = catalog.get(name);
        const key = nameKey(name);
        if (e && !e.shadowedBy) this.policies.set(nameKey(e.manifest.name), skillPolicyOf(e));
        else this.policies.delete(key);
      }
    }
    this.pending = new Set();
    // The user tier folder is a skill root too: a skill's script can never write there (the agent asks each time).
    // Skills act by identity: tier, real folder and, when a rule or an answer needs it, the reviewed content hash.
    const store = this.opts.store;
    const roots = this.opts.userSkillsDir
      ? [...[...this.policies.values()].map((p) => p.dir), realRoot(this.opts.userSkillsDir)]
      : undefined;
    this.current = gateOver(
      this.ceiling,
      this.policies,
      store,
      roots,
      ownRoots(this.opts.paths),
      (sp) => reviewedHash(sp.dir, store),
      this.opts.rulesUnreadable,
    ).gate;
    return this.current;
  }
}
