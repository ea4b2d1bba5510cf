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
import { addCandidate, dropCandidate, holdCandidate, type Candidate } from '../skills/sources/index.js';
import { lockPathFor, readLock, type LockEntry } from '../skills/sources/index.js';
import { listMarketplaces, marketplaceEntries, searchEntries } from '../skills/sources/index.js';
import { openSource, type FetchOptions, type OpenedSource } from '../skills/sources/index.js';
import { parseSource, SourceError } from '../skills/sources/index.js';
import { checkUpdates } from '../skills/sources/index.js';
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
   * Each update the last check showed (`tierRoot\0name`), as a copy of its folder held in <data>/fetched. A check keeps
   * no clone, only these copies: Update installs the copy, without fetching again, when it still hashes as shown, so
   * what is installed is what was reviewed, whatever the source holds by then.
   */
  let shown = new Map<string, Candidate>();
  const dataDir = ctx.paths.dataDir;
  const drop = (id: string) => {
    opened.get(id)?.dispose();
    opened.delete(id);
  };
  /** Drop the held copies of `updates` that `keep` does not hold too. */
  const dropShown = (updates: Map<string, Candidate>, keep?: Map<string, Candidate>) => {
    for (const [key, c] of updates) if (keep?.get(key)?.dir !== c.dir) dropCandidate(c, dataDir);
  };
  atClose(async () => {
    for (const id of [...opened.keys()]) drop(id);
    dropShown(shown);
    shown = new Map();
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

  /**
   * Check every source-installed skill of both tiers for a newer version (what the Updates dialog shows). The project
   * tier's lock comes with the folder: its sources on this computer or its network are asked only when the user asks.
   */
  const checkAll = async (asked: boolean) => {
    const items = [];
    const next = new Map<string, Candidate>();
    for (const tier of ['project', 'user'] as const) {
      const tierRoot = tierRootOf(ctx, tier);
      let result;
      try {
        result = await checkUpdates(tierRoot, undefined, {
          wall: wall(),
          cwd: ctx.workspace().workspace,
          onProgress: progress,
          skipLocal: tier === 'project' && !asked,
        });
      } catch (e) {
        dropShown(next, shown);
        return refused(e);
      }
      try {
        // What the window is shown is read from the clones now; they are not kept until the next check, only a copy
        // of each update's folder (the copy held before, when it holds the same content).
        for (const c of result.checks) {
          if (!c.candidate) continue;
          const key = `${tierRoot}\0${c.name}`;
          const before = shown.get(key);
          next.set(
            key,
            before?.contentHash === c.candidate.contentHash && existsSync(before.dir)
              ? { ...c.candidate, dir: before.dir }
              : holdCandidate(c.candidate, dataDir),
          );
        }
      } catch (e) {
        dropShown(next, shown);
        throw e;
      } finally {
        await result.dispose();
      }
      for (const c of result.checks) {
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
    dropShown(shown, next);
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

    'sources.updates': ({ refresh, asked }) => {
      // The window asks whenever the catalog changes: the network is asked only when a lock changed, or when the user
      // (or the periodic check) says refresh. One check at a time.
      const key = lockKey();
      if (!refresh && !asked && last?.key === key) return last.answer;
      const run = (updating ?? Promise.resolve()).then(() => checkAll(asked === true));
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
      const tierRoot = tierRootOf(ctx, tier);
      const key = `${tierRoot}\0${name}`;
      const c = shown.get(key);
      if (c === undefined) throw new ServiceError('not_found', say('sources.noUpdate', { name }));
      if (c.contentHash !== contentHash) throw new ServiceError('conflict', say('sources.otherUpdate', { name }));
      // Not fetched again: the copy the check held is installed, and only while it still hashes as shown (addCandidate).
      if (!existsSync(c.dir)) {
        shown.delete(key);
        throw new ServiceError('conflict', say('sources.updateGone', { name }));
      }
      let r;
      try {
        // The click is the one confirmation a clean update takes; a widening or a finding is held for approval, as a
        // copy of its own.
        r = addCandidate(c, { tierRoot, tier, store: ctx.store(), dataDir, replace: true });
      } finally {
        shown.delete(key);
        dropCandidate(c, dataDir);
      }
      if (r.status === 'installed') await ctx.workspace().catalog.refresh();
      return installView(r);
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
