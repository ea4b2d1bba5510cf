// Fetch a skill source into a temporary folder: a git repository at a ref or commit (one commit deep when it can be),
// or a marketplace.json over HTTP(S) (curl), each inside the wall. Every failure is one line naming the source; the
// temporary folder never stays.
import { mkdirSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  folderBytes,
  GIT_LIMITS,
  gitHost,
  gitReason,
  gitEnv,
  runFetcher,
  runGit,
  type GitLimits,
  type GitRun,
  type GitWall,
} from './git.js';
import { SourceError } from './spec.js';
import { makeOwnTemp, pruneStaleTemp, say } from '../../base/index.js';

export type Progress = (stage: 'fetching' | 'checking-out' | 'reading' | 'auditing', detail: string) => void;

export interface FetchedRepo {
  /** The checked-out tree (temporary). */
  dir: string;
  /** The commit checked out. */
  commit: string;
  /** Remove the temporary folder. */
  dispose(): void;
}

export interface FetchOptions {
  limits?: Partial<GitLimits>;
  /** The OS sandbox git runs in: it may write only the temporary clone and reach only the source's host. */
  wall?: GitWall;
  onProgress?: Progress;
}

const MB = 1024 * 1024;

/** A limit in bytes as people say it: "200 MB", "98 KB". */
export function sizeText(bytes: number): string {
  return bytes >= MB ? `${Math.round(bytes / MB)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** One line for a failed git call, naming the source. */
function gitFailure(display: string, want: string | undefined, r: GitRun, limits: GitLimits): SourceError {
  if (r.stopped === 'timeout')
    return new SourceError(say('source.timeout', { source: display, seconds: Math.round(limits.timeoutMs / 1000) }));
  if (r.stopped === 'size')
    return new SourceError(say('source.tooLarge', { source: display, limit: sizeText(limits.maxBytes) }));
  const why = gitReason(r);
  // The terminal gets git's own line; the window gets what it means in its language (git's line is English).
  if (
    /couldn't find remote ref|not our ref|unadvertised object|invalid reference|pathspec .* did not match/i.test(
      r.stderr,
    )
  )
    return new SourceError(say('source.noRef', { source: display, ref: want ?? '' }));
  if (/does not appear to be a git repository|repository .* not found|not found|returned error: 404/i.test(r.stderr))
    return new SourceError(say('source.noRepo', { source: display }), `${display}: no such repository (${why})`);
  if (/blocked by network allowlist/i.test(r.stderr))
    return new SourceError(
      say('source.blocked', { source: display }),
      `${display}: the sandbox blocked the connection (${why}); a fetch may reach only its host`,
    );
  // Inside the wall git reaches the host through the sandbox's proxy: a host that does not answer is its 502/504
  // (over https, the proxy's answer to git's CONNECT: "CONNECT tunnel failed, response 502").
  if (
    /could not resolve host|connection refused|failed to connect|timed out|network is unreachable|ssl|returned error: 50[234]|connect tunnel failed, response 50[234]/i.test(
      r.stderr,
    )
  )
    return new SourceError(say('source.unreachable', { source: display }), `${display}: network error (${why})`);
  return new SourceError(say('source.gitFailed', { source: display, why }));
}

const FETCH_PREFIX = 'knack-fetch-';
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Remove temporary clones a fetch left behind when its process died (killed mid-clone, a crash): folders
 * `knack-fetch-<pid>-*` in `dir` whose process is gone, and any other process's `knack-fetch-*` older than a day (a
 * fetch takes at most GIT_LIMITS.timeoutMs; a pid may have been reused). Returns the names removed; never throws.
 */
export function pruneStaleFetches(dir = tmpdir(), now = Date.now()): string[] {
  return pruneStaleTemp(FETCH_PREFIX, { dir, now, maxAgeMs: DAY_MS });
}

/**
 * Fetch `url` at `sha` (a pinned commit), else `ref`, else the default branch, and check it out. Shallow when the
 * server allows it; a commit the server will not give alone is fetched with the branches and tags.
 */
export async function fetchRepo(
  src: { url: string; ref?: string; sha?: string; display: string },
  opts: FetchOptions = {},
): Promise<FetchedRepo> {
  const limits = { ...GIT_LIMITS, ...opts.limits };
  pruneStaleFetches();
  // The pid in the name lets a later fetch tell a clone whose process died from one still being made.
  const holder = realpathSync(makeOwnTemp(FETCH_PREFIX));
  const dir = join(holder, 'tree');
  mkdirSync(dir);
  const dispose = () => rmSync(holder, { recursive: true, force: true });
  const deadline = Date.now() + limits.timeoutMs;
  const left = () => Math.max(1, deadline - Date.now());
  const host = gitHost(src.url);
  // Every git call below: inside the wall when there is one, writing only the clone, reaching only the source's host.
  const contain = opts.wall ? { wall: opts.wall, hosts: host ? [host] : [], writeRoots: [holder] } : {};
  try {
    const init = await runGit(['init', '-q', dir], { ...contain, cwd: dir, timeoutMs: left() });
    if (init.code !== 0) throw new SourceError(say('source.gitFailed', { source: src.display, why: gitReason(init) }));
    const want = src.sha ?? src.ref;
    opts.onProgress?.('fetching', src.display);
    const fetchArgs = ['fetch', '--quiet', '--no-tags', '--no-recurse-submodules'];
    let r = await runGit([...fetchArgs, '--depth', '1', '--', src.url, want ?? 'HEAD'], {
      ...contain,
      cwd: dir,
      timeoutMs: left(),
      maxBytes: limits.maxBytes,
      watch: holder,
    });
    let target = 'FETCH_HEAD';
    if (
      r.code !== 0 &&
      !r.stopped &&
      want &&
      /^[0-9a-f]{4,40}$/i.test(want) &&
      !/not found|resolve host/i.test(r.stderr)
    ) {
      // An abbreviated or unadvertised commit: fetch the branches and tags, then look for it.
      r = await runGit([...fetchArgs, '--', src.url, '+refs/heads/*:refs/remotes/src/*', '+refs/tags/*:refs/tags/*'], {
        ...contain,
        cwd: dir,
        timeoutMs: left(),
        maxBytes: limits.maxBytes,
        watch: holder,
      });
      target = `${want}^{commit}`;
    }
    if (r.code !== 0) throw gitFailure(src.display, want, r, limits);
    opts.onProgress?.('checking-out', src.display);
    const co = await runGit(['checkout', '-q', '--detach', target, '--'], {
      ...contain,
      cwd: dir,
      timeoutMs: left(),
      maxBytes: limits.maxBytes,
      watch: holder,
    });
    if (co.code !== 0) throw gitFailure(src.display, want, co, limits);
    if (folderBytes(holder, limits.maxBytes) > limits.maxBytes)
      throw new SourceError(say('source.tooLarge', { source: src.display, limit: sizeText(limits.maxBytes) }));
    const head = await runGit(['rev-parse', 'HEAD'], { ...contain, cwd: dir, timeoutMs: left() });
    const commit = head.stdout.trim();
    if (head.code !== 0 || !/^[0-9a-f]{40,64}$/.test(commit)) throw gitFailure(src.display, want, head, limits);
    if (src.sha && !commit.startsWith(src.sha.toLowerCase()))
      throw new SourceError(say('source.noCommit', { source: src.display, sha: src.sha, got: commit.slice(0, 12) }));
    // The tree holds only the repository's files: its .git moves beside it, so no audit or copy ever sees it.
    renameSync(join(dir, '.git'), join(holder, 'git'));
    return { dir, commit, dispose };
  } catch (e) {
    dispose();
    throw e;
  }
}

export interface JsonFetchOptions {
  /** The OS sandbox the download runs in: it may reach only the URL's host and write nothing. */
  wall?: GitWall;
  timeoutMs?: number;
  maxBytes?: number;
}

export const JSON_LIMITS = { timeoutMs: 30_000, maxBytes: 5 * MB };

/** A source fetch's options for its marketplace.json download: the same wall, and its deadline when one is set. */
export function jsonOptions(opts: FetchOptions): JsonFetchOptions {
  return {
    ...(opts.wall ? { wall: opts.wall } : {}),
    ...(opts.limits?.timeoutMs !== undefined ? { timeoutMs: opts.limits.timeoutMs } : {}),
  };
}

/** Marks the HTTP status curl writes to stderr after the transfer. */
const STATUS_MARK = 'knack-http-status:';

/**
 * GET a marketplace.json over HTTP(S), bounded in time and size; every failure is one line naming the URL.
 *
 * The download is curl's, inside the wall when there is one (as git's is): main never speaks to the server, and reads
 * at most `maxBytes` of what curl prints, stopping it past that, so a hostile server cannot feed main's parser without
 * end (parseMarketplace then refuses nesting past its depth before building a tree). curl rather than code here: it
 * speaks HTTP(S) through the sandbox's proxy (HTTPS_PROXY), with its own time and size limits, and is on every
 * machine git is.
 */
export async function fetchJsonText(url: string, opts: JsonFetchOptions = {}): Promise<string> {
  const timeoutMs = opts.timeoutMs ?? JSON_LIMITS.timeoutMs;
  const maxBytes = opts.maxBytes ?? JSON_LIMITS.maxBytes;
  const host = gitHost(url);
  const args = [
    'curl',
    // -q first: no ~/.curlrc; no redirects (a server cannot send the download elsewhere), only http and https.
    '-q',
    '--silent',
    '--show-error',
    '--fail',
    '--proto',
    '=http,https',
    '--max-redirs',
    '0',
    '--max-time',
    String(Math.max(1, Math.ceil(timeoutMs / 1000))),
    '--max-filesize',
    String(maxBytes),
    '--write-out',
    `%{stderr}${STATUS_MARK}%{response_code}\n`,
    '--url',
    url,
  ];
  const r = await runFetcher(
    args,
    { ...gitEnv(process.env), LC_ALL: 'C' },
    {
      ...(opts.wall ? { wall: opts.wall, hosts: host ? [host] : [], writeRoots: [] } : {}),
      cwd: tmpdir(),
      timeoutMs,
      maxStdout: maxBytes,
    },
  );
  const status = Number(new RegExp(`${STATUS_MARK}(\\d+)`).exec(r.stderr)?.[1] ?? 0);
  const said = r.stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith(STATUS_MARK))
    .map((l) => l.replace(/^curl: \(\d+\)\s*/, ''))
    .join('; ');
  if (r.stopped === 'timeout' || r.code === 28)
    throw new SourceError(say('source.timeout', { source: url, seconds: Math.round(timeoutMs / 1000) }));
  if (r.stopped === 'size' || r.code === 63)
    throw new SourceError(say('source.fileTooLarge', { source: url, limit: sizeText(maxBytes) }));
  if (r.code === 127 || /cannot start curl: .*ENOENT|curl: (command )?not found/i.test(r.stderr))
    throw new SourceError(say('source.noCurl', { source: url }));
  if (r.code === 0 && status >= 200 && status < 300) return r.stdout;
  // Inside the wall the server is reached through the sandbox's proxy: a host that does not answer is its 502/504.
  if ((r.code === 22 || r.code === 0) && status >= 300 && ![502, 504].includes(status))
    throw new SourceError(
      say(status === 404 ? 'source.http404' : status < 400 ? 'source.httpRedirect' : 'source.http', {
        source: url,
        status,
      }),
    );
  // The terminal keeps curl's own line; the window says the host could not be reached.
  if (status === 502 || status === 504)
    throw new SourceError(
      say('source.unreachable', { source: url }),
      `${url}: network error (HTTP ${status}: the host did not answer)`,
    );
  throw new SourceError(
    say('source.unreachable', { source: url }),
    `${url}: network error (${said || `curl exited with ${r.code}`})`,
  );
}
