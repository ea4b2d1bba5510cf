// What the user typed as a skill source, read into one shape: a local folder or .zip, a git repository (URL, scp-style
// ssh, or GitHub's owner/repo shorthand) with an optional ref and path, or a marketplace.json served over HTTP(S).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Refusal, say, type Said } from '../../base/index.js';

export type SourceSpec =
  | { kind: 'local'; path: string; display: string }
  | { kind: 'git'; url: string; ref?: string; path?: string; host: string; display: string }
  | { kind: 'json'; url: string; host: string; display: string };

/**
 * A source that cannot be read, fetched or listed: words the window says in its language; the message (what the CLI
 * prints) is their English unless a fuller one is given (git's own line, for the terminal).
 */
export class SourceError extends Refusal {}

/** A problem thrown while reading a source's file: its words (a SourceError's), else its message. */
export const problemWords = (e: unknown): Said =>
  e instanceof SourceError ? e.words : say('json.other', { error: (e as Error).message });

/** Hosts plain http:// is accepted for: this machine only (a test server, a local mirror). Anywhere else needs https. */
function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '[::1]' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Why a ref cannot be a git ref (or could be read by git as an option), in words, or undefined. */
export function refProblem(ref: string): Said | undefined {
  if (!/^[A-Za-z0-9._/@+-]+$/.test(ref)) return say('source.refChars', { ref });
  if (ref.startsWith('-') || ref.startsWith('/') || ref.endsWith('/') || ref.includes('..') || ref.endsWith('.lock'))
    return say('source.refInvalid', { ref });
  return undefined;
}

/** Why a path inside a repository is unsafe, or undefined. Returns the path without leading "./" and trailing "/". */
export function cleanRepoPath(path: string, what: string | Said = say('source.what.path')): string {
  const p = path.replace(/^\.\/+/, '').replace(/\/+$/, '');
  if (p === '' || p === '.') return '';
  if (p.includes('\\') || p.includes('\0') || p.startsWith('/') || p.split('/').some((s) => s === '..'))
    throw new SourceError(say('source.pathOutside', { what, path }));
  return p;
}

/** Split `#ref[:path]` off a source; a `:path` may also follow the repository itself. */
function splitFragment(text: string): { base: string; ref?: string; path?: string } {
  const hash = text.indexOf('#');
  if (hash < 0) return { base: text };
  const frag = text.slice(hash + 1);
  const colon = frag.indexOf(':');
  const ref = colon < 0 ? frag : frag.slice(0, colon);
  const path = colon < 0 ? undefined : frag.slice(colon + 1);
  return { base: text.slice(0, hash), ...(ref ? { ref } : {}), ...(path ? { path } : {}) };
}

function finish(
  url: string,
  host: string,
  ref: string | undefined,
  path: string | undefined,
  display: string,
): SourceSpec {
  if (ref !== undefined) {
    const p = refProblem(ref);
    if (p) throw new SourceError(say('source.refAt', { source: display, problem: p }));
  }
  const clean = path === undefined ? undefined : cleanRepoPath(path);
  return {
    kind: 'git',
    url,
    host,
    display,
    ...(ref ? { ref } : {}),
    ...(clean ? { path: clean } : {}),
  };
}

const SHORTHAND = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)((?:\/[^#:]+)?)$/;

/**
 * Read a source. `cwd` resolves local paths. An existing local path wins over the GitHub shorthand (`skills/foo` in
 * the current folder is that folder). Refuses transports other than https, ssh, file and loopback http.
 */
export function parseSource(text: string, cwd = process.cwd()): SourceSpec {
  const display = text.trim();
  if (!display) throw new SourceError(say('source.empty'));
  if (display.startsWith('-')) throw new SourceError(say('source.dash', { source: display }));
  if (/[\s\0]/.test(display)) throw new SourceError(say('source.space', { source: display }));
  const local = resolve(cwd, display.replace(/^~(?=\/)/, process.env.HOME ?? '~'));
  if (/^(\.{1,2}\/|\/|~\/)/.test(display) || existsSync(local)) return { kind: 'local', path: local, display };

  const { base, ref, path: fragPath } = splitFragment(display);
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(base)?.[1]?.toLowerCase();
  if (scheme) {
    if (!['https', 'http', 'ssh', 'file', 'git+ssh'].includes(scheme))
      throw new SourceError(say('source.transport', { source: display, scheme }));
    const rest = base.slice(scheme.length + 3);
    const slash = rest.indexOf('/');
    const authority = slash < 0 ? rest : rest.slice(0, slash);
    let pathPart = slash < 0 ? '' : rest.slice(slash);
    // `https://host/owner/repo.git:skills/x` — a colon in the path part separates the folder inside the repository.
    let inner = fragPath;
    const colon = pathPart.indexOf(':');
    if (colon >= 0) {
      inner = inner ?? pathPart.slice(colon + 1);
      pathPart = pathPart.slice(0, colon);
    }
    let host: string;
    try {
      host = scheme === 'file' ? '' : new URL(`${scheme === 'git+ssh' ? 'ssh' : scheme}://${authority}/`).hostname;
    } catch {
      throw new SourceError(say('source.notHost', { source: display, host: authority }));
    }
    if (scheme === 'http' && !isLoopbackHost(host)) throw new SourceError(say('source.plainHttp', { source: display }));
    const url = `${scheme}://${authority}${pathPart}`;
    if ((scheme === 'https' || scheme === 'http') && /\.json$/i.test(pathPart)) {
      if (ref || inner) throw new SourceError(say('source.jsonNoRef', { source: display }));
      return { kind: 'json', url, host, display };
    }
    return finish(url, host, ref, inner, display);
  }
  // scp-style ssh: git@host:owner/repo.git[:path]
  const scp = /^([A-Za-z0-9_.-]+@)?([A-Za-z0-9.-]+):([^:]+?)(?::(.+))?$/.exec(base);
  if (scp && scp[1]) {
    return finish(`${scp[1]}${scp[2]}:${scp[3]}`, scp[2]!, ref, fragPath ?? scp[4], display);
  }
  const gh = SHORTHAND.exec(base);
  if (gh) {
    const path = gh[3] ? gh[3].slice(1) : undefined;
    return finish(
      `https://github.com/${gh[1]}/${gh[2]!.replace(/\.git$/, '')}.git`,
      'github.com',
      ref,
      fragPath ?? path,
      display,
    );
  }
  throw new SourceError(say('source.unknownKind', { source: display }));
}

/** The source as one line again (for the lock and messages): URL, then #ref, then :path. */
export function formatSource(s: { url: string; ref?: string; path?: string }): string {
  return `${s.url}${s.ref ? `#${s.ref}` : ''}${s.path ? `${s.ref ? ':' : '#:'}${s.path}` : ''}`;
}
