// Held installs leave nothing behind: each install waiting for approval keeps exactly one copy in the data folder
// (a fetched clone, an uploaded zip, a draft), deciding it removes that copy (CLI and window alike), and at open the
// copies no approval waits for are removed and said once, while an approval whose copy is gone shows as such.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { tempDir, skillMd } from '../../helpers/tmp.js';
import { cliFolders, run } from '../../helpers/cli.js';
import { callerOf, testWorkspace } from '../../helpers/service-env.js';
import { makeRepo } from '../../helpers/git-repos.js';
import { resolvePaths } from '../../../main/core/config/paths.js';
import { KnackService } from '../../../main/core/service/index.js';
import { Store } from '../../../main/core/store/index.js';
import { approvePendingInstall, SWEEP_GRACE_MS } from '../../../main/core/skills/trust/index.js';

const root = tempDir('knack-held-');
const repos = join(root, 'repos');
mkdirSync(repos);
const tmp = join(root, 'tmp');
mkdirSync(tmp);
process.env.TMPDIR = tmp;
let n = 0;

const p1 = (name: string) =>
  skillMd({ name, description: `Fetches ${name}` }, '# Fetch\n\n```bash\ncurl -s https://api.example.com/data\n```\n');

/** A fresh home, data folder and workspace, the CLI over them, and what each holding folder holds. */
function env() {
  const f = cliFolders(join(root, `env-${++n}`));
  mkdirSync(f.ws, { recursive: true });
  const list = (d: string) => (existsSync(join(f.data, d)) ? readdirSync(join(f.data, d)) : []);
  return {
    ...f,
    tier: join(f.home, '.workbuddy', 'skills'),
    knack: (args: string[]) => run([...args, ...f.args]),
    fetched: () => list('fetched'),
    uploads: () => list('uploads'),
  };
}

const heldId = (err: string) => /held for approval (\S+):/.exec(err)?.[1];

/** The window's service over the same home and data folder. */
async function windowOf(t: { after(fn: () => unknown): void }, e: ReturnType<typeof env>) {
  const service = new KnackService({
    paths: resolvePaths({ home: e.home, dataDir: e.data, builtinSkillsDir: join(root, 'none') }),
    transport: 'serve',
    version: 't',
    log: () => {},
    workspaceOptions: testWorkspace,
  });
  await service.openWorkspace(e.ws);
  t.after(() => service.close());
  return callerOf(service);
}

/** Make every holder look older than the sweep's grace (as if left there yesterday). */
function age(dir: string) {
  const old = new Date(Date.now() - 2 * SWEEP_GRACE_MS);
  for (const name of readdirSync(dir)) utimesSync(join(dir, name), old, old);
}

const risky = makeRepo(repos, 'risky', { 'SKILL.md': p1('getter') });

test('the same source held twice keeps one copy; rejecting it removes that copy', async () => {
  const e = env();
  const first = await e.knack(['skills', 'add', risky.url]);
  assert.equal(first.code, 1, first.err);
  const again = await e.knack(['skills', 'add', risky.url]);
  assert.equal(again.code, 1, again.err);
  assert.equal(heldId(again.err), heldId(first.err), 'the second add is the same held install');
  assert.equal(e.fetched().length, 1, 'one held install, one copy');
  const r = await e.knack(['skills', 'reject', heldId(first.err)!]);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(e.fetched(), []);
  assert.ok(!existsSync(join(e.tier, 'getter')));
  assert.deepEqual(
    readdirSync(tmp).filter((x) => x.startsWith('knack-fetch-')),
    [],
    'no temporary clone stays behind',
  );
});

test('held, then added again with --yes: installed from one copy, and no copy of the earlier hold stays', async () => {
  const e = env();
  const held = await e.knack(['skills', 'add', risky.url]);
  assert.equal(held.code, 1, held.err);
  const yes = await e.knack(['skills', 'add', risky.url, '--yes']);
  assert.equal(yes.code, 0, yes.err);
  assert.ok(existsSync(join(e.tier, 'getter', 'SKILL.md')));
  assert.deepEqual(e.fetched(), []);
  const list = await e.knack(['skills', 'approvals', '--json']);
  assert.deepEqual(JSON.parse(list.out), [], 'the earlier hold was the one approved');
});

