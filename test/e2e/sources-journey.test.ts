// Skills from a git repository in Debian's Chromium through serve mode: Install → From a repository or marketplace →
// pick two of five skills → review → Approve → both in the sidebar, the source on the detail page; then the source
// widens one skill's permissions, the Updates badge shows the permission diff, and the update is approved.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { skillMd } from '../helpers/tmp.js';
import { makeRepo, type TestRepo } from '../helpers/git-repos.js';
import { journey, skip } from './journey.js';

const fm = (name: string, network: boolean) =>
  skillMd(`name: ${name}\ndescription: The ${name} skill\npermissions:\n  tools: [read_file]\n  network: ${network}`);

let repo: TestRepo;

const app = journey({
  name: 'src',
  files: { 'README.md': '# sources\n' },
  prepare: () => {
    repo = makeRepo(repos, 'five', {
      'skills/alpha/SKILL.md': fm('alpha', false),
      'skills/beta/SKILL.md': fm('beta', false),
      'skills/gamma/SKILL.md': fm('gamma', false),
      'skills/delta/SKILL.md': fm('delta', false),
      'skills/epsilon/SKILL.md': fm('epsilon', false),
    });
  },
  ready: (a) => a.until(async () => (await a.page.title()).startsWith('src-project — ')),
});
const { workspace } = app;
const repos = app.tempDir('knack-e2e-src-repos-');

const sidebar = () => app.page.getByRole('navigation', { name: 'Skills' });

test(
  'Install → From a repository → pick two of five → review → Approve: both in the sidebar, source on the detail page',
  { skip },
  async () => {
    await app.page.getByRole('button', { name: 'Install skill' }).click();
    const dialog = app.page.getByRole('dialog', { name: 'Install a skill' });
    await dialog.getByRole('tab', { name: 'From a repository or marketplace' }).click();
    await dialog.getByLabel('Repository or marketplace').fill(repo.url);
    await dialog.getByRole('button', { name: 'Fetch' }).click();
    const list = dialog.getByRole('list', { name: 'Skills in this source' });
    await list.getByRole('listitem').nth(4).waitFor();
    assert.equal(await list.getByRole('listitem').count(), 5);
    assert.equal(await list.getByText('P2 · clean').count(), 5);
    const pick = (name: string) =>
      list
        .getByRole('listitem')
        .filter({ hasText: `The ${name} skill` })
        .getByRole('checkbox')
        .check();
    await pick('beta');
    await pick('delta');
    await dialog.getByRole('button', { name: 'Review 2 skills' }).click();
    const review = dialog.getByRole('list', { name: 'Review before installing' });
    await review.getByText('beta', { exact: true }).waitFor();
    await review.getByText('delta', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await app.until(async () => (await dialog.getByText('installed', { exact: true }).count()) === 2);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await sidebar().getByRole('switch', { name: 'Enable beta' }).waitFor();
    await sidebar().getByRole('switch', { name: 'Enable delta' }).waitFor();
    assert.equal(await sidebar().getByRole('switch', { name: 'Enable alpha' }).count(), 0);
    await sidebar().getByText('beta', { exact: true }).click();
    const origin = app.page.getByRole('region', { name: 'Source' });
    await origin.getByText(repo.url).waitFor();
    await origin.getByText('skills/beta').waitFor();
    const lock = JSON.parse(readFileSync(join(workspace, '.workbuddy', 'skills.lock.json'), 'utf8'));
    assert.deepEqual(Object.keys(lock.skills), ['beta', 'delta']);
    assert.deepEqual(app.ui.problems, []);
  },
);

test(
  'an update that turns the network on shows the permission diff under Updates and waits for Approve',
  { skip },
  async () => {
    const next = repo.commit({ 'skills/beta/SKILL.md': fm('beta', true) });
    await sidebar().getByRole('button', { name: 'Check for updates' }).click();
    const badge = sidebar().getByRole('button', { name: 'Updates: 1' });
    await badge.waitFor();
    await badge.click();
    const dialog = app.page.getByRole('dialog', { name: 'Skill updates' });
    const item = dialog.getByRole('region', { name: 'beta' });
    await item
      .getByText(/network/)
      .first()
      .waitFor();
    await item.getByText('~ SKILL.md').waitFor();
    await item.getByRole('button', { name: 'Update' }).click();
    await item.getByText('waits for your approval', { exact: false }).waitFor();
    assert.match(readFileSync(join(workspace, '.workbuddy', 'skills', 'beta', 'SKILL.md'), 'utf8'), /network: false/);
    await item.getByRole('button', { name: 'Approve' }).click();
    await item.getByText('installed', { exact: true }).waitFor();
    assert.match(readFileSync(join(workspace, '.workbuddy', 'skills', 'beta', 'SKILL.md'), 'utf8'), /network: true/);
    const lock = JSON.parse(readFileSync(join(workspace, '.workbuddy', 'skills.lock.json'), 'utf8'));
    assert.equal(lock.skills.beta.commit, next);
    assert.deepEqual(app.ui.problems, []);
  },
);
