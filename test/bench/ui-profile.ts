// Profiles the streamed answer of the UI bench in Debian's Chromium (CPU profile over the DevTools protocol, an
// unminified renderer build): prints the long tasks and the functions with the most self time. A tool, not a bench:
//   [SKILLS=2000] [TRACE=trace.json] node --import tsx test/bench/ui-profile.ts [chars]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeAnthropic } from '../helpers/fake-anthropic.js';
import { ROOT, launchChromium, startServe } from '../e2e/ui-harness.js';
import { longAnswer, OBSERVE, until } from './ui-stream.js';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const root = mkdtempSync(join(tmpdir(), 'knack-profile-ui-'));
const { build } = await import('vite');
const renderer = join(root, 'renderer');
await build({
  configFile: join(ROOT, 'vite.config.ts'),
  logLevel: 'error',
  build: { outDir: renderer, emptyOutDir: true, minify: false },
});
const server = await startFakeAnthropic();
const browser = await launchChromium();
const home = join(root, 'home');
const ws = join(root, 'ws');
// SKILLS=N: that many project skills in the sidebar (the bench streams beside 2,000).
for (let i = 0; i < Number(process.env.SKILLS ?? 1); i++) {
  const name = `skill-${String(i).padStart(4, '0')}`;
  mkdirSync(join(ws, '.workbuddy', 'skills', name), { recursive: true });
  writeFileSync(
    join(ws, '.workbuddy', 'skills', name, 'SKILL.md'),
    `---\nname: ${name}\ndescription: skill number ${i}.\n---\n# ${name}\n`,
  );
}
const served = await startServe({
  renderer,
  workspace: ws,
  home,
  dataDir: join(home, 'data'),
  args: ['--provider', 'anthropic', '--model', 'fake', '--base-url', server.url],
  env: { ANTHROPIC_API_KEY: 'sk-ant-bench' },
});
try {
  const ctx = await browser.newContext({ viewport: { width: 1360, height: 860 } });
  await ctx.addInitScript(OBSERVE);
  const page = await ctx.newPage();
  await page.goto(served.url);
  await page.waitForSelector('[role="switch"][aria-label^="Enable "]', { timeout: 120_000 });
  if (process.env.TRACE)
    await browser.startTracing(page, {
      path: process.env.TRACE,
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink.user_timing', 'toplevel'],
    });
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  server.script({ chunks: longAnswer(Number(process.argv[2] ?? 80_000)), chunkDelayMs: 1 });
  await page.getByRole('textbox', { name: 'Message' }).fill('write the long report');
  await page.keyboard.press('Enter');
  await until(page, '.composer button.danger', 60_000);
  await until(page, '.composer button[type="submit"]', 600_000);
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
  if (process.env.TRACE) await browser.stopTracing();
  const lt = await page.evaluate(() => (globalThis as unknown as { __lt: { start: number; ms: number }[] }).__lt);
  console.log('long tasks (ms):', lt.map((e) => Math.round(e.ms)).join(' '));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byFn = new Map<string, number>();
  for (const n of profile.nodes) {
    const f = n.callFrame;
    const k = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    byFn.set(k, (byFn.get(k) ?? 0) + (self.get(n.id) ?? 0) / 1000);
  }
  const total = [...byFn.values()].reduce((a, b) => a + b, 0);
  console.log(`profiled ${Math.round(total)} ms; top self time:`);
  for (const [k, ms] of [...byFn.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40))
    console.log(`${ms.toFixed(0).padStart(7)} ms  ${k}`);
  await ctx.close();
} finally {
  await served.stop();
  await browser.close();
  await server.close();
  rmSync(root, { recursive: true, force: true });
}