test('held twice, then approved: installed and nothing left in the data folder', async () => {
  const e = env();
  const held = await e.knack(['skills', 'add', risky.url]);
  await e.knack(['skills', 'add', risky.url]);
  const ok = await e.knack(['skills', 'approve', heldId(held.err)!]);
  assert.equal(ok.code, 0, ok.err);
  assert.ok(existsSync(join(e.tier, 'getter', 'SKILL.md')));
  assert.deepEqual(e.fetched(), []);
});

test('knack skills reject removes a held upload and a held draft the window made; the window Reject does too', async (t) => {
  const e = env();
  const call = await windowOf(t, e);
  const data = Buffer.from(zipSync({ 'getter/SKILL.md': strToU8(p1('getter')) })).toString('base64');
  const zipped = await call('skills.installUpload', { filename: 'getter.zip', data, tier: 'user' });
  assert.equal(zipped.status, 'pending');
  const twice = await call('skills.installUpload', { filename: 'getter.zip', data, tier: 'user' });
  assert.equal(twice.approvalId, zipped.approvalId);
  assert.equal(e.uploads().length, 1, 'the same zip dropped twice is held once');
  const draft = await call('skills.installDraft', { text: p1('drafted'), tier: 'user' });
  assert.equal(draft.status, 'pending');
  assert.equal(e.uploads().length, 2);

  for (const id of [zipped.approvalId!, draft.approvalId!]) {
    const r = await e.knack(['skills', 'reject', id]);
    assert.equal(r.code, 0, r.err);
  }
  assert.deepEqual(e.uploads(), [], 'the zip and the draft are gone with their approvals');

  const again = await call('skills.installDraft', { text: p1('drafted'), tier: 'user' });
  assert.equal(e.uploads().length, 1);
  const rejected = await call('skills.rejectInstall', { approvalId: again.approvalId! });
  assert.equal(rejected.status, 'rejected');
  assert.deepEqual(e.uploads(), []);
  assert.deepEqual((await call('skills.pendingInstalls', {})).items, []);
});

test('at open, copies no approval waits for are removed and said once; a fresh copy in the making is left', async (t) => {
  const e = env();
  // A decided approval whose copy stayed (approved by a caller that did not settle it), one still waited for, and
  // copies left by processes that stopped between copying and recording their approval.
  const held = await e.knack(['skills', 'add', risky.url]);
  const store = Store.openIn(e.data);
  assert.equal(approvePendingInstall(store, heldId(held.err)!).status, 'installed');
  store.close();
  const waiting = makeRepo(repos, 'waiting', { 'SKILL.md': p1('waiter') });
  const w = await e.knack(['skills', 'add', waiting.url]);
  assert.equal(w.code, 1, w.err);
  assert.equal(e.fetched().length, 2);
  mkdirSync(join(e.data, 'fetched', 'src-crashed', 'skill'), { recursive: true });
  writeFileSync(join(e.data, 'fetched', 'src-crashed', 'skill', 'SKILL.md'), p1('crashed'));
  mkdirSync(join(e.data, 'uploads', 'zip-crashed'), { recursive: true });
  age(join(e.data, 'fetched'));
  age(join(e.data, 'uploads'));
  // A copy being made right now by another process is young: left alone.
  mkdirSync(join(e.data, 'fetched', 'src-new', 'skill'), { recursive: true });

  const call = await windowOf(t, e);
  const pending = await call('skills.pendingInstalls', {});
  assert.deepEqual(
    pending.items.map((i) => i.skill),
    ['waiter'],
  );
  assert.equal(pending.removed?.length, 3, 'the window is told what was removed');
  assert.deepEqual(e.uploads(), []);
  assert.equal(e.fetched().length, 2, 'the waiting copy and the one in the making stay');
  assert.ok(e.fetched().includes('src-new'));

  const cli = await e.knack(['skills', 'approvals']);
  assert.doesNotMatch(cli.err, /removed/, 'said once: nothing is left to remove');
});

test('knack says the copies it removes at open, once', async () => {
  const e = env();
  mkdirSync(join(e.data, 'fetched', 'src-left', 'skill'), { recursive: true });
  age(join(e.data, 'fetched'));
  const first = await e.knack(['skills', 'approvals']);
  assert.equal(first.code, 0, first.err);
  assert.match(first.err, /info: removed 1 held copy of skills no install was waiting for any more.*fetched\/src-left/);
  assert.deepEqual(e.fetched(), []);
  const second = await e.knack(['skills', 'approvals']);
  assert.doesNotMatch(second.err, /removed/);
});

