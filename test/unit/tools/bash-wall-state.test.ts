// bash states where its commands run (its summary on the Tools page, in English and Chinese) and its handler runs them
// there, for every state of the wall and every sandbox mode; the model reads the same description in every state and
// learns where each command ran from its result: real walls (the sandbox up, unavailable with no bubblewrap on PATH,
// off in settings, closed with their workspace) and real commands.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { assertSaid } from '../../helpers/words.js';
import { Wall, WallError } from '../../../main/core/contain/index.js';
import { createBashTool } from '../../../main/core/tools/builtin/bash.js';
import { summaryWords } from '../../../main/core/service/tools.js';

type Where = 'inside' | 'host' | 'refused';
type Mode = 'off' | 'auto' | 'required';

interface Row {
  name: string;
  wall: () => Promise<Wall> | undefined;
  /** The summary's word code on the Tools page. */
  words: string;
  /** Where a plain command runs; with `sandbox: false`; and one the gate allowed because it would be contained. */
  plain: Where;
  unsandboxed: Where;
  contained: Where;
}

test(
  'bash runs a command where its summary says and its result tells, for every wall and sandbox mode',
  {
    skip: process.platform !== 'linux',
  },
  async (t) => {
    const home = tempDir('knack-bash-wall-');
    const ws = join(home, 'ws');
    mkdirSync(ws, { recursive: true });
    const place = { workspace: ws, home, dataDir: join(home, '.knack') };
    const walls: Wall[] = [];
    t.after(() => Promise.all(walls.map((w) => w.close())));
    const open = async (mode: Mode, opts: { bwrap?: boolean; closed?: boolean } = {}): Promise<Wall> => {
      const path = process.env.PATH;
      // Bubblewrap is looked for on PATH as the wall opens: an empty PATH leaves the sandbox unavailable.
      if (opts.bwrap === false) process.env.PATH = tempDir();
      try {
        const w = await Wall.open(place, mode);
        walls.push(w);
        if (opts.closed) await w.close();
        return w;
      } finally {
        process.env.PATH = path;
      }
    };
    const wall = async (mode: Mode, opts: { bwrap?: boolean; closed?: boolean } = {}) => {
      const w = await open(mode, opts);
      return () => Promise.resolve(w);
    };

    const rows: Row[] = [
      {
        name: 'no sandbox given',
        wall: () => undefined,
        words: 'toolSummary.bash.asks',
        plain: 'host',
        unsandboxed: 'host',
        contained: 'refused',
      },
      {
        name: 'off in settings',
        wall: await wall('off'),
        words: 'toolSummary.bash.off',
        plain: 'host',
        unsandboxed: 'host',
        contained: 'host',
      },
      {
        name: 'off in settings, closed',
        wall: await wall('off', { closed: true }),
        words: 'toolSummary.bash.closed',
        plain: 'refused',
        unsandboxed: 'refused',
        contained: 'refused',
      },
      {
        name: 'auto, up',
        wall: await wall('auto'),
        words: 'toolSummary.bash',
        plain: 'inside',
        unsandboxed: 'host',
        contained: 'inside',
      },
      {
        name: 'auto, unavailable',
        wall: await wall('auto', { bwrap: false }),
        words: 'toolSummary.bash.asks',
        plain: 'host',
        unsandboxed: 'host',
        contained: 'refused',
      },
      {
        name: 'auto, closed',
        wall: await wall('auto', { closed: true }),
        words: 'toolSummary.bash.closed',
        plain: 'refused',
        unsandboxed: 'refused',
        contained: 'refused',
      },
      {
        name: 'required, up',
        wall: await wall('required'),
        words: 'toolSummary.bash',
        plain: 'inside',
        unsandboxed: 'refused',
        contained: 'inside',
      },
      {
        name: 'required, unavailable',
        wall: await wall('required', { bwrap: false }),
        words: 'toolSummary.bash.refused',
        plain: 'refused',
        unsandboxed: 'refused',
        contained: 'refused',
      },
      {
        name: 'required, closed',
        wall: await wall('required', { closed: true }),
        words: 'toolSummary.bash.closed',
        plain: 'refused',
        unsandboxed: 'refused',
        contained: 'refused',
      },
      {
        name: 'asked of a closed workspace',
        wall: () => Promise.reject(new WallError(`the workspace ${ws} is closed: its sandbox does not start again`)),
        words: 'toolSummary.bash.closed',
        plain: 'refused',
        unsandboxed: 'refused',
        contained: 'refused',
      },
    ];

    // Before the sandbox answers, the Tools page says it is starting; the model is told no state of it.
    const description = createBashTool().description;
    const starting = createBashTool(new Promise<Wall>(() => {}));
    assert.equal(summaryWords({ source: 'builtin', def: starting })?.code, 'toolSummary.bash.starting');
    assert.equal(starting.description, description);

    let n = 0;
    for (const row of rows) {
      const p = row.wall();
      p?.catch(() => undefined);
      const bash = createBashTool(p);
      await p?.catch(() => undefined);
      const words = summaryWords({ source: 'builtin', def: bash });
      assert.equal(words?.code, row.words, `${row.name}: summary ${bash.summary}`);
      assertSaid(words, bash.summary, row.name);
      assert.equal(bash.description, description, `${row.name}: the description names no state of the wall`);

      const run = async (args: { sandbox?: boolean }, contained: boolean): Promise<Where> => {
        const file = `ran-${++n}`;
        const r = await bash.handler(
          { command: `touch ${file}`, ...args },
          {
            workspace: ws,
            actor: { kind: 'agent' as const, activeSkills: [] },
            ...(contained ? { decision: { verdict: 'allow' as const, reason: 'test', sandbox: { hosts: [] } } } : {}),
          },
        );
        const ran = existsSync(join(ws, file));
        if (!r.ok) {
          assert.equal(r.error.code, 'sandbox.unavailable', `${row.name}: ${JSON.stringify(r)}`);
          assert.equal(ran, false, `${row.name}: refused, yet ${file} was made`);
          return 'refused';
        }
        assert.equal(ran, true, `${row.name}: ${JSON.stringify(r)}`);
        const c = r.content as { sandboxed: boolean; sandboxNote?: string };
        // Run without the sandbox, the result says so and why.
        if (!c.sandboxed)
          assert.match(c.sandboxNote ?? '', /^ran WITHOUT the OS sandbox( \(it is|, as asked)/, row.name);
        return c.sandboxed ? 'inside' : 'host';
      };
      assert.equal(await run({}, false), row.plain, `${row.name}: a plain command`);
      assert.equal(await run({ sandbox: false }, false), row.unsandboxed, `${row.name}: sandbox: false`);
      assert.equal(await run({}, true), row.contained, `${row.name}: allowed as contained`);
    }
  },
);
