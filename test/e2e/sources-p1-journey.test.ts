// A P1 skill from a git repository in Debian's Chromium through serve mode: Install → From a repository or marketplace
// → pick a clean and a P1 skill → Review → Approve. The clean one installs; the P1 one shows its findings and waits
// in the dialog. Reject leaves nothing installed; a checkout changed between review and install, or the held copy
// changed before its approval, is refused; a skill still waiting when the dialog closes is reviewed and approved from
// the sidebar's "waiting for your approval", and installs exactly what was reviewed, even after the repository moved on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { skillMd } from '../helpers/tmp.js';
import { makeRepo, type TestRepo } from '../helpers/git-repos.js';
import { journey, skip, type StartOptions } from './journey.js';

const clean = skillMd({ name: 'tidy', description: 'The tidy skill' }, '# Tidy\n\nKeep things in order.\n');
const risky = (marker: string) =>
  skillMd(
    { name: 'fetcher', description: 'The fetcher skill' },
    `# Fetch\n\n\`\`\`bash\ncurl -s https://api.example.com/data\n\`\`\`\n\n${marker}\n`,
  );

let repo: TestRepo;

// serve's TMPDIR is set below, once the journey has made the folder: the fetched checkouts go there.
const serve: StartOptions = {};
const app = journey({
  name: 'srcp1',
  serve,
  prepare: () => {
    repo = makeRepo(repos, 'mixed', {
      'skills/tidy/SKILL.md': clean,
      'skills/fetcher/SKILL.md': risky('reviewed'),
    });
  },
  ready: (a) => a.until(async () => (await a.page.title()).startsWith('srcp1-project — ')),
});
const { workspace, dataDir } = app;
const repos = app.tempDir('knack-e2e-srcp1-repos-');
const tmp = app.tempDir('knack-e2e-srcp1-tmp-');
serve.env = { TMPDIR: tmp };

const skillsDir = join(workspace, '.workbuddy', 'skills');
const lockFile = join(workspace, '.workbuddy', 'skills.lock.json');
const locked = (): Record<string, { commit: string; contentHash: string }> =>
  existsSync(lockFile) ? JSON.parse(readFileSync(lockFile, 'utf8')).skills : {};
const staged = () => (existsSync(join(dataDir, 'fetched')) ? readdirSync(join(dataDir, 'fetched')) : []);
/** The folders in `root` named `prefix…`. */
const foldersIn = (root: string, prefix: string) => readdirSync(root).filter((n) => n.startsWith(prefix));
/** Every file under the `folders` of `root` whose path ends in `tail`. */
const filesEnding = (root: string, folders: string[], tail: string) =>
  folders
    .flatMap((n) => readdirSync(join(root, n), { recursive: true, encoding: 'utf8' }).map((p) => join(root, n, p)))
    .filter((p) => p.endsWith(tail));

const dialog = () => app.page.getByRole('dialog', { name: 'Install a skill' });

const sidebar = () => app.page.getByRole('navigation', { name: 'Skills' });
const badge = () => sidebar().getByRole('button', { name: /waiting for your approval/ });
/** The sidebar's count of held installs, opened: the review of each. */
async function waiting(count: number) {
  await sidebar()
    .getByRole('button', { name: `${count} waiting for your approval` })
    .click();
  return app.page.getByRole('dialog', { name: 'Waiting for your approval' });
}

/** Open the dialog, fetch the repository and tick `names`; the list as shown. */
async function fetchAndPick(names: string[]) {
  await app.page.getByRole('button', { name: 'Install skill' }).click();
  const d = dialog();
  await d.getByRole('tab', { name: 'From a repository or marketplace' }).click();
  await d.getByLabel('Repository or marketplace').fill(repo.url);
  await d.getByRole('button', { name: 'Fetch' }).click();
  const list = d.getByRole('list', { name: 'Skills in this source' });
  await list.getByRole('listitem').nth(1).waitFor();
  for (const name of names)
    await list
      .getByRole('listitem')
      .filter({ hasText: `The ${name} skill` })
      .getByRole('checkbox')
      .check();
  return list;
}

/** Review the picks; the content hash shown for `name` (its first 16 characters). */
async function review(name: string, count: number): Promise<string> {
  const d = dialog();
  await d.getByRole('button', { name: `Review ${count} skill${count === 1 ? '' : 's'}` }).click();
  const item = d
    .getByRole('list', { name: 'Review before installing' })
    .getByRole('listitem')
    .filter({ hasText: name });
  return (await item.locator('code').innerText()).trim();
}

test(
  'the P1 skill waits in the dialog with its findings; Reject leaves it uninstalled, the clean one installed',
  { skip },
  async () => {
    const list = await fetchAndPick(['tidy', 'fetcher']);
    const row = (name: string) => list.getByRole('listitem').filter({ hasText: `The ${name} skill` });
    await row('tidy').getByText('P2 · clean').waitFor();
    await row('fetcher').getByText('P1 · needs your approval').waitFor();
    await review('fetcher', 2);
    const d = dialog();
    await d.getByRole('button', { name: 'Approve', exact: true }).click();
    await d.getByRole('button', { name: 'Approve fetcher' }).waitFor();
    await d.getByText('installed', { exact: true }).waitFor();
    await d.getByText('waits for your approval', { exact: true }).waitFor();
    // The audit block of the held skill: the finding with its file:line, rule and line.
    await d.getByText('SKILL.md:8').waitFor();
    await d.getByText('network.curl').waitFor();
    await d.getByText('curl -s https://api.example.com/data').first().waitFor();
    assert.ok(existsSync(join(skillsDir, 'tidy', 'SKILL.md')));
    assert.ok(!existsSync(join(skillsDir, 'fetcher')), 'nothing of the P1 skill before approval');
    assert.equal(staged().length, 1, 'the held copy waits for the decision');

    await d.getByRole('button', { name: 'Reject fetcher' }).click();
    await d.getByText('rejected', { exact: true }).waitFor();
    assert.equal(await d.getByRole('button', { name: 'Approve fetcher' }).count(), 0);
    assert.ok(!existsSync(join(skillsDir, 'fetcher')));
    assert.deepEqual(Object.keys(locked()), ['tidy']);
    assert.deepEqual(staged(), [], 'the held copy is dropped');
    await d.getByRole('button', { name: 'Close' }).click();
    await dialog().waitFor({ state: 'detached' });
    assert.deepEqual(app.ui.problems, []);
  },
);

