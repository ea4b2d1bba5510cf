// Serve mode's gatekeeping, free of I/O: the per-run token (compared in constant time), the Host check against DNS
// rebinding, the Origin check so no other site's page can use the socket, loopback-only peers and listen addresses.
import { randomBytes, timingSafeEqual } from 'node:crypto';

/** 32 random bytes, URL-safe. A fresh one every run. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function tokensEqual(a: string | undefined, b: string): boolean {
  if (typeof a !== 'string') return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The cookie carrying the token: per port (cookies ignore ports, two servers must not overwrite each other). */
export function cookieName(port: number): string {
  return `knack_${port}`;
}

export function tokenCookie(port: number, token: string): string {
  return `${cookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`;
}

export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

/** Loopback literal addresses the server may listen on. Anything else (0.0.0.0, a LAN address, ::) is refused. */
export function listenAddressProblem(host: string): string | undefined {
  if (host === '127.0.0.1') return undefined;
  return `serve mode listens on 127.0.0.1 only (asked for ${host}): the app must not be reachable from other machines`;
}

/** The peer must be this machine. */
function isLoopbackPeer(address: string | undefined): boolean {
  if (!address) return false;
  return (
    address === '127.0.0.1' ||
    address === '::1' ||
    address === '::ffff:127.0.0.1' ||
    /^127\.\d+\.\d+\.\d+$/.test(address) ||
    /^::ffff:127\.\d+\.\d+\.\d+$/.test(address)
  );
}

/** Names the page may be reached by. A rebinding attacker's page arrives with its own host name and is refused. */
function hostAllowed(host: string | undefined, port: number): boolean {
  if (!host) return false;
  const h = host.toLowerCase();
  return h === `127.0.0.1:${port}` || h === `localhost:${port}`;
}

/** The only origins the socket and state-changing requests accept: the page served by this very server. */
function originAllowed(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return false;
  return origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`;
}

export interface RequestFacts {
  method: string;
  host: string | undefined;
  origin: string | undefined;
  /** Sec-Fetch-Site, when the browser sent it. */
  fetchSite: string | undefined;
  remoteAddress: string | undefined;
  /** From the cookie, the `token` query parameter or an `Authorization: Bearer` header. */
  token: string | undefined;
  /** A WebSocket upgrade. */
  upgrade: boolean;
}

export type Verdict = { ok: true } | { ok: false; status: 401 | 403 | 421; reason: string };

/**
 * One decision for every request and upgrade, in order: the peer is local, the Host is ours (no rebinding),
 * a browser Origin is ours (no cross-site page), then the token. A socket needs an Origin unless it is not a browser
 * (no Origin at all and no Sec-Fetch headers) — such a local client still needs the token.
 */
export function judgeRequest(f: RequestFacts, port: number, token: string): Verdict {
  if (!isLoopbackPeer(f.remoteAddress)) return { ok: false, status: 403, reason: 'not a loopback peer' };
  if (!hostAllowed(f.host, port))
    return { ok: false, status: 421, reason: `unexpected Host ${JSON.stringify(f.host ?? '')}` };
  if (f.origin !== undefined && !originAllowed(f.origin, port))
    return { ok: false, status: 403, reason: `foreign Origin ${JSON.stringify(f.origin)}` };
  if (f.fetchSite !== undefined && f.fetchSite !== 'same-origin' && f.fetchSite !== 'none') {
    return { ok: false, status: 403, reason: `cross-site request (Sec-Fetch-Site: ${f.fetchSite})` };
  }
  if (f.upgrade && f.origin === undefined && f.fetchSite !== undefined)
    return { ok: false, status: 403, reason: 'a browser socket without an Origin' };
  if (!tokensEqual(f.token, token)) return { ok: false, status: 401, reason: f.token ? 'wrong token' : 'no token' };
  return { ok: true };
}
