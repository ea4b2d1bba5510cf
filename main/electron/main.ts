// Electron main: thin glue binding the service (main/core/service) to one hardened window. Every decision (CSP,
// navigation, links, senders, app:// paths, menus, key storage) lives in Electron-free modules beside this file.
import {
  BrowserWindow,
  Menu,
  Notification,
  app,
  dialog,
  ipcMain,
  protocol,
  safeStorage,
  session,
  shell,
  type IpcMainInvokeEvent,
  type WebContents,
} from 'electron';
import { readFile, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { IPC_EVENT_CHANNEL, IPC_PREFIX, METHOD_NAMES, contractError } from '../../preload/contract.js';
import { dispatch } from '../core/service/index.js';
import { KnackService } from '../core/service/index.js';
import { resolvePaths } from '../core/config/index.js';
import {
  APP_ORIGIN,
  APP_SCHEME,
  allowNavigation,
  appFileFor,
  contentSecurityPolicy,
  contentTypeFor,
  openableExternalUrl,
  securityHeaders,
  senderProblem,
} from './security.js';
import { menuLanguage, menuTemplate, type MenuCommand, type MenuItemSpec } from './menu.js';
import { notificationOf } from './notify.js';
import { safeKeyStore } from './key-store.js';
import { utilityProcessHost } from './sandbox-host.js';
import { windowIconPath } from './app-icon.js';

// Must run before `ready`: app:// behaves like a secure, standard origin (fetch, relative URLs), never like file://.
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

const appRoot = app.getAppPath();
const rendererDir = resolve(appRoot, 'dist', 'renderer');
const preloadFile = join(appRoot, 'dist', 'preload', 'index.cjs');
const builtinSkillsDir = app.isPackaged
  ? join(process.resourcesPath, 'builtin-skills')
  : join(appRoot, 'builtin-skills');
const CSP = contentSecurityPolicy();

const appWindows = new Set<number>();
let service: KnackService | undefined;
let mainWindow: BrowserWindow | undefined;

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (mainWindow) {
      if (mainWindow.isMinimized()) mainWindow.restore();
      mainWindow.focus();
    }
  });
  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', () => void service?.close());
  // Whatever creates web contents (a window, a webview a bug let in): no navigation away, no new windows, no webviews.
  app.on('web-contents-created', (_e, contents) => harden(contents));
  void app.whenReady().then(start);
}