test(
  'a checkout changed between review and Approve is refused; so is a held copy changed before its approval',
  { skip },
  async () => {
    // The update check that tidy's install started keeps its own clone of this repository in the same folder, made
    // at about the same time: the dialog's checkout is the one folder this fetch adds, whichever is newer.
    const before = foldersIn(tmp, 'knack-fetch-');
    await fetchAndPick(['fetcher']);
    const shown = await review('fetcher', 1);
    const added = foldersIn(tmp, 'knack-fetch-').filter((n) => !before.includes(n));
    assert.equal(added.length, 1, `one checkout added under ${tmp}: ${added.join(', ')}`);
    // The checkout the list and the review were read from, changed after the review.
    const [checkout] = filesEnding(tmp, added, join('skills', 'fetcher', 'SKILL.md'));
    assert.ok(checkout, `the fetched checkout under ${tmp}`);
    writeFileSync(checkout, risky('swapped after the review'));
    const d = dialog();
    await d.getByRole('button', { name: 'Approve', exact: true }).click();
    await d.getByText('refused', { exact: true }).waitFor();
    await d.getByText(`fetcher: changed since it was reviewed (content ${shown.slice(0, 12)} → `).waitFor();
    assert.ok(!existsSync(join(skillsDir, 'fetcher')));
    assert.deepEqual(staged(), []);
    await d.getByRole('button', { name: 'Close' }).click();
    await dialog().waitFor({ state: 'detached' });

    // Held for approval, the dialog closed, then the held copy changes: the approval is for the reviewed content only.
    await fetchAndPick(['fetcher']);
    await review('fetcher', 1);
    await d.getByRole('button', { name: 'Approve', exact: true }).click();
    await d.getByRole('button', { name: 'Approve fetcher' }).waitFor();
    await d.getByRole('button', { name: 'Close' }).click();
    await dialog().waitFor({ state: 'detached' });
    const fetched = join(dataDir, 'fetched');
    const [held] = filesEnding(fetched, foldersIn(fetched, 'src-'), join('fetcher', 'SKILL.md'));
    assert.ok(held, 'the held copy');
    writeFileSync(held, risky('swapped while held'));
    const w = await waiting(1);
    await w.getByRole('button', { name: 'Approve fetcher' }).click();
    await w.getByText(/fetcher changed after it was reviewed .* install it again to review it/).waitFor();
    assert.ok(!existsSync(join(skillsDir, 'fetcher')), 'a changed held copy is not installed');
    assert.deepEqual(staged(), []);
    await w.getByRole('button', { name: 'Close' }).click();
    await w.waitFor({ state: 'detached' });
    // The failed approval is closed with its copy: nothing waits in its name to be approved later.
    await badge().waitFor({ state: 'detached' });
    assert.deepEqual(Object.keys(locked()), ['tidy']);
    assert.deepEqual(app.ui.problems, []);
  },
);

test(
  'Approve installs the P1 skill as reviewed, bound to its hash, though the repository moved on meanwhile',
  { skip },
  async () => {
    // New content, never approved: the approval given in the test before was for other content.
    const reviewed = repo.commit({ 'skills/fetcher/SKILL.md': risky('reviewed and approved') });
    await fetchAndPick(['fetcher']);
    const shown = await review('fetcher', 1);
    const later = repo.commit({ 'skills/fetcher/SKILL.md': risky('pushed after the review') });
    const d = dialog();
    await d.getByRole('button', { name: 'Approve', exact: true }).click();
    await d.getByRole('button', { name: 'Approve fetcher' }).waitFor();
    // Closed while it waits: the sidebar keeps it, and its review is the same (findings, the reviewed hash).
    await d.getByRole('button', { name: 'Close' }).click();
    await dialog().waitFor({ state: 'detached' });
    assert.ok(!existsSync(join(skillsDir, 'fetcher')));
    const w = await waiting(1);
    await w.getByText('network.curl').waitFor();
    await w.getByText('curl -s https://api.example.com/data').first().waitFor();
    await w.getByText(shown, { exact: true }).waitFor();
    await w.getByRole('button', { name: 'Approve fetcher' }).click();
    await w.getByText('installed', { exact: true }).waitFor();
    await w.getByRole('button', { name: 'Close' }).click();
    await badge().waitFor({ state: 'detached' });
    assert.match(readFileSync(join(skillsDir, 'fetcher', 'SKILL.md'), 'utf8'), /reviewed and approved/);
    const entry = locked().fetcher!;
    assert.ok(entry.contentHash.startsWith(shown), `locked ${entry.contentHash}, reviewed ${shown}`);
    assert.equal(entry.commit, reviewed, 'the commit that was reviewed');
    assert.notEqual(entry.commit, later);
    assert.deepEqual(staged(), []);
    await sidebar().getByRole('switch', { name: 'Enable fetcher' }).waitFor();
    assert.deepEqual(app.ui.problems, []);
  },
);
