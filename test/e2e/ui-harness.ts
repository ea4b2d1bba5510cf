// End-to-end harness for the desktop UI: builds the renderer with Vite, runs `knack serve` (the real engine over the
// real WebSocket contract) against a fake model server, and drives Debian's Chromium through Playwright.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright';

export const ROOT = join(import.meta.dirname, '..', '..');

/** Debian's Chromium (never a downloaded one). */
export function chromiumPath(): string | undefined {
  for (const p of [process.env.KNACK_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'])
    if (p && existsSync(p)) return p;
  return undefined;
}

export function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('no Chromium found (set KNACK_CHROMIUM)');
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}

/** Build the renderer into `out` (what serve mode and Electron ship). */
export async function buildRenderer(out: string): Promise<string> {
  if (process.env.KNACK_E2E_RENDERER) return process.env.KNACK_E2E_RENDERER; // a build made moments ago (local debugging)
  mkdirSync(out, { recursive: true });
  const { build } = await import('vite');
  await build({
    configFile: join(ROOT, 'vite.config.ts'),
    logLevel: 'error',
    build: { outDir: out, emptyOutDir: true },
  });
  return out;
}

export interface Served {
  url: string;
  proc: ChildProcess;
  stderr: () => string;
  stop(): Promise<void>;
}

export interface ServeOptions {
  renderer: string;
  /** The folder to open; none: serve starts in Knack's own folder with no --workspace, so no folder is open. */
  workspace?: string;
  home: string;
  dataDir: string;
  args?: string[];
  env?: Record<string, string>;
}

/** `knack serve --port 0`; resolves with the tokened URL it prints. */
export function startServe(o: ServeOptions): Promise<Served> {
  const proc = spawn(
    process.execPath,
    [
      join(ROOT, 'bin', 'knack.js'),
      'serve',
      '--port',
      '0',
      ...(o.workspace !== undefined ? ['--workspace', o.workspace] : []),
      '--renderer',
      o.renderer,
      ...(o.args ?? []),
    ],
    {
      cwd: ROOT,
      env: { ...process.env, HOME: o.home, KNACK_DATA_DIR: o.dataDir, ...o.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode) return;
    const done = new Promise<void>((r) => proc.once('exit', () => r()));
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
    await done;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /running at (\S+)/.exec(out);
      if (m) resolve({ url: m[1]!, proc, stderr: () => err, stop });
    });
    proc.once('exit', (code) =>
      reject(new Error(`knack serve exited (${code}) before printing its address:\n${out}\n${err}`)),
    );
  });
}

/**
 * Poll until `f` holds (the page's CSP forbids evaluating strings, so conditions are checked from here). Past `ms`, the
 * error names the condition, the page's title and the server's last words, with a screenshot in `shotDir` when given.
 */
export async function pollUntil(
  page: Page,
  served: Served,
  f: () => Promise<boolean>,
  o: { ms?: number; shotDir?: string } = {},
): Promise<void> {
  const ms = o.ms ?? 30_000;
  const end = Date.now() + ms;
  while (!(await f())) {
    if (Date.now() > end) {
      const shot = o.shotDir ? join(o.shotDir, 'failure.png') : undefined;
      if (shot) await page.screenshot({ path: shot }).catch(() => {});
      throw new Error(
        `condition not met within ${ms} ms: ${f.toString()} (${shot ? `page: ${shot}, ` : ''}title: ${await page.title()}, server: ${served.stderr().slice(-500)})`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface Ui {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Console errors and page errors seen so far. */
  problems: string[];
}

export async function openUi(
  browser: Browser,
  url: string,
  opts: { colorScheme?: 'light' | 'dark'; locale?: string } = {},
): Promise<Ui> {
  const context = await browser.newContext({
    viewport: { width: 1360, height: 860 },
    colorScheme: opts.colorScheme ?? 'light',
    locale: opts.locale ?? 'en-US',
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  await page.goto(url);
  return { browser, context, page, problems };
}

/** Run the knack CLI against the same home and data folder (to check what the engine says). */
export function knack(
  args: string[],
  o: Pick<ServeOptions, 'home' | 'dataDir'> & { workspace: string },
): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [join(ROOT, 'bin', 'knack.js'), ...args, '--workspace', o.workspace], {
      cwd: ROOT,
      env: { ...process.env, HOME: o.home, KNACK_DATA_DIR: o.dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    p.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    p.on('exit', (code) => resolve({ code: code ?? 1, out, err }));
  });
}
