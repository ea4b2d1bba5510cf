// The one set-up of a Chromium journey: temporary home, data folder and workspace, the fake Anthropic server, `knack
// serve` on the shared renderer build, one Chromium for the file and a page in a fresh context, with its console and
// page errors collected. Clean-up always runs (also after a set-up that failed half way): the browser, serve and the
// fake server end before the temporary folders are removed.
//
//   const app = journey({ name: 'model', ready: (a) => a.page.getByRole('textbox', { name: 'Message' }).waitFor() });
//   test('…', { skip }, async () => { await app.page.getByRole(…); await app.until(async () => …); });
import { after, before } from 'node:test';
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright';
import { tempDir, writeTree } from '../helpers/tmp.js';
import { seedSearchCache } from '../helpers/search-seed.js';
import { startFakeAnthropic, type FakeServer } from '../helpers/fake-anthropic.js';
import {
  buildRenderer,
  chromiumPath,
  knack,
  launchChromium,
  openUi,
  pollUntil,
  startServe,
  type Served,
  type Ui,
} from './ui-harness.js';

/** Every journey is skipped, with the reason, where Debian's Chromium is not installed. */
export const skip = chromiumPath() ? false : 'Debian Chromium is not installed here (set KNACK_CHROMIUM)';

/**
 * A folder the window shows by its path, `name` its own name. A temporary one; with KNACK_SCREENSHOTS=1, a stable
 * path a user could have (`/tmp/work/my-project`), so the committed screenshots show no random temporary names and
 * do not change from one run to the next. Made at once, removed when the file ends; a second screenshot run that
 * would share it fails, naming it. Call it at the top level, not in a hook.
 */
