// Contract handlers for skill sources: open a git repository / marketplace and list its skills (progress as events),
// install picks through the one install path, the Updates badge (files and permission diff), Browse over marketplaces.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { Handlers } from './dispatch.js';
import { ServiceError } from './dispatch.js';
import type { ServiceContext } from './context.js';
import { diffView, installView } from './views.js';
import { BoundedMap, english, say } from '../base/index.js';
import { projectSkillDirs, userSkillDirs } from '../config/index.js';
import { addCandidate } from '../skills/sources/index.js';
import { lockPathFor, readLock, type LockEntry } from '../skills/sources/index.js';
import { listMarketplaces, marketplaceEntries, searchEntries } from '../skills/sources/index.js';
import { openSource, type FetchOptions, type OpenedSource } from '../skills/sources/index.js';
import { parseSource, SourceError } from '../skills/sources/index.js';
import { applyUpdate, checkUpdates } from '../skills/sources/index.js';
import { sourceWall } from '../source-wall.js';

type SourceHandlers = Pick<
  Handlers,
  'sources.open' | 'sources.install' | 'sources.close' | 'sources.updates' | 'sources.applyUpdate' | 'sources.browse'
>;

/** Sources kept open at once (each is a temporary clone); the oldest is closed past this. */
const MAX_OPEN = 4;

// A source's refusal is said in its words, its English message (git's or curl's own line, when fuller) kept.
const refused = (e: unknown): never => {
  if (e instanceof SourceError) throw new ServiceError('refused', e.words, undefined, e.message);
  throw e;
};

function tierRootOf(ctx: ServiceContext, tier: 'user' | 'project'): string {
  const ws = ctx.workspace();
  return tier === 'user' ? userSkillDirs(ws.paths.home).workbuddy : projectSkillDirs(ws.workspace).workbuddy;
}

/** The lock entry of an installed skill of the user or project tier, when it came from a source. */
export function originOf(ctx: ServiceContext, name: string, tier: string): LockEntry | undefined {
  if (tier !== 'user' && tier !== 'project') return undefined;
  try {
    return readLock(lockPathFor(tierRootOf(ctx, tier))).skills[name];
  } catch {
    return undefined;
  }
}