function harden(contents: WebContents): void {
  contents.on('will-navigate', (event, url) => {
    if (!allowNavigation(url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!allowNavigation(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const safe = openableExternalUrl(url);
    if (safe !== null) void shell.openExternal(safe);
    return { action: 'deny' };
  });
}

async function serveAppFile(request: Request): Promise<Response> {
  const target = appFileFor(request.url);
  const headers = securityHeaders(CSP);
  if ('problem' in target) return new Response('not found', { status: 404, headers });
  const file = join(rendererDir, ...target.rel.split('/'));
  if (!file.startsWith(rendererDir + sep)) return new Response('not found', { status: 404, headers });
  try {
    if (!(await stat(file)).isFile()) return new Response('not found', { status: 404, headers });
    return new Response(await readFile(file), {
      status: 200,
      headers: { ...headers, 'Content-Type': contentTypeFor(target.rel) },
    });
  } catch {
    return new Response('not found', { status: 404, headers });
  }
}

async function start(): Promise<void> {
  const ses = session.defaultSession;
  // Camera, microphone, notifications, clipboard-read, geolocation …: the app asks for none of them.
  ses.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.setDevicePermissionHandler(() => false);
  protocol.handle(APP_SCHEME, serveAppFile);

  const paths = resolvePaths({ builtinSkillsDir });
  service = new KnackService({
    paths,
    transport: 'electron',
    version: app.getVersion(),
    spawnHost: utilityProcessHost,
    keyStore: safeKeyStore(paths.dataDir, safeStorage),
    dialogs: {
      pickFolder: async () => {
        const r = mainWindow
          ? await dialog.showOpenDialog(mainWindow, { properties: ['openDirectory', 'createDirectory'] })
          : undefined;
        return r && !r.canceled ? (r.filePaths[0] ?? null) : null;
      },
      pickSkillSource: async (kind) => {
        if (!mainWindow) return null;
        const r = await dialog.showOpenDialog(
          mainWindow,
          kind === 'zip'
            ? { properties: ['openFile'], filters: [{ name: 'Skill archive', extensions: ['zip'] }] }
            : { properties: ['openDirectory'] },
        );
        return r.canceled ? null : (r.filePaths[0] ?? null);
      },
      showInFolder: async (file) => shell.showItemInFolder(file),
    },
  });
  const svc = service;

  for (const name of METHOD_NAMES) {
    ipcMain.handle(IPC_PREFIX + name, (event: IpcMainInvokeEvent, input: unknown) => {
      const problem = validateSender(event);
      if (problem) return { ok: false, error: contractError('forbidden', `refused: ${problem}`) };
      return dispatch(svc.handlers, name, input);
    });
  }
  const lang = menuLanguage(app.getLocale());
  svc.events.on((name, payload) => {
    for (const w of BrowserWindow.getAllWindows())
      if (appWindows.has(w.webContents.id)) w.webContents.send(IPC_EVENT_CHANNEL, name, payload);
    // An answer that ended or an approval that waits while Knack is in the background: a desktop notification.
    if (BrowserWindow.getFocusedWindow() || !Notification.isSupported()) return;
    const said = notificationOf(name, payload, lang);
    if (!said) return;
    const n = new Notification(said);
    n.on('click', () => {
      mainWindow?.show();
      mainWindow?.focus();
    });
    n.show();
  });
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(toElectronMenu(menuTemplate(lang, process.platform), (c) => void runCommand(c))),
  );

  const last = (await svc.handlers['workspace.recent']({})).items.find((r) => r.exists);
  if (last) await svc.openWorkspace(last.path).catch(() => {});
  createWindow();
}

/** Why this IPC call's sender may not use the contract (senderProblem in security.ts), or undefined. */
function validateSender(event: IpcMainInvokeEvent): string | undefined {
  const frame = event.senderFrame;
  return senderProblem(
    frame ? { url: frame.url, isMainFrame: frame.parent === null, webContentsId: event.sender.id } : null,
    appWindows,
  );
}

function createWindow(): void {
  const win = new BrowserWindow({
    width: 1200,
    height: 800,
    show: false,
    title: 'Knack',
    icon: windowIconPath(appRoot),
    webPreferences: {
      preload: preloadFile,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
    },
  });
  const id = win.webContents.id;
  appWindows.add(id);
  win.on('closed', () => {
    appWindows.delete(id);
    if (mainWindow === win) mainWindow = undefined;
  });
  win.once('ready-to-show', () => win.show());
  mainWindow = win;
  void win.loadURL(`${APP_ORIGIN}/index.html`);
}

async function runCommand(command: MenuCommand): Promise<void> {
  const svc = service;
  if (!svc) return;
  if (command === 'open-workspace') {
    const r = await svc.handlers['dialog.pickWorkspace']({});
    if (r.path) await svc.openWorkspace(r.path).catch((e: Error) => dialog.showErrorBox('Knack', e.message));
  } else if (command === 'reload-skills') {
    await svc.workspace?.catalog.refresh();
  } else {
    // The renderer runs the install flow (pick → audit report → approve/reject); the menu only starts it.
    svc.events.emit('app.menuCommand', { command });
  }
}

type ElectronItem = Electron.MenuItemConstructorOptions;

function toElectronMenu(items: MenuItemSpec[], onCommand: (c: MenuCommand) => void): ElectronItem[] {
  return items.map((i): ElectronItem => ({
    ...(i.label ? { label: i.label } : {}),
    ...(i.role ? { role: i.role } : {}),
    ...(i.type ? { type: i.type } : {}),
    ...(i.accelerator ? { accelerator: i.accelerator } : {}),
    ...(i.command ? { click: () => onCommand(i.command!) } : {}),
    ...(i.submenu ? { submenu: toElectronMenu(i.submenu, onCommand) } : {}),
  }));
}
