// How the renderer is served, the same in Electron (app://) and serve mode (http://127.0.0.1): the Content-Security-Policy,
// security headers, content types and the mapping of a URL path to a file inside the built renderer folder.

/**
 * The Content-Security-Policy for the renderer. No inline or remote script, no eval, no plugins, no framing, no
 * form posts, no <base> tricks; `connect` only where the transport needs it (Electron: none, IPC is not fetch).
 */
export function contentSecurityPolicy(opts: { connect?: string[] } = {}): string {
  const connect = opts.connect?.length ? opts.connect.join(' ') : "'none'";
  return [
    "default-src 'none'",
    "script-src 'self'",
    // Stylesheets from the app only: React and the virtual list set styles through the CSSOM, which CSP does not block.
    "style-src 'self'",
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

/**
 * Maps a URL path to a file inside the renderer folder. Refuses anything that would leave it (.., encoded separators,
 * NUL); a path without an extension is the SPA's index.html.
 */
export function rendererFileFor(pathname: string): { rel: string } | { problem: string } {
  let path: string;
  try {
    path = decodeURIComponent(pathname);
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
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  txt: 'text/plain; charset=utf-8',
  map: 'application/json',
  wasm: 'application/wasm',
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
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), usb=(), serial=(), hid=()',
    'Cache-Control': 'no-store',
  };
}
