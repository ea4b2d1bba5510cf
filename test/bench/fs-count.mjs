// Loaded into a `knack` process by the scale bench (`node --import`; plain JavaScript, so no loader's own file calls
// are counted): counts the file-system calls that make a Node `Stats` or read a folder, and prints them to stderr at
// exit as `knack-bench-fs={…}`. Wraps node:fs in the measured process only; product code is not changed to be counted.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { isMainThread } from 'node:worker_threads';

if (isMainThread) {
  const counts = {};
  for (const name of ['statSync', 'lstatSync', 'fstatSync', 'readdirSync', 'opendirSync']) {
    const real = fs[name];
    fs[name] = function (...a) {
      counts[name] = (counts[name] ?? 0) + 1;
      return real.apply(this, a);
    };
  }
  // `import { statSync } from 'node:fs'` binds to the module's named exports: point them at the counters too.
  syncBuiltinESMExports();
  process.on('exit', () => process.stderr.write(`knack-bench-fs=${JSON.stringify(counts)}\n`));
}
