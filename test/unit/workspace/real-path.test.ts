// A workspace has one identity, its real path, whoever opens it and however the folder is spelled (a symlinked
// folder, macOS's /tmp): what is stored for it — an "always" rule — is found again by the gate, which compares real
// paths. The CLI's --workspace is canonicalised the same way, and a mistyped one stays one clear error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { openWorkspace } from '../../../main/core/workspace.js';
import { resolvePaths } from '../../../main/core/config/paths.js';
import { buildContext, CliError, type Command } from '../../../main/cli/command.js';
import { capture } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/tmp.js';

const skip = process.platform === 'win32';

function linked() {
  const home = tempDir();
  const real = tempDir();
  const link = join(tempDir(), 'proj');
  symlinkSync(real, link);
  return { paths: resolvePaths({ home, dataDir: join(home, '.knack') }), real: realpathSync.native(real), link };
}

test(
  'a workspace opened through a symlinked folder (or a relative spelling) is the real folder',
  { skip },
  async () => {
    const { paths, real, link } = linked();
    for (const spelling of [link, relative(process.cwd(), link), `${link}/./`]) {
      const ws = await openWorkspace({ paths, workspace: spelling, watch: false, audit: false });
      try {
        assert.equal(ws.workspace, real, spelling);
      } finally {
        await ws.close();
      }
    }
  },
);

test(
  'through a symlinked folder, an "always" answer covers the same call in the next conversation and after a reopen',
  { skip },
  async () => {
    const { paths, link } = linked();
    // With the OS sandbox up a plain command runs inside it unasked: off, every command asks and "always" saves a rule.
    mkdirSync(paths.dataDir, { recursive: true });
    writeFileSync(join(paths.dataDir, 'settings.json'), JSON.stringify({ sandbox: { mode: 'off' } }));
    const asked: string[] = [];
    const approver = async (req: { tool: string }) => {
      asked.push(req.tool);
      return 'always' as const;
    };
    const run = async () => {
      const ws = await openWorkspace({
        paths,
        workspace: link,
        watch: false,
        audit: false,
        approver,
        requireStore: true,
      });
      try {
        const r = await (await ws.newSession()).call('bash', { command: 'git status' });
        assert.ok(r.ok || !['tool.denied', 'tool.declined'].includes(r.error.code), JSON.stringify(r));
      } finally {
        await ws.close();
      }
    };
    await run();
    await run();
    assert.deepEqual(asked, ['bash'], 'asked again: the rule was stored under the link and never matched');
  },
);

test(
  'the CLI takes --workspace under its real path; a missing folder, a dangling link and a file are one clear error each',
  { skip },
  () => {
    const { real, link } = linked();
    const cmd: Command = { path: ['skills', 'list'], summary: '', usage: '[--workspace DIR]', run: async () => 0 };
    const ctx = (ws: string) => buildContext(cmd, ['--workspace', ws], capture().io, {});
    assert.equal(ctx(link).workspace, real);
    const dangling = join(tempDir(), 'gone');
    symlinkSync(join(tempDir(), 'never-made'), dangling);
    const file = join(real, 'notes.txt');
    writeFileSync(file, 'x');
    for (const [given, why] of [
      [join(real, 'no-such'), 'no such folder'],
      [dangling, 'no such folder'],
      [file, 'not a folder'],
      [join(file, 'below'), 'not a folder'],
    ] as const) {
      assert.throws(
        () => ctx(given),
        (e: unknown) => e instanceof CliError && e.message === `--workspace ${given}: ${why}`,
        given,
      );
    }
  },
);
