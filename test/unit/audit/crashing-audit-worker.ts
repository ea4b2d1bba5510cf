// A test entry for the audit pool: the audit worker's protocol (audit-serve.ts) over the real auditor, except that a
// folder named `crash-exit…` ends the thread silently (process.exit: no 'error' event), one named `crash-throw…`
// throws out of it, one named `crash-once…` ends it the first time only, one named `hang…` never returns, one named
// `wait…` waits (asleep) until a file `go` appears in it, and a parse request holding a `crash-parse…` folder ends the
// thread.
import { existsSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { auditFolder } from '../../../main/core/skills/trust/audit.js';
import { parseSkillFile } from '../../../main/core/skills/format/manifest.js';
import { sayReady, serveAuditPool } from '../../../main/core/skills/trust/audit-serve.js';

const sleeper = new Int32Array(new SharedArrayBuffer(4));

serveAuditPool({
  parse(files) {
    if (files.some((f) => basename(dirname(f)).startsWith('crash-parse'))) process.exit(9);
    return files.map((f) => parseSkillFile(f, { folderName: null }));
  },
  audit(j) {
    if (basename(j.dir).startsWith('crash-exit')) process.exit(7);
    if (basename(j.dir).startsWith('crash-once') && !existsSync(`${j.dir}.crashed`)) {
      writeFileSync(`${j.dir}.crashed`, '');
      process.exit(8);
    }
    if (basename(j.dir).startsWith('crash-throw')) throw new Error(`hostile folder ${basename(j.dir)}`);
    // A folder that hangs the auditor (a runaway loop): the thread never answers.
    if (basename(j.dir).startsWith('hang')) for (;;);
    // A folder that takes long (a big one on a slow disk): the thread is busy with it until the test lets it go.
    if (basename(j.dir).startsWith('wait')) while (!existsSync(join(j.dir, 'go'))) Atomics.wait(sleeper, 0, 0, 10);
    return auditFolder(j.dir, j.parsed ? { parsed: j.parsed } : {});
  },
});
sayReady();
