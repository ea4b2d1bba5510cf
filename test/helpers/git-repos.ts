// Real git repositories for skill-source tests: a working repo committed and pushed to a bare one (file:// URL), and a
// loopback HTTP server speaking git's smart protocol through `git http-backend`, which also serves plain files.
import { execFileSync, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { writeTree } from './tmp.js';

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'init.defaultBranch=main', '-c', 'protocol.file.allow=always', ...args], {
    cwd,
    env: GIT_ENV,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

export interface TestRepo {
  /** The bare repository's folder. */
  bare: string;
  /** file:// URL of the bare repository. */
  url: string;
  /** Working copy the commits are made in. */
  work: string;
  /** Write files (null deletes one), commit and push; returns the new commit id. */
  commit(files: Record<string, string | null>, message?: string): string;
  /** Tag the last commit. */
  tag(name: string): void;
}

/** A bare repository `<root>/<name>.git` with one commit of `files` on main. */
export function makeRepo(root: string, name: string, files: Record<string, string>): TestRepo {
  const bare = join(root, `${name}.git`);
  const work = join(root, `${name}.work`);
  mkdirSync(root, { recursive: true });
  git(root, 'init', '-q', '--bare', bare);
  git(root, 'init', '-q', work);
  git(work, 'remote', 'add', 'origin', bare);
  const repo: TestRepo = {
    bare,
    url: `file://${bare}`,
    work,
    commit(changes, message = 'change') {
      for (const [rel, content] of Object.entries(changes)) {
        if (content === null) rmSync(join(work, rel), { force: true, recursive: true });
        else writeTree(work, { [rel]: content });
      }
      git(work, 'add', '-A');
      git(work, 'commit', '-q', '--allow-empty', '-m', message);
      git(work, 'push', '-q', 'origin', 'HEAD:refs/heads/main', '--tags');
      git(bare, 'update-server-info');
      return git(work, 'rev-parse', 'HEAD');
    },
    tag(tag) {
      git(work, 'tag', tag);
      git(work, 'push', '-q', 'origin', tag);
    },
  };
  repo.commit(files, 'first');
  git(bare, 'symbolic-ref', 'HEAD', 'refs/heads/main');
  return repo;
}

export interface GitHttp {
  /** http://127.0.0.1:PORT (https with a certificate) */
  url: string;
  server: Server;
  /** Requests served, for bounding what a test sent. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * Serve every bare repository under `root` at http://127.0.0.1:PORT/git/<name>.git (smart HTTP via git http-backend),
 * and files under `root` at /files/<path>.
 */
export function serveGit(root: string, tls?: TestCert): Promise<GitHttp> {
  const requests: string[] = [];
  const handler: Parameters<typeof createServer>[1] = (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(`${req.method} ${url.pathname}`);
    if (url.pathname.startsWith('/files/')) {
      const file = normalize(join(root, decodeURIComponent(url.pathname.slice('/files/'.length))));
      if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
        res.writeHead(404).end('not found');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(readFileSync(file));
      return;
    }
    if (!url.pathname.startsWith('/git/')) {
      res.writeHead(404).end();
      return;
    }
    const cgi = spawn('git', ['http-backend'], {
      env: {
        ...GIT_ENV,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        REQUEST_METHOD: req.method ?? 'GET',
        PATH_INFO: decodeURIComponent(url.pathname.slice('/git'.length)),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        REMOTE_ADDR: '127.0.0.1',
        ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
        ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: String(req.headers['content-encoding']) } : {}),
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    req.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let sent = false;
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (sent) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      const headers: Record<string, string> = {};
      let status = 200;
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const i = line.indexOf(':');
        const k = line.slice(0, i).trim();
        const v = line.slice(i + 1).trim();
        if (k.toLowerCase() === 'status') status = parseInt(v, 10);
        else headers[k] = v;
      }
      res.writeHead(status, headers);
      sent = true;
      res.write(head.subarray(end + 4));
    });
    cgi.on('close', () => {
      if (!sent) res.writeHead(500);
      res.end();
    });
  };
  const server = tls ? createTlsServer({ key: tls.key, cert: tls.cert }, handler) : createServer(handler);
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      resolve({
        url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
        server,
        requests,
        close: () => new Promise((r) => server.close(() => r())),
      });
    });
  });
}

export interface TestCert {
  key: string;
  cert: string;
  /** The certificate's file: the CA a client is told to trust (GIT_SSL_CAINFO, CURL_CA_BUNDLE). */
  file: string;
}

/** A self-signed certificate for 127.0.0.1, made by openssl in `dir`. */
export function selfSignedCert(dir: string): TestCert {
  mkdirSync(dir, { recursive: true });
  const key = join(dir, 'key.pem');
  const file = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      file,
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(key, 'utf8'), cert: readFileSync(file, 'utf8'), file };
}
