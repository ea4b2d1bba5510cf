// The window: header (workspace, views, language), skills sidebar, the current view, loaded skills + context meter;
// dialogs (install, palette, shortcuts) and global shortcuts. No workspace yet → the open-workspace screen.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useClient } from './api/context';
import { Chat } from './components/Chat';
import { CommandPalette, ShortcutsList } from './components/CommandPalette';
import { COMMANDS, matchesKeys } from './components/commands';
import { ContextMeter } from './components/ContextMeter';
import { InstallDialog } from './components/InstallDialog';
import { LoadedSkills } from './components/LoadedSkills';
import { Sessions } from './components/Sessions';
import { Settings } from './components/Settings';
import { Sidebar } from './components/Sidebar';
import { StoreBanner } from './components/StoreBanner';
import { WatchBanner } from './components/WatchBanner';
import { SkillDetail } from './components/SkillDetail';
import { Tools } from './components/Tools';
import { TrustReview } from './components/TrustReview';
import { WorkspaceOpen } from './components/WorkspaceOpen';
import { SandboxBadge, SandboxBanner, useSandboxStatus } from './components/Sandbox';
import { Setup } from './components/Setup';
import { setLang } from './i18n';
import { settingsProblems, useView, type View } from './state/store';
import { useShallow } from 'zustand/react/shallow';
import { useChatStream } from './state/stream';
import { useHeldReturn } from './state/held-return';
import { useRestoreOpen } from './state/restore-open';
import { usePanels } from './state/panels';
import { useNotifications, useNotifyPermission } from './state/notify';
import { isSkillPackage } from './state/attach';
import { SaveSkillDialog, useSaveSkill } from './components/SaveSkill';
import { NoticesAt } from './components/Notices';

const NAV: { view: View; label: string }[] = [
  { view: 'chat', label: 'nav.chat' },
  { view: 'sessions', label: 'nav.sessions' },
  { view: 'tools', label: 'nav.tools' },
  { view: 'settings', label: 'nav.settings' },
];

