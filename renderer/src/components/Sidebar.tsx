// The skills sidebar: filter box, install and trust-all actions, and the virtualized list grouped by tier.
// Toggles and trust go to the main process; the list refreshes from it (catalog.changed or after each action).
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import i18n from 'i18next';
import { useTranslation } from 'react-i18next';
import { observeElementRect, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { useClient } from '../api/context';
import { failure } from '../i18n/ErrorText';
import { auditLevel, waitsForTrust, type SkillRowData } from '../state/skills';
import { useView } from '../state/store';
import { useShallow } from 'zustand/react/shallow';
import { groupRows } from './filter';
import { LevelLegend } from './Levels';
import { BrokenGroup } from './BrokenGroup';
import { hasBadges, SkillRow } from './SkillRow';
import { TrustAllDialog } from './TrustAllDialog';
import { UpdatesBadge } from './SkillUpdates';
import { PendingBadge } from './PendingInstalls';
import { ErrorLine } from './DialogFooter';

/** Row heights (px), fixed per kind of row: no per-row measuring, so 2,000 rows cost nothing until shown. */
const HEADER_H = 30;
const ROW_H = 62;
/** A row without a badge line (name and description only). */
const PLAIN_H = 44;
/** Least time between two reads of the skill list while catalog events keep arriving. */
const REFRESH_GAP_MS = 400;

/** Before layout (or in a DOM without layout) assume a typical window height instead of rendering nothing. */
function observeRect(
  instance: Virtualizer<HTMLDivElement, Element>,
  cb: (r: { width: number; height: number }) => void,
) {
  return observeElementRect(instance, (r) => cb(r.height > 0 ? r : { width: r.width || 300, height: 800 }));
}

export function Sidebar() {
  const { t } = useTranslation();
  const client = useClient();
  // Only what this component shows: a streamed delta must not re-render the rest of the window.
  const { workspace, skills, broken, skillsError, skillsLoading, filter, selectedSkill, catalogTick } = useView(
    useShallow((s) => ({
      workspace: s.workspace,
      skills: s.skills,
      broken: s.broken,
      skillsError: s.skillsError,
      skillsLoading: s.skillsLoading,
      filter: s.filter,
      selectedSkill: s.selectedSkill,
      catalogTick: s.catalogTick,
    })),
  );
  const set = useView((s) => s.set);
  const patchSkill = useView((s) => s.patchSkill);
  const notify = useView((s) => s.notify);
  const [trustAllOpen, setTrustAllOpen] = useState(false);
  const deferred = useDeferredValue(filter);
  const rows = useMemo(() => groupRows(skills, deferred), [skills, deferred]);
  const parentRef = useRef<HTMLDivElement>(null);
  const ws = workspace?.path ?? '';

  // Catalog events come in bursts (a background audit of 2,000 skills reports skill by skill): one list read at a
  // time, and one more after it for everything that arrived meanwhile, spaced so a streaming answer keeps its frames.
  const reading = useRef({ running: false, again: false });
  const refresh = useCallback(async () => {
    if (!ws) return;
    const r = reading.current;
    if (r.running) {
      r.again = true;
      return;
    }
    r.running = true;
    try {
      do {
        r.again = false;
        try {
          const r = await client.call('skills.list', {});
          useView.getState().setSkills(r.skills, r.broken);
        } catch (e) {
          set({ skillsError: failure(e), skillsLoading: false });
        }
        if (r.again) await new Promise((done) => setTimeout(done, REFRESH_GAP_MS));
      } while (r.again);
    } finally {
      r.running = false;
    }
  }, [client, ws, set]);

  useEffect(() => {
    if (catalogTick) void refresh();
  }, [catalogTick, refresh]);

  useEffect(() => {
    set({ skillsLoading: true });
    void refresh();
    // Only added or removed skills need the whole list; a changed one is followed by its verdict with its row.
    const offList = client.on('catalog.changed', (e) => {
      if ((e.added.length || e.removed.length || e.changed.length === 0) && e.workspace === ws) void refresh();
    });
    // A verdict patches its row; one without a row (or for a row not shown) is the open folder's list to read again.
    const offRow = client.on('audit.verdict', (e) => {
      if (!e.skill || !useView.getState().replaceSkill(e.skill)) void refresh();
    });
    return () => {
      offList();
      offRow();
    };
  }, [client, ws, refresh, set]);

  // A key per row that changes with the rows: the virtualizer lays out again (a row's height depends on its badges).
  const rowKey = useCallback(
    (i: number) => {
      const row = rows[i];
      return !row || row.kind === 'header' ? i : `${i}:${row.skill.tier}:${row.skill.name}`;
    },
    [rows],
  );
  const virtualizer = useVirtualizer({
    count: rows.length,
    getItemKey: rowKey,
    getScrollElement: () => parentRef.current,
    estimateSize: (i) => {
      const row = rows[i];
      return row?.kind === 'header' ? HEADER_H : row && !hasBadges(row.skill) ? PLAIN_H : ROW_H;
    },
    overscan: 8,
    observeElementRect: observeRect,
    initialRect: { width: 300, height: 800 },
  });

  const onSelect = useCallback(
    (s: SkillRowData) => set({ selectedSkill: { name: s.name, tier: s.tier }, view: 'skill' }),
    [set],
  );
  const onToggle = useCallback(
    async (s: SkillRowData, enabled: boolean) => {
      // A switch that cannot turn on says why instead of doing nothing: a blocked skill never runs; an untrusted one
      // is reviewed first (the review, never the switch, trusts it).
      if (enabled && auditLevel(s) === 'P0') {
        notify({ kind: 'error', text: () => i18n.t('skills.whyBlocked', { name: s.name }) });
        return;
      }
      if (enabled && waitsForTrust(s)) {
        notify({ kind: 'info', text: () => i18n.t('skills.whyUntrusted', { name: s.name }) });
        set({ trustReview: { name: s.name, tier: s.tier } });
        return;
      }
      const run = async (): Promise<void> => {
        patchSkill(s.name, s.tier, { enabled });
        try {
          await client.call('skills.setEnabled', { name: s.name, enabled });
        } catch (e) {
          patchSkill(s.name, s.tier, { enabled: !enabled });
          const text = failure(e, enabled ? 'skills.enableFailed' : 'skills.disableFailed', { name: s.name });
          notify({ kind: 'error', text, retry: () => void run() });
        }
        void refresh();
      };
      await run();
    },
    [client, ws, patchSkill, refresh, set, notify],
  );
  const onTrust = useCallback((s: SkillRowData) => set({ trustReview: { name: s.name, tier: s.tier } }), [set]);

  const pending = skills.some(waitsForTrust);
  const shown = rows.filter((r) => r.kind === 'skill').length;

  return (
    <nav className="sidebar" aria-label={t('skills.title')}>
      <div className="sidebar-head">
        <h2>{t('skills.title')}</h2>
        <button type="button" className="primary small" onClick={() => set({ installOpen: true })}>
          {t('install.button')}
        </button>
      </div>
      <input
        id="skill-filter"
        type="search"
        className="filter"
        value={filter}
        placeholder={t('skills.filterHint')}
        aria-label={t('skills.filter')}
        onChange={(e) => set({ filter: e.target.value })}
      />
      <div className="sidebar-meta">
        <span role="status">{t('skills.count', { shown, total: skills.length })}</span>
        {pending && (
          <button type="button" className="link" onClick={() => setTrustAllOpen(true)}>
            {t('skills.trustAll')}
          </button>
        )}
        <UpdatesBadge />
        <PendingBadge />
      </div>
      <LevelLegend />
      {broken.length > 0 && (
        <BrokenGroup
          broken={broken}
          show={client.nativeDialogs ? (file) => client.call('dialog.showSkillFile', { file }) : undefined}
        />
      )}
      <ErrorLine error={skillsError} />
      {!skillsError && skillsLoading && skills.length === 0 && <p className="muted">{t('common.loading')}</p>}
      {!skillsError && !skillsLoading && skills.length === 0 && <p className="muted">{t('skills.empty')}</p>}
      {skills.length > 0 && shown === 0 && <p className="muted">{t('skills.noMatch')}</p>}
      <div ref={parentRef} className="skill-list" role="list" aria-label={t('skills.list')} data-filter={deferred}>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((v) => {
            const row = rows[v.index]!;
            return (
              <div
                key={v.key}
                role="listitem"
                data-index={v.index}
                style={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  right: 0,
                  height: v.size,
                  transform: `translateY(${v.start}px)`,
                }}
              >
                {row.kind === 'header' ? (
                  <h3 className="tier-header">
                    {t(`tier.${row.tier}`)} <span className="muted">({row.count})</span>
                  </h3>
                ) : (
                  <SkillRow
                    skill={row.skill}
                    selected={selectedSkill?.name === row.skill.name && selectedSkill.tier === row.skill.tier}
                    onSelect={onSelect}
                    onToggle={onToggle}
                    onTrust={onTrust}
                  />
                )}
              </div>
            );
          })}
        </div>
      </div>
      {trustAllOpen && (
        <TrustAllDialog
          onClose={() => {
            setTrustAllOpen(false);
            void refresh();
          }}
        />
      )}
    </nav>
  );
}