test('an approval whose copy is gone shows as no longer available and can be dismissed', async (t) => {
  const e = env();
  const held = await e.knack(['skills', 'add', risky.url]);
  const id = heldId(held.err)!;
  rmSync(join(e.data, 'fetched'), { recursive: true, force: true });
  const listed = await e.knack(['skills', 'approvals']);
  assert.match(listed.out, new RegExp(`${id} .*\\n.*\\n  no longer available: .* is gone; dismiss it`));
  const approve = await e.knack(['skills', 'approve', id]);
  assert.equal(approve.code, 2);
  assert.match(approve.err, new RegExp(`approval ${id} is no longer available: .*fetched.* is gone; reject it`));
  const call = await windowOf(t, e);
  const [item] = (await call('skills.pendingInstalls', {})).items;
  assert.equal(item?.approvalId, id);
  assert.equal(item?.gone, true);
  const dismissed = await call('skills.rejectInstall', { approvalId: id });
  assert.equal(dismissed.status, 'rejected');
  assert.deepEqual((await call('skills.pendingInstalls', {})).items, []);
  assert.ok(!existsSync(join(e.tier, 'getter')));
});

test('a held copy is no install source: the window and the CLI refuse another pending install’s copy, however it is named', async (t) => {
  const e = env();
  const held = await e.knack(['skills', 'add', risky.url]);
  assert.equal(held.code, 1, held.err);
  const id = heldId(held.err)!;
  const [holder] = e.fetched();
  const [name] = readdirSync(join(e.data, 'fetched', holder!)).filter((x) => x !== 'source.json');
  const copy = join(e.data, 'fetched', holder!, name!);
  assert.ok(existsSync(join(copy, 'SKILL.md')), 'the held copy is where the attack points');
  // A client (or a model writing paths) asks to install that copy for another tier: two approvals would share one
  // copy, and deciding either would pull the other's files away. The copy by a link, its holder folder, and the data
  // folder's own held folder are the same attack.
  const link = join(root, `link-${n}`);
  symlinkSync(copy, link);
  const call = await windowOf(t, e);
  for (const source of [copy, link, join(e.data, 'fetched', holder!), join(e.data, 'fetched')]) {
    await assert.rejects(call('skills.install', { source, tier: 'project' }), (err: Error & { code?: string }) => {
      assert.equal(err.code, 'refused', source);
      assert.match(err.message, /is a copy Knack holds for an install waiting for approval/, source);
      return true;
    });
    const cli = await e.knack(['skills', 'install', source, '--scope', 'project', '--yes']);
    assert.equal(cli.code, 2, cli.err);
    assert.match(cli.err, /refused: .* is a copy Knack holds for an install waiting for approval/);
  }
  assert.ok(!existsSync(join(e.ws, '.workbuddy', 'skills', 'getter')), 'nothing installed for the other tier');
  const approvals = JSON.parse((await e.knack(['skills', 'approvals', '--json'])).out) as { id: string }[];
  assert.deepEqual(
    approvals.map((a) => a.id),
    [id],
    'no second approval shares the copy',
  );
  // The approval's own copy is intact and installs.
  const ok = await e.knack(['skills', 'approve', id]);
  assert.equal(ok.code, 0, ok.err);
  assert.ok(existsSync(join(e.tier, 'getter', 'SKILL.md')));
  assert.deepEqual(e.fetched(), []);
});