function useShortcuts() {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const s = useView.getState();
      if (!s.workspace || s.picking || s.setup) return;
      for (const c of COMMANDS) {
        if (c.keys && matchesKeys(c.keys, e)) {
          e.preventDefault();
          c.run(s);
          return;
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/** Folds one side of the window away and back; its shortcut is announced with it. */
function FoldButton(p: { open: boolean; target: string; keys: string; label: string; glyph: string; onClick(): void }) {
  return (
    <button
      type="button"
      className="small fold"
      aria-expanded={p.open}
      aria-controls={p.target}
      aria-keyshortcuts={p.keys}
      title={p.label}
      onClick={p.onClick}
    >
      <span aria-hidden="true">{p.glyph}</span>
      <span className="sr-only">{p.label}</span>
    </button>
  );
}

export function App() {
  const { t, i18n } = useTranslation();
  const client = useClient();
  // Only what this component shows: a streamed delta must not re-render the rest of the window.
  const { workspace, picking, setup, view, installOpen, paletteOpen, shortcutsOpen, trustReview } = useView(
    useShallow((s) => ({
      workspace: s.workspace,
      picking: s.picking,
      setup: s.setup,
      view: s.view,
      installOpen: s.installOpen,
      paletteOpen: s.paletteOpen,
      shortcutsOpen: s.shortcutsOpen,
      trustReview: s.trustReview,
    })),
  );
  const set = useView((s) => s.set);
  const { sidebar, panels, toggle } = usePanels();
  const savingSkill = useSaveSkill((s) => s.sessionId);
  useChatStream(client);
  useNotifications(client);
  const [notify, askNotify] = useNotifyPermission();
  useHeldReturn(client);
  useRestoreOpen(client);
  useShortcuts();
  useSandboxStatus();

  useEffect(() => {
    document.title = workspace ? `${workspace.name} — ${t('app.name')}` : t('app.name');
  }, [workspace, t]);

  // The open folder's info as the engine has it now (a settings file edited by hand changes its settings problems, a
  // skill folder watched again its watch warning): taken in place, in every view, without reopening anything. Another
  // folder's news is not this window's.
  useEffect(
    () =>
      client.on('workspace.changed', ({ workspace: w }) => {
        const cur = useView.getState().workspace;
        if (
          cur &&
          cur.path === w.path &&
          (cur.name !== w.name ||
            JSON.stringify(cur.diagnostics) !== JSON.stringify(w.diagnostics) ||
            JSON.stringify(cur.store) !== JSON.stringify(w.store))
        )
          set({ workspace: w });
      }),
    [client, set],
  );

  // The picker and the setup flow over an open workspace keep the workspace's screens mounted (hidden): a draft in the
  // message box, a send that fails meanwhile (its text goes back into that box) and every view's state are there on
  // Back. Another folder gets screens of its own (keyed by its path): nothing typed for one folder is sent to another.
  // The setup flow keeps its place (first child) while its folder step opens a folder, so its step is not lost.
  return (
    <>
      <NoticesAt place="page" />
      {setup && <Setup />}
      {!setup && (!workspace || picking) && <WorkspaceOpen />}
      {workspace && (
        <div
          className={`app${sidebar ? '' : ' no-sidebar'}${panels ? '' : ' no-panels'}`}
          key={workspace.path}
          hidden={picking || !!setup}
          onDragOver={(e) => {
            if (e.dataTransfer.types.includes('Files')) e.preventDefault();
          }}
          onDrop={(e) => {
            // A skill .zip (or a folder) dropped anywhere on the window opens the install dialog with it (audited before
            // anything else); other files go into the chat, as if dropped on it (the chat attaches them).
            const files = [...e.dataTransfer.files];
            const file = files[0];
            if (!file) return;
            e.preventDefault();
            const folder = [...e.dataTransfer.items].some((i) => i.webkitGetAsEntry?.()?.isDirectory);
            if (folder || files.some(isSkillPackage)) set({ installOpen: true, installFile: file });
            else set({ view: 'chat', dropped: files });
          }}
        >
          <header className="topbar">
            <FoldButton
              open={sidebar}
              target="skills-sidebar"
              keys="Control+B"
              label={t('panels.sidebar')}
              glyph="◧"
              onClick={() => toggle('sidebar')}
            />
            <button
              type="button"
              className="ws-name"
              onClick={() => set({ picking: true })}
              title={workspace.path}
              aria-label={t('workspace.switch', { name: workspace.name })}
            >
              {workspace.name}
            </button>
            {settingsProblems(workspace) > 0 && (
              <button type="button" className="small badge warn" onClick={() => set({ view: 'settings' })}>
                {t('workspace.problems', { count: settingsProblems(workspace) })}
              </button>
            )}
            <nav aria-label={t('nav.label')} className="tabs">
              {NAV.map((n) => (
                <button
                  key={n.view}
                  type="button"
                  aria-current={view === n.view ? 'page' : undefined}
                  onClick={() => set({ view: n.view })}
                >
                  {t(n.label)}
                </button>
              ))}
            </nav>
            <span className="spacer" />
            <SandboxBadge />
            {client.mode === 'serve' && notify === 'default' && (
              <button type="button" className="small" onClick={askNotify} title={t('notify.askHint')}>
                {t('notify.ask')}
              </button>
            )}
            <button
              type="button"
              className="small"
              onClick={() => set({ paletteOpen: true })}
              aria-keyshortcuts="Control+K"
            >
              {t('cmd.palette')} <kbd>Ctrl K</kbd>
            </button>
            <button
              type="button"
              className="small"
              onClick={() => setLang(i18n.language === 'zh' ? 'en' : 'zh')}
              aria-label={t('nav.switchLang')}
            >
              {i18n.language === 'zh' ? 'EN' : '中文'}
            </button>
            <FoldButton
              open={panels}
              target="side-panels"
              keys="Control+Shift+B"
              label={t('panels.right')}
              glyph="◨"
              onClick={() => toggle('panels')}
            />
          </header>
          <div className="banners">
            {workspace.store && <StoreBanner store={workspace.store} />}
            <SandboxBanner />
            <WatchBanner workspace={workspace} />
          </div>
          <div className="sidebar-wrap" id="skills-sidebar" hidden={!sidebar}>
            <Sidebar />
          </div>
          <main className="main">
            {view === 'chat' && <Chat />}
            {view === 'skill' && <SkillDetail />}
            {view === 'tools' && <Tools />}
            {view === 'sessions' && <Sessions />}
            {view === 'settings' && <Settings />}
          </main>
          <NoticesAt place="column" />
          <aside className="side-panels" id="side-panels" hidden={!panels} aria-label={t('panels.label')}>
            <LoadedSkills />
            <ContextMeter />
          </aside>
          {installOpen && <InstallDialog />}
          {trustReview && <TrustReview key={`${trustReview.tier}:${trustReview.name}`} {...trustReview} />}
          {savingSkill && <SaveSkillDialog key={savingSkill} sessionId={savingSkill} />}
          {paletteOpen && <CommandPalette />}
          {shortcutsOpen && <ShortcutsList />}
        </div>
      )}
    </>
  );
}
