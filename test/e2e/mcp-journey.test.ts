// The MCP server form, in Debian's Chromium through serve mode: add the fixture stdio server (official SDK) from the
// Tools page, after a review of what it will run and its network; it starts inside the sandbox and its tools are
// listed, the resource tools with them; turn it off (its tools go, its process ends), remove it (its entry leaves
// mcp.json). The server is the workspace's `tools/tracker.mjs`, run as `node tools/tracker.mjs`: the review (and its
// screenshots, English and Chinese, light and dark) shows what a user types, no temporary path. Axe clean.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { leftAfter, withEnv } from '../helpers/procs.js';
import { journey, seriousA11y, skip } from './journey.js';
import { saveScreens } from './ui-screens.js';

const SERVER = join(import.meta.dirname, '..', 'fixtures', 'mcp', 'server.mjs');
/** The server's secret, unique to this run: finds its process by its environment (the page shows it as dots). */
const TOKEN = `tok-e2e-${process.pid}`;

const app = journey({
  name: 'mcp',
  untilMs: 60_000,
  // The fixture, linked into the workspace (node resolves its imports from where it really is).
  prepare: ({ workspace }) => {
    mkdirSync(join(workspace, 'tools'), { recursive: true });
    symlinkSync(SERVER, join(workspace, 'tools', 'tracker.mjs'));
  },
  ready: ({ page }) => page.getByRole('textbox', { name: 'Message' }).waitFor({ timeout: 60_000 }),
});

test('add a stdio MCP server from the form, see its tools, turn it off and remove it', { skip }, async () => {
  const { page } = app;
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Tools' }).click();
  await page.getByRole('heading', { name: 'Always loaded' }).waitFor({ timeout: 60_000 });
  // The section's heading and its button share a line, centred on each other.
  const centre = async (l: ReturnType<typeof page.getByRole>) => {
    const b = (await l.boundingBox())!;
    return b.y + b.height / 2;
  };
  const heading = await centre(page.getByRole('heading', { name: 'MCP servers' }));
  const add = await centre(page.getByRole('button', { name: 'Add MCP server' }));
  assert.ok(Math.abs(heading - add) < 2, `the heading (${heading}) and Add MCP server (${add}) line up`);
  await page.getByRole('button', { name: 'Add MCP server' }).click();
  const form = page.getByRole('form', { name: 'Add MCP server' });
  await form.getByLabel('Name', { exact: true }).fill('tracker');
  await form.getByLabel('Command').fill('node');
  await form.getByLabel('Arguments, one per line').fill(['tools/tracker.mjs', '--name', 'tracker'].join('\n'));
  await form.getByRole('button', { name: 'Add a variable' }).click();
  await form.getByLabel('Name 1').fill('TRACKER_TOKEN');
  await form.getByLabel('Value of TRACKER_TOKEN').fill(TOKEN);
  await form.getByRole('button', { name: 'Review…' }).click();

  const review = page.getByRole('region', { name: 'Review before it starts' });
  await review.getByText('node tools/tracker.mjs --name tracker', { exact: true }).waitFor();
  await review.getByText('none: it cannot reach the network').waitFor();
  await review.getByText('TRACKER_TOKEN=••••••').waitFor();
  assert.ok(!(await page.content()).includes(TOKEN), 'the secret is not on the page');
  // Laid out as the window's other facts: each value on its label's line, not indented on a line of its own.
  const middle = async (text: string) => {
    const b = (await review.getByText(text, { exact: true }).boundingBox())!;
    return b.y + b.height / 2;
  };
  for (const [label, value] of [
    ['It will run', 'node tools/tracker.mjs --name tracker'],
    ['Environment variables', 'TRACKER_TOKEN=••••••'],
  ])
    assert.ok(Math.abs((await middle(label!)) - (await middle(value!))) < 4, `${value} is on the line of ${label}`);
  assert.deepEqual(await seriousA11y(page), []);
  await saveScreens(page, 'mcp-form');

  await review.getByRole('button', { name: 'Save and start' }).click();
  await page.getByText('mcp__tracker__create_issue').waitFor({ timeout: 60_000 });
  // The resource tools come with the first server, at once.
  await page.getByText('ListMcpResources', { exact: true }).waitFor({ timeout: 60_000 });
  const row = page.getByRole('region', { name: 'MCP servers' }).getByRole('listitem').filter({ hasText: 'tracker' });
  await row.getByText('connected').waitFor({ timeout: 60_000 });
  // Its on/off checkbox is a checkbox's size, beside its label (not stretched like a text field in a row).
  const check = (await row.getByRole('checkbox', { name: 'Run tracker' }).boundingBox())!;
  assert.ok(check.width < 30, `the checkbox is ${check.width}px wide`);
  const file = join(app.dataDir, 'mcp.json');
  const saved = JSON.parse(readFileSync(file, 'utf8')) as {
    mcpServers: Record<string, { command: string; env: Record<string, string>; disabled?: boolean }>;
  };
  assert.equal(saved.mcpServers.tracker!.command, 'node');
  assert.equal(saved.mcpServers.tracker!.env.TRACKER_TOKEN, TOKEN);
  assert.ok(withEnv(`TRACKER_TOKEN=${TOKEN}`).length > 0, 'the server runs');
  assert.deepEqual(await seriousA11y(page), []);

  await row.getByRole('checkbox', { name: 'Run tracker' }).uncheck();
  await row.getByText('turned off').waitFor({ timeout: 60_000 });
  await app.until(async () => !(await page.getByText('mcp__tracker__create_issue').count()));
  assert.deepEqual(await leftAfter(() => withEnv(`TRACKER_TOKEN=${TOKEN}`), 10_000), [], 'its process ended');
  assert.equal(JSON.parse(readFileSync(file, 'utf8')).mcpServers.tracker.disabled, true);

  await row.getByRole('button', { name: 'Remove tracker' }).click();
  await row.getByRole('group', { name: 'Remove tracker' }).getByRole('button', { name: 'Remove tracker' }).click();
  await page.getByText('No MCP servers configured.').waitFor({ timeout: 60_000 });
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')).mcpServers, {});
});
