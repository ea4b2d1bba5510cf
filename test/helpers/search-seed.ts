// The derived Chinese–English map (main/core/search/bilingual.ts) for test data folders, built once per test run.
// A data folder derives it (~2.4 s of CPU) on its first search and keeps it in `<data>/cache/`; test/run.js names one
// folder for the whole run (KNACK_TEST_SEARCH_SEED), where the first test file that makes a data folder builds it with
// the product's own loader, and every data folder after that starts with a copy. Without the variable (a test file run on
// its own) nothing is copied and each data folder builds its own, as a user's does; the loader's tests
// (test/unit/skills-match/bilingual.test.ts) never take a copy, so building from scratch stays tested.
import { closeSync, constants, copyFileSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { basename, join } from 'node:path';
import { bilingualStamp, loadBilingualMap } from '../../main/core/search/bilingual.js';
import { tempDir } from './tmp.js';

let seeded: string | undefined;

/**
 * The run's derived map, or undefined outside test/run.js or while another file of the run is building it: the first
 * file to ask builds it (with the product's loader, which writes it atomically), the others copy nothing meanwhile and
 * each data folder builds its own if it searches, as without a seed. Nothing waits and it is built once.
 */
function seedFile(): string | undefined {
  const dir = process.env.KNACK_TEST_SEARCH_SEED;
  if (!dir) return undefined;
  if (seeded) return seeded;
  const file = join(dir, `bilingual-${bilingualStamp()}.tsv`);
  if (existsSync(file)) return (seeded = file);
  try {
    closeSync(openSync(join(dir, 'building'), 'wx'));
  } catch {
    return undefined;
  }
  loadBilingualMap({ cacheDir: dir });
  return existsSync(file) ? (seeded = file) : undefined;
}

/** Start `dataDir` with the run's derived Chinese–English map in its `cache/` (nothing outside test/run.js). */
export function seedSearchCache(dataDir: string): void {
  copySeed(join(dataDir, 'cache'));
}

/**
 * A fresh cache folder (removed after the file) for a search a test builds itself (`cacheDir` of SkillSearch or
 * crossLanguageExpander), starting with the run's derived map; empty outside test/run.js, where the first search
 * derives the map into it.
 */
export function searchCacheDir(): string {
  const dir = tempDir('knack-search-cache-');
  copySeed(dir);
  return dir;
}

function copySeed(cache: string): void {
  const file = seedFile();
  if (!file) return;
  const target = join(cache, basename(file));
  if (existsSync(target)) return;
  mkdirSync(cache, { recursive: true });
  // A copy, not a link: a test that damages its cache file must not damage the run's.
  copyFileSync(file, target, constants.COPYFILE_FICLONE);
}
