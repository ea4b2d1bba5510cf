// web_fetch (deferred): GET an http(s) URL and return its text, with a timeout and a size cap. Registered only
// when the ceiling allows network; access() says network + the normalised host so the gate can refuse per call.
// Internal addresses: the gate asks for literal ones (loopback, private, link-local, metadata) unless you allow
// that exact host; a name that resolves to one is refused at connect time (DNS rebinding), on every redirect too.
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { ok, toolError } from '../errors.js';
import { z } from 'zod';
import { defineTool } from '../define.js';
import { describeInternal, internalKind, normalizeHost } from '../../policy/index.js';
import { TOOL, TOOLS } from '../../policy/index.js';

const FETCH_TIMEOUT_MS = 20_000;
const FETCH_MAX_BYTES = 1_000_000;
/** Same-host redirects followed, at most. */
const MAX_REDIRECTS = 5;

function hostOf(url: string): string | undefined {
  try {
    return normalizeHost(new URL(url).hostname);
  } catch {
    return undefined;
  }
}

type Resolver = (
  host: string,
  opts: LookupAllOptions,
  cb: (err: NodeJS.ErrnoException | null, addrs: LookupAddress[]) => void,
) => void;

/**
 * A lookup for http.request that refuses internal answers: a public name that resolves to loopback, a private
 * network or a metadata address is not connected to. `allowInternal` is for a host that is itself an internal
 * literal (or localhost), which the gate has already put to you.
 */
export function guardedLookup(
  allowInternal: boolean,
  resolver: Resolver = dnsLookup as unknown as Resolver,
): LookupFunction {
  return ((
    host: string,
    options: object,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    const all = (options as { all?: boolean }).all === true;
    resolver(host, { ...(options as object), all: true }, (err, addrs) => {
      if (err) return callback(err, all ? [] : '');
      const bad = allowInternal
        ? undefined
        : addrs.map((a) => ({ a, kind: internalKind(a.address) })).find((x) => x.kind);
      if (bad) {
        const e: NodeJS.ErrnoException = new Error(
          `${host} resolves to ${bad.a.address}, ${describeInternal(bad.kind!)}: not fetched (internal addresses need an exact allow for that address)`,
        );
        e.code = 'EINTERNALADDRESS';
        return callback(e, all ? [] : '');
      }
      if (all) return callback(null, addrs);
      const first = addrs[0];
      return first
        ? callback(null, first.address, first.family)
        : callback(Object.assign(new Error(`no address for ${host}`), { code: 'ENOTFOUND' }), '');
    });
  }) as unknown as LookupFunction;
}

/** Rough HTML → text: scripts/styles dropped, tags removed, entities for the common cases, blank runs collapsed. */
function htmlToText(html: string): string {
  return html
    .replace(/<(script|style|noscript)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<br\s*\/?>|<\/(p|div|li|h[1-6]|tr)>/gi, '\n')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n\s*\n+/g, '\n\n')
    .trim();
}

function get(url: URL, signal: AbortSignal): Promise<IncomingMessage> {
  const mod = url.protocol === 'https:' ? https : http;
  const literal = internalKind(url.hostname) !== undefined;
  return new Promise((resolve, reject) => {
    const req = mod.get(
      url,
      { signal, lookup: guardedLookup(literal), headers: { 'user-agent': 'Knack/0.1 (+web_fetch)', accept: '*/*' } },
      resolve,
    );
    req.on('error', reject);
  });
}

/** Same host and port, and never from https down to http: the gate's approval was for this origin. */
function sameOrigin(a: URL, b: URL): boolean {
  const port = (u: URL): string => u.port || (u.protocol === 'https:' ? '443' : '80');
  return (
    normalizeHost(a.hostname) === normalizeHost(b.hostname) &&
    port(a) === port(b) &&
    !(a.protocol === 'https:' && b.protocol !== 'https:')
  );
}

export const webFetchTool = defineTool({
  name: TOOL.web_fetch,
  summary: 'Fetch a web page or HTTP resource and return its text.',
  description:
    `Download an http or https URL (GET) and return its text content; HTML is reduced to plain text. ` +
    `Times out after ${FETCH_TIMEOUT_MS / 1000} s; at most ${FETCH_MAX_BYTES / 1000} KB. Needs network permission.`,
  input: z.strictObject({
    url: z.string().min(1).describe('http(s) URL to fetch'),
    max_bytes: z.int().min(1).max(FETCH_MAX_BYTES).optional().describe('Most bytes to read'),
  }),
  deferLoading: true,
  risk: TOOLS.web_fetch.access,
  access: (a) => {
    const host = hostOf(a.url);
    return host ? { network: true, host } : { network: true };
  },
  async handler(a, ctx) {
    let url: URL;
    try {
      url = new URL(a.url);
    } catch {
      return toolError('tool.invalid_args', `url: "${a.url}" is not a valid URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return toolError('tool.invalid_args', `url: only http and https are allowed, not ${url.protocol}`);
    const max = a.max_bytes ?? FETCH_MAX_BYTES;
    const timeout = AbortSignal.timeout(FETCH_TIMEOUT_MS);
    const signal = ctx.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout;
    try {
      // Redirects are followed by hand and only to the same origin (host and port): the gate approved this one, and
      // an open redirect must not carry the request (and whatever its URL holds) anywhere nobody approved.
      let res = await get(url, signal);
      for (
        let hops = 0;
        res.statusCode !== undefined && res.statusCode >= 300 && res.statusCode < 400 && res.headers.location;
        hops++
      ) {
        const next = new URL(res.headers.location, url);
        res.destroy();
        if (
          !sameOrigin(url, next) ||
          (next.protocol !== 'http:' && next.protocol !== 'https:') ||
          hops >= MAX_REDIRECTS
        ) {
          const why =
            hops >= MAX_REDIRECTS
              ? `more than ${MAX_REDIRECTS} redirects`
              : `a redirect to another host, port or scheme (${next.protocol}//${next.host})`;
          return ok({
            url: url.toString(),
            status: res.statusCode,
            redirect: next.toString(),
            contentType: '',
            truncated: false,
            text: `${why}: not followed. To read it, call web_fetch again with ${next.toString()} (it needs its own permission).`,
          });
        }
        url = next;
        res = await get(url, signal);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      for await (const chunk of res as AsyncIterable<Buffer>) {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= max) {
          truncated = true;
          res.destroy();
          break;
        }
      }
      const body = Buffer.concat(chunks).subarray(0, max).toString('utf8');
      const type = String(res.headers['content-type'] ?? '');
      const text = /html/i.test(type) ? htmlToText(body) : body;
      return ok({ url: url.toString(), status: res.statusCode, contentType: type, text, truncated });
    } catch (e) {
      if (timeout.aborted)
        return toolError('tool.timeout', `fetching ${url.host} timed out after ${FETCH_TIMEOUT_MS} ms`);
      const err = e as NodeJS.ErrnoException;
      if (err.code === 'EINTERNALADDRESS')
        return toolError('tool.denied', `fetching ${url.host} refused: ${err.message}`);
      return toolError('tool.network', `fetching ${url.host} failed: ${err.message}`);
    }
  },
});
