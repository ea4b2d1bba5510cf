// web_fetch (deferred): GET an http(s) URL and return its text, with a timeout and a size cap. Registered only
// when the ceiling allows network; access() says network + host so the gate can still refuse per call.
import { ok, toolError } from '../errors.js';
import type { ToolDefinition } from '../types.js';

export const FETCH_TIMEOUT_MS = 20_000;
export const FETCH_MAX_BYTES = 1_000_000;
/** Same-host redirects followed, at most. */
export const MAX_REDIRECTS = 5;

interface Args {
  url: string;
  max_bytes?: number;
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}

/** Rough HTML → text: scripts/styles dropped, tags removed, entities for the common cases, blank runs collapsed. */
export function htmlToText(html: string): string {
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

export const webFetchTool: ToolDefinition<Args> = {
  name: 'web_fetch',
  summary: 'Fetch a web page or HTTP resource and return its text.',
  description:
    `Download an http or https URL (GET) and return its text content; HTML is reduced to plain text. ` +
    `Times out after ${FETCH_TIMEOUT_MS / 1000} s; at most ${FETCH_MAX_BYTES / 1000} KB. Needs network permission.`,
  inputSchema: {
    type: 'object',
    properties: {
      url: { type: 'string', minLength: 1, description: 'http(s) URL to fetch' },
      max_bytes: { type: 'integer', minimum: 1, maximum: FETCH_MAX_BYTES, description: 'Most bytes to read' },
    },
    required: ['url'],
    additionalProperties: false,
  },
  deferLoading: true,
  risk: 'network',
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
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return toolError('tool.invalid_args', `url: only http and https are allowed, not ${url.protocol}`);
    const max = a.max_bytes ?? FETCH_MAX_BYTES;
    const timeout = AbortSignal.timeout(FETCH_TIMEOUT_MS);
    const signal = ctx.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout;
    try {
      // Redirects are followed by hand and only on the same host: the gate approved this host, and an open redirect
      // must not carry the request (and whatever its URL holds) to a host nobody approved.
      let res = await fetch(url, { signal, redirect: 'manual', headers: { 'user-agent': 'Knack/0.1 (+web_fetch)' } });
      for (let hops = 0; res.status >= 300 && res.status < 400 && res.headers.has('location'); hops++) {
        const next = new URL(res.headers.get('location')!, url);
        await res.body?.cancel();
        if (next.hostname !== url.hostname || (next.protocol !== 'http:' && next.protocol !== 'https:') || hops >= MAX_REDIRECTS) {
          const why = hops >= MAX_REDIRECTS ? `more than ${MAX_REDIRECTS} redirects` : `a redirect to another host (${next.host})`;
          return ok({ url: url.toString(), status: res.status, redirect: next.toString(), contentType: '', truncated: false,
            text: `${why}: not followed. To read it, call web_fetch again with ${next.toString()} (that host needs its own permission).` });
        }
        url = next;
        res = await fetch(url, { signal, redirect: 'manual', headers: { 'user-agent': 'Knack/0.1 (+web_fetch)' } });
      }
      const reader = res.body?.getReader();
      const chunks: Uint8Array[] = [];
      let size = 0;
      let truncated = false;
      while (reader) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        size += value.length;
        if (size >= max) {
          truncated = true;
          await reader.cancel();
          break;
        }
      }
      const body = Buffer.concat(chunks).subarray(0, max).toString('utf8');
      const type = res.headers.get('content-type') ?? '';
      const text = /html/i.test(type) ? htmlToText(body) : body;
      return ok({ url: url.toString(), status: res.status, contentType: type, text, truncated });
    } catch (e) {
      if (timeout.aborted) return toolError('tool.timeout', `fetching ${url.host} timed out after ${FETCH_TIMEOUT_MS} ms`);
      return toolError('tool.network', `fetching ${url.host} failed: ${(e as Error).message}`);
    }
  },
};
