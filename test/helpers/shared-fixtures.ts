// Where the shared read-only fixtures live: the nearest `shared/fixtures` above this folder, so benches run the
// same from the main checkout (/work/main) and from a worktree one level deeper (/work/wt/<name>).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

export function sharedFixtures(from = import.meta.dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'fixtures');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error(`no shared/fixtures folder above ${from}`);
  }
}
