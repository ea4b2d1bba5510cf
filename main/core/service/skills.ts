// Contract handlers for skills: list (tiers, shadowing, diagnostics, audit state), show, toggle, trust one/all bound
// to the content hash, install from a folder or .zip (a path, or a dropped zip's bytes) → audit report → approve/reject, lint.
import { resolve } from 'node:path';
import type { MethodOutput } from '../../../preload/contract.js';
import type { Handlers } from './dispatch.js';
import { ServiceError, sharedAnswer } from './dispatch.js';
import type { ServiceContext } from './context.js';
import { auditOf, installView, pendingView, reportView, shadowedByFile, skillView, permissionsView } from './views.js';
import { english, fsWords, say } from '../base/index.js';
import { readSkillBody } from '../skills/format/index.js';
import { listSkillFiles } from '../skills/trust/index.js';
import { trustSkill } from '../skills/trust/index.js';
import { applyBulkTrust, reviewBulkTrust } from '../skills/trust/index.js';
import { approvePendingInstall, installSkill, toPending } from '../skills/trust/index.js';
import { lintCatalog, lintPaths } from '../skills/catalog/index.js';
import { projectSkillDirs, userSkillDirs } from '../config/index.js';
import type { CatalogEntry } from '../skills/format/index.js';
import { saveUpload } from './uploads.js';
import { withAgentCreated } from '../skills/use/index.js';
import { settleStaged } from '../skills/sources/index.js';
import {
  auditDraft,
  dropHeld,
  heldSourceProblem,
  rejectHeldInstall,
  settleHeld,
  stageDraft,
} from '../skills/trust/index.js';
import { originOf } from './sources.js';

type SkillHandlers = Pick<
  Handlers,
  | 'skills.list'
  | 'skills.show'
  | 'skills.setEnabled'
  | 'skills.trust'
  | 'skills.trustAll'
  | 'skills.install'
  | 'skills.pendingInstalls'
  | 'skills.approveInstall'
  | 'skills.rejectInstall'
  | 'skills.installUpload'
  | 'skills.lint'
  | 'skills.checkDraft'
  | 'skills.installDraft'
>;

function originField(ctx: ServiceContext, name: string, tier: string) {
  const o = originOf(ctx, name, tier);
  if (!o) return {};
  const { contentHash: _hash, ...origin } = o;
  return { origin };
}