/** `atClose` is given the clean-up the service runs when it closes (the temporary clones still held). */
export function sourceHandlers(ctx: ServiceContext, atClose: (f: () => Promise<void>) => void): SourceHandlers {
  const opened = new BoundedMap<string, OpenedSource>(MAX_OPEN, (o) => o.dispose());
  /**
   * The content hash of each update the last check showed (`tier\0name`). A check keeps no clone: Update fetches the
   * skill again and installs it only when it still hashes as shown.
   */
  let shown = new Map<string, string>();
  const drop = (id: string) => {
    opened.get(id)?.dispose();
    opened.delete(id);
  };
  atClose(async () => {
    for (const id of [...opened.keys()]) drop(id);
  });
  /** Git for a source runs inside the open workspace's wall; running outside it is said on the progress line. */
  const wall = () => {
    const ws = ctx.workspace();
    return sourceWall(
      () => ws.wall(),
      (why, words) => ctx.events.emit('sources.progress', { stage: 'outside-sandbox', detail: why, words }),
    );
  };
  const progress: NonNullable<FetchOptions['onProgress']> = (stage, detail) =>
    ctx.events.emit('sources.progress', { stage, detail });

  /** Check every source-installed skill of both tiers for a newer version (what the Updates dialog shows). */
  const checkAll = async () => {
    const items = [];
    const next = new Map<string, string>();
    for (const tier of ['project', 'user'] as const) {
      let result;
      try {
        result = await checkUpdates(tierRootOf(ctx, tier), undefined, {
          wall: wall(),
          cwd: ctx.workspace().workspace,
          onProgress: progress,
        });
      } catch (e) {
        return refused(e);
      }
      // What the window is shown is read from the clones now; they are not kept until the next check.
      await result.dispose();
      for (const c of result.checks) {
        if (c.candidate) next.set(`${tier}\0${c.name}`, c.candidate.contentHash);
        items.push({
          name: c.name,
          tier,
          status: c.status,
          from: c.entry.commit,
          ...(c.reason ? { reason: c.reason } : {}),
          ...(c.words ? { words: c.words } : {}),
          ...(c.commit ? { to: c.commit } : {}),
          ...(c.candidate ? { level: c.candidate.level, contentHash: c.candidate.contentHash } : {}),
          ...(c.files ? { files: c.files } : {}),
          ...(c.diff ? { diff: diffView(c.diff) } : {}),
        });
      }
    }
    shown = next;
    return { items };
  };
  /** The check running now, if any: one at a time. */
  let updating: Promise<unknown> | undefined;
  /**
   * What a check's answer depends on: the workspace and both scopes' skills.lock.json as they are on disk. A catalog
   * change that leaves them alone (a local skill added, a skill turned off) is answered from the last check, without
   * a fetch; a new source-installed skill, an update or a removal changes a lock and checks again.
   */
  const lockKey = () =>
    JSON.stringify(
      [ctx.workspace().workspace, ...(['project', 'user'] as const).map((t) => lockPathFor(tierRootOf(ctx, t)))].map(
        (f, i) => (i === 0 ? f : existsSync(f) ? readFileSync(f, 'utf8') : ''),
      ),
    );
  let last: { key: string; answer: Promise<Awaited<ReturnType<typeof checkAll>>> } | undefined;

  return {
    'sources.open': async ({ source, want }) => {
      const ws = ctx.workspace();
      let o: OpenedSource;
      try {
        o = await openSource(parseSource(source, ws.workspace), {
          ...(want ? { want } : {}),
          dataDir: ctx.paths.dataDir,
          wall: wall(),
          onProgress: (stage, detail) => ctx.events.emit('sources.progress', { stage, detail }),
        });
      } catch (e) {
        return refused(e);
      }
      const id = randomBytes(8).toString('hex');
      opened.set(id, o);
      return {
        openId: id,
        display: o.display,
        kind: o.kind,
        skills: o.candidates.map((c) => ({
          name: c.name,
          description: c.description,
          level: c.level,
          findings: c.findings,
          contentHash: c.contentHash,
          ...(c.problem ? { problem: english(c.problem), problemWords: c.problem } : {}),
          ...(c.plugin ? { plugin: c.plugin } : {}),
        })),
        plugins: (o.marketplace?.plugins ?? []).map((p) => ({
          name: p.name,
          description: p.description,
          fetched: p.fetched,
          from: p.from,
        })),
      };
    },

    'sources.install': async ({ openId, skills, tier, replace }) => {
      const o = opened.get(openId);
      if (!o) throw new ServiceError('not_found', say('sources.notOpen', { id: openId }));
      const picked = skills.map((n) => {
        const c = o.candidates.find((x) => x.name === n);
        if (!c) throw new ServiceError('not_found', say('sources.noSkill', { source: o.display, name: n }));
        return c;
      });
      const store = ctx.store();
      const results = picked.map((c) =>
        installView(
          addCandidate(c, {
            tierRoot: tierRootOf(ctx, tier),
            tier,
            store,
            dataDir: ctx.paths.dataDir,
            ...(replace ? { replace: true } : {}),
          }),
        ),
      );
      if (results.some((r) => r.status === 'installed')) await ctx.workspace().catalog.refresh();
      return { results };
    },

    'sources.close': ({ openId }) => {
      drop(openId);
      return {};
    },

    'sources.updates': ({ refresh }) => {
      // The window asks whenever the catalog changes: the network is asked only when a lock changed, or when the user
      // (or the periodic check) says refresh. One check at a time.
      const key = lockKey();
      if (!refresh && last?.key === key) return last.answer;
      const run = (updating ?? Promise.resolve()).then(checkAll);
      const mine: Promise<unknown> = run.then(
        () => undefined,
        () => undefined,
      );
      updating = mine;
      void mine.then(() => {
        if (updating === mine) updating = undefined;
      });
      const entry = { key, answer: run };
      last = entry;
      // A check that failed is not kept: the next call tries again.
      run.catch(() => {
        if (last === entry) last = undefined;
      });
      return run;
    },

    'sources.applyUpdate': async ({ name, tier, contentHash }) => {
      // An Update clicked while a check runs is looked up once that check has finished, not refused as "not shown".
      while (updating) await updating;
      const reviewed = shown.get(`${tier}\0${name}`);
      if (reviewed === undefined) throw new ServiceError('not_found', say('sources.noUpdate', { name }));
      if (reviewed !== contentHash) throw new ServiceError('conflict', say('sources.otherUpdate', { name }));
      // Fetched again: what is installed is what hashes as the window showed it; a source changed since is refused.
      const tierRoot = tierRootOf(ctx, tier);
      let again;
      try {
        again = await checkUpdates(tierRoot, [name], {
          wall: wall(),
          cwd: ctx.workspace().workspace,
          onProgress: progress,
        });
      } catch (e) {
        return refused(e);
      }
      try {
        const c = again.checks[0];
        if (c?.status === 'error' && c.words) throw new ServiceError('refused', c.words, undefined, c.reason);
        if (c?.status !== 'available' || c.candidate?.contentHash !== contentHash)
          throw new ServiceError('conflict', say('sources.otherUpdate', { name }));
        // The click is the one confirmation a clean update takes; a widening or a finding is held for approval.
        const r = applyUpdate(c, { tierRoot, tier, store: ctx.store(), dataDir: ctx.paths.dataDir });
        if (r.status === 'installed') await ctx.workspace().catalog.refresh();
        return installView(r);
      } finally {
        await again.dispose();
      }
    },

    'sources.browse': async ({ query }) => {
      const ws = ctx.workspace();
      let markets;
      try {
        markets = listMarketplaces(ctx.paths.dataDir, ws.workspace);
      } catch (e) {
        return refused(e);
      }
      const entries = [];
      const contained = wall();
      for (const m of markets) {
        try {
          entries.push(
            ...(await marketplaceEntries(m.source, { dataDir: ctx.paths.dataDir, cwd: ws.workspace, wall: contained })),
          );
        } catch (e) {
          refused(e);
        }
      }
      return {
        hits: searchEntries(entries, query, 30).map((h) => ({
          marketplace: h.marketplace,
          marketplaceName: h.marketplaceName,
          plugin: h.plugin,
          ...(h.skill ? { skill: h.skill } : {}),
          description: h.description,
          ...(h.level ? { level: h.level } : {}),
        })),
      };
    },
  };
}
