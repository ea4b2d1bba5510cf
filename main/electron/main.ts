// Electron main: app lifecycle and one sandboxed window; binds the contract to ipcMain. Thin by design —
// all logic lives in main/core, which never imports electron.
import { app, BrowserWindow, ipcMain } from 'electron';
import { join } from 'node:path';
import { IPC_PREFIX, methods, type MethodName } from '../../preload/contract.js';

async function createWindow(): Promise<void> {
  const win = new BrowserWindow({
    width: 1200,
    height: 800,
    webPreferences: {
      preload: join(import.meta.dirname, '..', '..', 'preload', 'index.js'),
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
    },
  });
  await win.loadFile(join(import.meta.dirname, '..', '..', 'renderer', 'index.html'));
}

for (const name of Object.keys(methods) as MethodName[]) {
  ipcMain.handle(IPC_PREFIX + name, (event, input: unknown) => {
    if (event.senderFrame?.url.startsWith('file://') !== true) {
      throw new Error('rejected: call from an unexpected frame');
    }
    const parsed = methods[name].input.safeParse(input);
    if (!parsed.success) return { error: { code: 'invalid_input', message: parsed.error.message } };
    return { error: { code: 'not_implemented', message: `${name} is served once the desktop service lands` } };
  });
}

void app.whenReady().then(createWindow);
app.on('window-all-closed', () => app.quit());
