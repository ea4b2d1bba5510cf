// The window's icon, kept free of Electron so it is tested under plain Node: packaging/icon.png (drawn by
// packaging/make-icon.mjs) is copied by the build to dist/icon.png, inside app.asar, from a checkout and when installed.
import { join } from 'node:path';

/** Where the build puts the icon, relative to the app's root (app.getAppPath()). */
export const WINDOW_ICON = join('dist', 'icon.png');

/** The icon file for the BrowserWindow of the app rooted at `appRoot`. */
export function windowIconPath(appRoot: string): string {
  return join(appRoot, WINDOW_ICON);
}