export function skillHandlers(ctx: ServiceContext): SkillHandlers {
  const entry = (name: string): CatalogEntry => {
    const e = ctx.workspace().catalog.get(name);
    if (!e) throw new ServiceError('not_found', say('trust.notFound', { name }), { name });
    return e;
  };
  const view = (e: CatalogEntry) => {
    const ws = ctx.workspace();
    return skillView(e, ws.catalog.entries(), auditOf(e, ws.trust), ws.store);
  };
  const install = async (source: string, tier: 'user' | 'project', replace: boolean, shownAs = source) => {
    const ws = ctx.workspace();
    const store = ctx.store();
    const tierRoot =
      tier === 'user' ? userSkillDirs(ws.paths.home).workbuddy : projectSkillDirs(ws.workspace).workbuddy;
    let r;
    try {
      r = installSkill({ source, tierRoot, tier, store, replace });
    } catch (e) {
      dropHeld(ctx.paths.dataDir, source);
      throw new ServiceError('refused', say('install.failed', { source: shownAs, error: fsWords(e) }));
    }
    // An upload or a draft is kept only while its own approval waits for it (held.ts).
    settleHeld(ctx.paths.dataDir, source, r);
    if (r.status === 'installed') await ws.catalog.refresh();
    return installView(r);
  };
  const refreshed = async (name: string) => {
    await ctx.workspace().catalog.refresh();
    return view(entry(name));
  };

  // skills.list is computed once per version of what it shows (the workspace, its catalog's version, the stored trust
  // decisions) and shared by every call until one moves: thousands of skills make it the heaviest answer there is.
  let listed: { key: unknown[]; value: MethodOutput<'skills.list'> } | undefined;
  const list = () => {
    const ws = ctx.workspace();
    const key = [ws, ws.catalog.version, ws.store?.policy.trustStamp()];
    if (listed && listed.key.every((k, i) => k === key[i])) return listed.value;
    const all = ws.catalog.entries();
    const shadowed = shadowedByFile(all);
    const value = sharedAnswer({
      skills: all.map((e) => skillView(e, all, auditOf(e, ws.trust), ws.store, shadowed)),
      broken: ws.catalog.broken().map((b) => ({ tier: b.tier, dir: b.dir, file: b.file, diagnostics: b.diagnostics })),
      diagnostics: ws.catalog.discoveryDiagnostics(),
    });
    listed = { key, value };
    return value;
  };

  return {
    'skills.list': list,

    'skills.show': ({ name }) => {
      const e = entry(name);
      const ws = ctx.workspace();
      const report = auditOf(e, ws.trust);
      let body: string;
      try {
        body = readSkillBody(e.file);
      } catch (err) {
        // The CLI prints the reader's own message; the window says an errno in its language.
        const words = say('skill.cannotRead', { file: e.file, error: fsWords(err) });
        throw new ServiceError('not_found', words, { file: e.file }, (err as Error).message);
      }
      let resources: string[] = [];
      try {
        resources = listSkillFiles(e.realDir)
          .files.filter((f) => !f.special)
          .map((f) => f.rel);
      } catch {
        // an unreadable folder lists nothing; the body above was readable
      }
      return {
        ...skillView(e, ws.catalog.entries(), report, ws.store),
        body,
        resources,
        readWhen: e.manifest.readWhen,
        dependsOn: e.manifest.dependsOn,
        allowedTools: e.manifest.allowedTools,
        ...(report?.permissions ? { permissions: permissionsView(report.permissions) } : {}),
        ...(report ? { report: reportView(report) } : {}),
        ...originField(ctx, e.manifest.name, e.tier),
      };
    },

    'skills.setEnabled': async ({ name, enabled }) => {
      const e = entry(name);
      ctx.workspace().catalog.setEnabled(e.manifest.name, enabled);
      return refreshed(e.manifest.name);
    },

    'skills.trust': async ({ name, contentHash }) => {
      const e = entry(name);
      const store = ctx.store();
      if (e.tier === 'builtin') return view(e);
      const before = auditOf(e, ctx.workspace().trust);
      if (before && before.contentHash !== contentHash) {
        throw new ServiceError(
          'conflict',
          say('trust.changedSinceShown', {
            name,
            from: contentHash.slice(0, 12),
            to: before.contentHash.slice(0, 12),
          }),
          { contentHash: before.contentHash },
        );
      }
      // trustSkill audits again and binds trust to what it hashed now: refuse if that is not what the user saw.
      const r = trustSkill(e.realDir, store, e.manifest);
      if (!r.ok) throw new ServiceError('refused', r.words, r.report ? { report: reportView(r.report) } : undefined);
      if (r.report.contentHash !== contentHash) {
        store.policy.setTrust(r.report.skill, r.report.contentHash, 'distrusted');
        throw new ServiceError('conflict', say('trust.changedWhileTrusting', { name }), {
          contentHash: r.report.contentHash,
        });
      }
      return refreshed(e.manifest.name);
    },

    'skills.trustAll': async ({ dryRun }) => {
      // The core's bulk review (skills held for trust, P0 refused) and bulk trust at the reviewed content hashes.
      const ws = ctx.workspace();
      const store = ctx.store();
      const review = reviewBulkTrust(ws.catalog.entries(), store);
      const refused = review.refused.map((r) => ({ name: r.name, reason: r.reason, words: r.words }));
      let trusted = review.candidates.map((c) => c.name);
      if (!dryRun) {
        const r = applyBulkTrust(review, store);
        trusted = r.trusted.map((t) => t.name);
        refused.push(...r.skipped.map((x) => ({ name: x.name, reason: x.reason, words: x.words })));
        if (trusted.length) await ws.catalog.refresh();
      }
      const done = say(dryRun ? 'trustAllWould' : 'trustAll', {
        skills: say(trusted.length === 1 ? 'skillCountOne' : 'skillCountMany', { n: trusted.length }),
      });
      const summaryWords =
        trusted.length === 0 && refused.length === 0
          ? say('trustAllNothing')
          : refused.length
            ? say('trustAllRefused', { done, refused: refused.length })
            : done;
      const summary = english(summaryWords);
      const groups = review.groups.map((g) => ({
        rule: g.rule,
        message: g.message,
        words: g.words,
        count: g.count,
        skills: [...g.skills],
      }));
      const w = review.widest;
      const widest = {
        tools: [...w.tools],
        anyCommand: [...w.anyCommand],
        network: w.network,
        read: [...w.read],
        write: [...w.write],
        undeclared: w.undeclared,
      };
      return { trusted, refused, summary, summaryWords, groups, widest };
    },

    'skills.install': ({ source, tier, replace }) => {
      // A path the renderer names is never a copy another install holds (held.ts).
      const held = heldSourceProblem(ctx.paths.dataDir, source);
      if (held) throw new ServiceError('refused', held);
      return install(source, tier, replace);
    },

    'skills.installUpload': async ({ filename, data, tier, replace }) => {
      ctx.workspace();
      // The zip is kept only while its install waits for approval.
      return install(saveUpload(ctx.paths.dataDir, filename, data), tier, replace, filename);
    },

    'skills.checkDraft': ({ text }) => {
      ctx.workspace();
      return { report: reportView(auditDraft(ctx.paths.dataDir, text)) };
    },

    'skills.installDraft': async ({ text, tier, replace }) => {
      ctx.workspace();
      // The staged draft is kept only while its install waits for approval.
      return install(stageDraft(ctx.paths.dataDir, withAgentCreated(text)), tier, replace, 'the draft');
    },

    'skills.pendingInstalls': () => {
      const removed = ctx.workspace().heldRemoved;
      return {
        items: ctx
          .store()
          .policy.approvals('pending')
          .filter((a) => a.kind !== 'discovered')
          .map((a) => pendingView(toPending(a))),
        ...(removed.length ? { removed: [...removed] } : {}),
      };
    },

    'skills.approveInstall': async ({ approvalId, contentHash }) => {
      const store = ctx.store();
      const row = store.policy.approval(approvalId);
      if (!row) throw new ServiceError('not_found', say('install.noApproval', { id: approvalId }));
      if (row.contentHash !== contentHash) {
        throw new ServiceError(
          'conflict',
          say('install.otherContent', {
            id: approvalId,
            stored: row.contentHash.slice(0, 12),
            shown: contentHash.slice(0, 12),
          }),
        );
      }
      const r = approvePendingInstall(store, approvalId);
      // A skill fetched from a source is recorded in the lock once installed; the held copy is dropped once decided.
      settleStaged(ctx.paths.dataDir, row.source, r);
      if (r.status === 'installed') await ctx.workspace().catalog.refresh();
      return installView(r);
    },

    'skills.rejectInstall': ({ approvalId }) => {
      // The one reject of the CLI and the window: the approval is decided and its copy (or old draft) removed.
      const r = rejectHeldInstall(ctx.store(), ctx.paths.dataDir, approvalId);
      if (r.status === 'missing') throw new ServiceError('not_found', say('install.noApproval', { id: approvalId }));
      if (r.status === 'decided')
        throw new ServiceError('conflict', say('install.approvalIs', { id: approvalId, status: r.row.status }));
      return { status: 'rejected' as const, skill: r.row.skill, approvalId, reason: 'rejected by the user' };
    },

    'skills.lint': ({ paths }) => {
      const ws = ctx.workspace();
      const report = paths?.length
        ? lintPaths(
            paths.map((p) => resolve(ws.workspace, p)),
            { settings: ws.settings },
          )
        : lintCatalog(ws.catalog, { settings: ws.settings });
      return {
        skills: report.skills.map((s) => ({
          ...(s.name ? { name: s.name } : {}),
          file: s.file,
          diagnostics: s.diagnostics,
        })),
        errors: report.errors,
        warnings: report.warnings,
      };
    },
  };
}