test('a held copy is no skill source: knack skills add and the window’s source open refuse held folders and their parents', async (t) => {
  const e = env();
  const held = await e.knack(['skills', 'add', risky.url]);
  assert.equal(held.code, 1, held.err);
  const id = heldId(held.err)!;
  const call = await windowOf(t, e);
  const data = Buffer.from(zipSync({ 'uploaded/SKILL.md': strToU8(p1('uploaded')) })).toString('base64');
  const upload = await call('skills.installUpload', { filename: 'uploaded.zip', data, tier: 'user' });
  assert.equal(upload.status, 'pending');
  const [holder] = e.fetched();
  const [name] = readdirSync(join(e.data, 'fetched', holder!)).filter((x) => x !== 'source.json');
  const copy = join(e.data, 'fetched', holder!, name!);
  assert.ok(existsSync(join(copy, 'SKILL.md')), 'the held copy is where the attack points');
  const [zipHolder] = e.uploads();
  const zip = join(e.data, 'uploads', zipHolder!, 'uploaded.zip');
  assert.ok(existsSync(zip));
  // A source listing other pending installs' copies: the copy, a link to it, its holder, the held folders, a link to
  // one, and the folders above them (the data folder, a link to it), whose walk reaches every copy.
  const linkToCopy = join(root, `add-link-${n}`);
  symlinkSync(copy, linkToCopy);
  const linkToData = join(root, `data-link-${n}`);
  symlinkSync(e.data, linkToData);
  const linkToUploads = join(root, `uploads-link-${n}`);
  symlinkSync(join(e.data, 'uploads'), linkToUploads);
  const inside = [copy, linkToCopy, join(e.data, 'fetched', holder!), join(e.data, 'fetched'), linkToUploads, zip];
  const above = [e.data, linkToData, `${e.data}/../data`];
  for (const source of [...inside, ...above]) {
    const cli = await e.knack(['skills', 'add', source, '--all', '--scope', 'project', '--yes']);
    assert.equal(cli.code, 2, `${source}: ${cli.err}`);
    assert.match(
      cli.err,
      /Knack holds for an install waiting for approval|Knack keeps the copies of skills for installs waiting for approval/,
    );
    await assert.rejects(
      call('sources.open', { source }),
      (err: Error & { code?: string; words?: { code: string } }) => {
        assert.equal(err.code, 'refused', source);
        assert.equal(err.words?.code, inside.includes(source) ? 'install.heldCopy' : 'install.holdsHeld', source);
        return true;
      },
    );
  }
  assert.ok(!existsSync(join(e.ws, '.workbuddy', 'skills')), 'nothing installed for the other tier');
  const approvals = JSON.parse((await e.knack(['skills', 'approvals', '--json'])).out) as { id: string }[];
  assert.deepEqual(approvals.map((a) => a.id).sort(), [id, upload.approvalId!].sort(), 'no approval shares a copy');
  assert.equal(e.fetched().length, 1);
  assert.equal(e.uploads().length, 1);
  // The approval's own copy is intact and installs.
  const ok = await e.knack(['skills', 'approve', id]);
  assert.equal(ok.code, 0, ok.err);
  assert.ok(existsSync(join(e.tier, 'getter', 'SKILL.md')));
});

test('rejecting an approval that points into <data>/drafts leaves the draft, in the CLI and the window', async (t) => {
  const e = env();
  const drafts = join(e.data, 'drafts');
  /** A kept draft the user installs by hand (or one `/save-skill` once staged there): it may hold the user's edits. */
  const draftAt = (holder: string, name: string) => {
    const dir = join(drafts, holder, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'SKILL.md'), p1(name));
    return dir;
  };
  const holdFor = async (dir: string) => {
    const held = await e.knack(['skills', 'install', dir]);
    assert.equal(held.code, 1, held.err);
    return heldId(held.err) ?? '';
  };
  const viaCli = draftAt('draft-cli', 'drafted');
  const viaWindow = draftAt('draft-window', 'windowed');
  const cliId = await holdFor(viaCli);
  const windowId = await holdFor(viaWindow);
  assert.ok(cliId && windowId);

  const r = await e.knack(['skills', 'reject', cliId]);
  assert.equal(r.code, 0, r.err);
  const call = await windowOf(t, e);
  const rejected = await call('skills.rejectInstall', { approvalId: windowId });
  assert.equal(rejected.status, 'rejected');
  assert.ok(existsSync(join(viaCli, 'SKILL.md')) && existsSync(join(viaWindow, 'SKILL.md')), 'the drafts stay');
  assert.deepEqual(JSON.parse((await e.knack(['skills', 'approvals', '--json'])).out), []);
  const again = await e.knack(['skills', 'reject', cliId]);
  assert.equal(again.code, 2, 'a decided approval is not rejected twice');
  assert.match(again.err, new RegExp(`no pending approval ${cliId}`));
});
