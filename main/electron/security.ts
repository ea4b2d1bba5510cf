// The window's security decisions, kept free of Electron so they are unit-tested under plain Node: the CSP, which
// navigations and new windows are refused, which links may open in the system browser, which frames may call IPC.
// main.ts only wires these into Electron's hooks.

/** The custom scheme the renderer is served from (never file://, never a remote URL). */
export const APP_SCHEME = 'app';
export const APP_HOST = 'knack';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/**
 * The Content-Security-Policy for the renderer. No inline or remote script, no eval, no plugins, no framing, no
 * form posts, no <base> tricks; `connect` only where the transport needs it (Electron: none, IPC is not fetch).
 */
export function contentSecurityPolicy(opts: { connect?: string[] } = {}): string {
  const connect = opts.connect?.length ? opts.connect.join(' ') : "'none'";
  return [
    "default-src 'none'",
    "script-src 'self'",
    // React sets style attributes through the CSSOM (not blocked); inline <style> from libraries needs this.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connect}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "frame-src 'none'",
    "worker-src 'none'",
    "manifest-src 'self'",
  ].join('; ');
}

/** Serve mode's CSP: the page may talk to its own socket only. */
export function serveContentSecurityPolicy(port: number): string {
  return contentSecurityPolicy({ connect: ["'self'", `ws://127.0.0.1:${port}`, `ws://localhost:${port}`] });
}

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** True for a URL inside the app itself (app://knack/…). */
export function isAppUrl(url: string): boolean {
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
  if (!host.includes('.')) return 'not a public host name';
  if (/^\[.*\]$/.test(host) || /^\d+(\.\d+){3}$/.test(host) || /^(0x[0-9a-f]+|\d+)$/.test(host)) return 'an IP address';
  if (/(^|\.)(localhost|local|internal|lan|home|corp|intranet)$/.test(host)) return 'a local host name';
  if (/[^a-z0-9.-]/.test(host)) return 'unexpected characters in the host';
  return undefined;
}

/** New windows are never created by the renderer; an https link becomes "open externally" after the check. */
export function windowOpenDecision(url: string): { action: 'deny'; openExternally: boolean } {
  return { action: 'deny', openExternally: externalLinkProblem(url) === undefined };
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
export function senderProblem(frame: SenderFrame | null | undefined, appWebContentsIds: ReadonlySet<number>): string | undefined {
  if (!frame) return 'no sender frame (the frame was destroyed or navigated)';
  if (!appWebContentsIds.has(frame.webContentsId)) return 'a call from a window that is not the app window';
  if (!frame.isMainFrame) return 'a call from a subframe';
  if (!isAppUrl(frame.url)) return `a call from ${frame.url.slice(0, 100)}, not the app`;
  return undefined;
}

/**
 * Maps app://knack/<path> to a file inside the renderer folder. Refuses anything that would leave it (.., encoded
 * separators, absolute paths) and unknown hosts; a path without an extension is the SPA's index.html.
 */
export function appFileFor(url: string): { rel: string } | { problem: string } {
  const u = parse(url);
  if (!u || !isAppUrl(url)) return { problem: 'not an app URL' };
  let path: string;
  try {
    path = decodeURIComponent(u.pathname);
  } catch {
    return { problem: 'bad percent-encoding' };
  }
  if (path.includes('\0') || path.includes('\\')) return { problem: 'bad characters in the path' };
  const parts = path.split('/').filter((p) => p !== '');
  if (parts.some((p) => p === '..' || p === '.')) return { problem: 'path leaves the app folder' };
  if (parts.length === 0 || !/\.[a-z0-9]+$/i.test(parts[parts.length - 1]!)) return { rel: 'index.html' };
  return { rel: parts.join('/') };
}

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8', js: 'text/javascript; charset=utf-8', mjs: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8',
  json: 'application/json', svg: 'image/svg+xml', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif',
  webp: 'image/webp', ico: 'image/x-icon', woff: 'font/woff', woff2: 'font/woff2', ttf: 'font/ttf', txt: 'text/plain; charset=utf-8',
  map: 'application/json', wasm: 'application/wasm',
};

export function contentTypeFor(rel: string): string {
  const ext = rel.slice(rel.lastIndexOf('.') + 1).toLowerCase();
  return TYPES[ext] ?? 'application/octet-stream';
}

/** Headers every renderer response carries (Electron protocol handler and serve mode). */
export function securityHeaders(csp: string): Record<string, string> {
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), usb=(), serial=(), hid=(), bluetooth=()',
    'Cache-Control': 'no-store',
  };
}
