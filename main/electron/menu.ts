// The native menu as plain data (en/zh), free of Electron: main.ts turns it into a Menu. Roles give the platform's
// own behaviour (copy, paste, quit); `command` items call back into main (open a workspace, install a skill).
export type MenuLanguage = 'en' | 'zh';

export type MenuCommand = 'open-workspace' | 'install-skill-folder' | 'install-skill-zip' | 'reload-skills';

export interface MenuItemSpec {
  label?: string;
  role?:
    | 'appMenu'
    | 'about'
    | 'quit'
    | 'undo'
    | 'redo'
    | 'cut'
    | 'copy'
    | 'paste'
    | 'selectAll'
    | 'minimize'
    | 'close'
    | 'togglefullscreen'
    | 'resetZoom'
    | 'zoomIn'
    | 'zoomOut'
    | 'hide'
    | 'hideOthers'
    | 'unhide'
    | 'services';
  type?: 'separator';
  accelerator?: string;
  command?: MenuCommand;
  submenu?: MenuItemSpec[];
}

const TEXT: Record<MenuLanguage, Record<string, string>> = {
  en: {
    file: 'File',
    openWorkspace: 'Open Workspace…',
    installFolder: 'Install Skill from Folder…',
    installZip: 'Install Skill from .zip…',
    reload: 'Reload Skills',
    edit: 'Edit',
    view: 'View',
    window: 'Window',
    quit: 'Quit Knack',
  },
  zh: {
    file: '文件',
    openWorkspace: '打开工作区…',
    installFolder: '从文件夹安装技能…',
    installZip: '从 .zip 安装技能…',
    reload: '重新加载技能',
    edit: '编辑',
    view: '视图',
    window: '窗口',
    quit: '退出 Knack',
  },
};

/** The UI language from the OS locale: Chinese for zh-*, English otherwise. */
export function menuLanguage(locale: string): MenuLanguage {
  return /^zh\b/i.test(locale) ? 'zh' : 'en';
}

export function menuTemplate(lang: MenuLanguage, platform: NodeJS.Platform): MenuItemSpec[] {
  const t = TEXT[lang];
  const mac = platform === 'darwin';
  const file: MenuItemSpec = {
    label: t.file,
    submenu: [
      { label: t.openWorkspace, accelerator: 'CmdOrCtrl+O', command: 'open-workspace' },
      { type: 'separator' },
      { label: t.installFolder, command: 'install-skill-folder' },
      { label: t.installZip, command: 'install-skill-zip' },
      { label: t.reload, accelerator: 'CmdOrCtrl+Shift+R', command: 'reload-skills' },
      ...(mac ? [] : [{ type: 'separator' as const }, { label: t.quit, role: 'quit' as const }]),
    ],
  };
  const edit: MenuItemSpec = {
    label: t.edit,
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { role: 'selectAll' },
    ],
  };
  // No reload / devtools items: a packaged app has no use for them and they are an attack surface.
  const view: MenuItemSpec = {
    label: t.view,
    submenu: [
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };
  const win: MenuItemSpec = { label: t.window, submenu: [{ role: 'minimize' }, { role: 'close' }] };
  return mac ? [{ role: 'appMenu' }, file, edit, view, win] : [file, edit, view, win];
}