export function shownDir(name: string, prefix = 'knack-e2e-'): string {
  if (process.env.KNACK_SCREENSHOTS !== '1') {
    const dir = join(tempDir(prefix), name);
    mkdirSync(dir);
    return dir;
  }
  const dir = join(tmpdir(), 'work', name);
  mkdirSync(join(dir, '..'), { recursive: true });
  try {
    mkdirSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    throw new Error(
      `${dir} is there already: another screenshot run uses it, or one that ended early left it (remove it)`,
    );
  }
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The key serve is given for the fake Anthropic server. */
const FAKE_KEY = 'sk-ant-test-0123456789';

/** How serve is started: by default with the journey's folders and, when the journey has the fake server, that model. */
export interface StartOptions {
  home?: string;
  dataDir?: string;
  /** The folder serve opens (--workspace); `false`: none, as `npm start` starts it. */
  workspace?: string | false;
  /** Point serve at the fake Anthropic server with a key (default: when the journey has the server). */
  model?: boolean;
  args?: string[];
  env?: Record<string, string>;
}

export interface JourneyOptions {
  /** Names the temporary folders (knack-e2e-NAME-…) and the workspace folder (NAME-project) unless `folder` does. */
  name: string;
  /** The workspace folder's own name (it shows in the window's title); its path is shownDir()'s. */
  folder?: string;
  /** `false`: the workspace stays in a temporary folder with KNACK_SCREENSHOTS=1 too (a journey with no screenshots). */
  shown?: false;
  /** Files written into the workspace before serve starts (default: a README). */
  files?: Record<string, string>;
  /** Files written into the data folder before serve starts (settings.json, …). */
  data?: Record<string, string>;
  /** Start the fake Anthropic server (default true). */
  model?: boolean;
  /** How serve starts in before(); `false`: it does not, each test calls app.start() (the browser is there). */
  serve?: StartOptions | false;
  /** The page's locale (default en-US). */
  locale?: string;
  /** Runs once the folders and the fake server exist, before serve starts (a damaged database, a git repository …). */
  prepare?: (app: Journey) => void | Promise<void>;
  /** Runs on each new page before it loads the window (routes, listeners). */
  beforeLoad?: (page: Page) => void | Promise<void>;
  /** What the window shows once it is ready, awaited after the page first loads in before() (default: nothing more). */
  ready?: (app: Journey) => Promise<unknown>;
  /** How long app.until() waits by default (ms; pollUntil's default when unset). */
  untilMs?: number;
}

export interface Journey {
  readonly home: string;
  readonly dataDir: string;
  readonly workspace: string;
  /** home, dataDir and workspace, as the CLI helpers take them. */
  readonly dirs: { home: string; dataDir: string; workspace: string };
  /** A fresh temporary folder, removed when the file ends (after serve has stopped); call it at the top level, not in a hook. */
  tempDir(prefix: string): string;
  readonly server: FakeServer;
  readonly served: Served;
  readonly browser: Browser;
  readonly ui: Ui;
  readonly page: Page;
  /** Stop the serve running (if any), close the page's context, start serve as `o` says and open the window in a fresh context. */
  start(o?: StartOptions): Promise<void>;
  /** Close the page's context and stop serve. */
  stop(): Promise<void>;
  /** Poll until `f` holds; past the time, the error names the condition with a screenshot in the home folder. */
  until(f: () => Promise<boolean>, ms?: number): Promise<void>;
  /** A screenshot of the page to `path`, when there is a page (KNACK_E2E_DEBUG); a failure to take it is ignored. */
  screenshot(path: string): Promise<void>;
  /** Run the knack CLI against the journey's home, data folder and workspace. */
  knack(args: string[]): ReturnType<typeof knack>;
}

/**
 * Serious or critical accessibility problems axe finds on the page as it is now. axe.run() in the page itself (legacy
 * mode): the same rules over the same nodes, without opening a blank page to merge per-frame results, which cost seconds
 * a call under load; what it gives up, cross-origin frames, the window has none (no iframe, and its CSP allows none).
 */
export async function seriousA11y(page: Page): Promise<string[]> {
  const r = await new AxeBuilder({ page }).setLegacyMode().analyze();
  return r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** Register the journey's before() and after() and return what the tests use (filled in by before()). */
export function journey(o: JourneyOptions): Journey {
  let server: FakeServer | undefined;
  let served: Served | undefined;
  let browser: Browser | undefined;
  let ui: Ui | undefined;
  let renderer = '';

  // Registered before the temporary folders' own after(): the processes end before their folders go.
  // Each step runs even when another fails; the first failure is reported.
  after(async () => {
    const ended = await Promise.allSettled([browser?.close(), served?.stop(), server?.close()]);
    const failed = ended.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  });

  const home = tempDir(`knack-e2e-${o.name}-home-`);
  const dataDir = join(home, 'data');
  const folder = o.folder ?? `${o.name}-project`;
  const wsPrefix = `knack-e2e-${o.name}-ws-`;
  const workspace = o.shown === false ? join(tempDir(wsPrefix), folder) : shownDir(folder, wsPrefix);
  const rendererOut = join(tempDir(`knack-e2e-${o.name}-renderer-`), 'renderer');
  const need = <T>(v: T | undefined, what: string): T => {
    if (v === undefined) throw new Error(`${what} is not there: the journey's before() has not run, or it failed`);
    return v;
  };

  const app: Journey = {
    home,
    dataDir,
    workspace,
    dirs: { home, dataDir, workspace },
    tempDir,
    get server() {
      return need(server, 'the fake model server');
    },
    get served() {
      return need(served, 'knack serve');
    },
    get browser() {
      return need(browser, 'Chromium');
    },
    get ui() {
      return need(ui, 'the page');
    },
    get page() {
      return need(ui, 'the page').page;
    },
    async start(s = {}) {
      await app.stop();
      const model = s.model ?? server !== undefined;
      const ws = s.workspace ?? workspace;
      served = await startServe({
        renderer,
        home: s.home ?? home,
        dataDir: s.dataDir ?? dataDir,
        ...(ws === false ? {} : { workspace: ws }),
        args: [
          ...(model ? ['--provider', 'anthropic', '--model', 'fake-model', '--base-url', app.server.url] : []),
          ...(s.args ?? []),
        ],
        env: { ...(model ? { ANTHROPIC_API_KEY: FAKE_KEY } : {}), ...s.env },
      });
      ui = await openUi(app.browser, 'about:blank', o.locale ? { locale: o.locale } : {});
      await o.beforeLoad?.(ui.page);
      await ui.page.goto(served.url);
    },
    async stop() {
      await ui?.context.close();
      ui = undefined;
      await served?.stop();
      served = undefined;
    },
    until(f, ms = o.untilMs) {
      return pollUntil(app.page, app.served, f, ms === undefined ? { shotDir: home } : { ms, shotDir: home });
    },
    knack: (args) => knack(args, app.dirs),
    async screenshot(path) {
      await ui?.page.screenshot({ path }).catch(() => {});
    },
  };

  before(async () => {
    if (skip) return;
    mkdirSync(workspace, { recursive: true });
    writeTree(workspace, o.files ?? { 'README.md': `# ${o.name}\n` });
    seedSearchCache(dataDir);
    if (o.data) writeTree(dataDir, o.data);
    if (o.model !== false) server = await startFakeAnthropic();
    await o.prepare?.(app);
    renderer = await buildRenderer(rendererOut);
    browser = await launchChromium();
    if (o.serve === false) return;
    await app.start(o.serve);
    await o.ready?.(app);
  });

  return app;
}
