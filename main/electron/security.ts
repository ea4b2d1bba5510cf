// The window's security decisions, kept free of Electron so they are unit-tested under plain Node: the CSP, which
// navigations and new windows are refused, which links may open in the system browser, which frames may call IPC.
// main.ts only wires these into Electron's hooks. The CSP and the renderer's file mapping are shared with serve mode.
import { rendererFileFor } from '../serve/http-security.js';

export {
  contentSecurityPolicy,
  contentTypeFor,
  securityHeaders,
  serveContentSecurityPolicy,
} from '../serve/http-security.js';

/** The custom scheme the renderer is served from (never file://, never a remote URL). */
export const APP_SCHEME = 'app';
const APP_HOST = 'knack';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** True for a URL inside the app itself (app://knack/…). */
function isAppUrl(url: string): boolean {
  const u = parse(url);
  return !!u && u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST && !u.username && !u.password;
}

/**
 * The window never navigates away from the app: a navigation is allowed only within app://knack (the SPA reloading
 * itself). Everything else — file:, http(s):, javascript:, data:, another app host — is refused.
 */
export function allowNavigation(url: string): boolean {
  return isAppUrl(url);
}

/**
 * Links the user clicked may open in the system browser only when they are plain https:// URLs to a public host name:
 * no credentials in the URL, no IP literals or local names (a skill's text must not aim the browser at the LAN),
 * no other scheme (file:, smb:, custom protocol handlers), at most 2048 characters.
 */
export function externalLinkProblem(url: string): string | undefined {
  if (url.length > 2048) return 'too long';
  const u = parse(url);
  if (!u) return 'not a URL';
  if (u.protocol !== 'https:') return `only https links open outside the app (this is ${u.protocol})`;
  if (u.username || u.password) return 'credentials in the URL';
  const host = u.hostname.toLowerCase();
  if (/^\[.*\]$/.test(host) || /^\d+(\.\d+){3}$/.test(host) || /^(0x[0-9a-f]+|\d+)$/.test(host)) return 'an IP address';
  if (!host.includes('.')) return 'not a public host name';
  if (/(^|\.)(localhost|local|internal|lan|home|corp|intranet)$/.test(host)) return 'a local host name';
  if (/[^a-z0-9.-]/.test(host)) return 'unexpected characters in the host';
  return undefined;
}

/** The URL to hand to the system browser, normalised, or null when externalLinkProblem refuses it. */
export function openableExternalUrl(url: string): string | null {
  return externalLinkProblem(url) === undefined ? new URL(url).href : null;
}

/** The frame behind an IPC call, as Electron describes it. */
export interface SenderFrame {
  url: string;
  /** True for the window's top frame. */
  isMainFrame: boolean;
  /** Which window's webContents sent it. */
  webContentsId: number;
}

/**
 * Only the app's own top frame, in the app's own window, may call the contract. Subframes (an <iframe> a
 * renderer bug let in), other windows and any URL outside app://knack are refused.
 */
export function senderProblem(
  frame: SenderFrame | null | undefined,
  appWebContentsIds: ReadonlySet<number>,
): string | undefined {
  if (!frame) return 'no sender frame (the frame was destroyed or navigated)';
  if (!appWebContentsIds.has(frame.webContentsId)) return 'a call from a window that is not the app window';
  if (!frame.isMainFrame) return 'a call from a subframe';
  if (!isAppUrl(frame.url)) return `a call from ${frame.url.slice(0, 100)}, not the app`;
  return undefined;
}

/** Maps app://knack/<path> to a file inside the renderer folder (rendererFileFor); other hosts and schemes are refused. */
export function appFileFor(url: string): { rel: string } | { problem: string } {
  const u = parse(url);
  if (!u || !isAppUrl(url)) return { problem: 'not an app URL' };
  return rendererFileFor(u.pathname);
}
