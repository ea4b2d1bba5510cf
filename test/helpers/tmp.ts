// Test helpers: throwaway folders that clean up after the test, and skill folders written to disk.
import { existsSync, mkdtempSync, mkdirSync, readdirSync, rmSync, writeFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after } from 'node:test';

/** A fresh real temp folder, removed when the test file finishes. */
export function tempDir(prefix = 'knack-test-'): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Under a fresh temp folder: a workspace folder (`repo`, not created), an empty home and built-in skills folder. */
export function workspaceFolders(): { root: string; ws: string; home: string; builtin: string } {
  const root = tempDir();
  const home = join(root, 'home');
  const builtin = join(root, 'builtin');
  mkdirSync(home, { recursive: true });
  mkdirSync(builtin, { recursive: true });
  return { root, ws: join(root, 'repo'), home, builtin };
}

/** Write files under `root`: `{ 'a/SKILL.md': '...' }`. */
export function writeTree(root: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const p = join(root, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
}

/** SKILL.md text from frontmatter lines and a body. */
export function skillMd(
  frontmatter: Record<string, unknown> | string,
  body = '# Instructions\n\nDo the thing.\n',
): string {
  const fm =
    typeof frontmatter === 'string'
      ? frontmatter
      : Object.entries(frontmatter)
          .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
          .join('\n');
  return `---\n${fm}\n---\n${body}`;
}

/** test/fixtures: real files the tests and benchmarks read (sources and licences in its README.md). */
export const FIXTURES = join(import.meta.dirname, '..', 'fixtures');

/** Every SKILL.md of the real public skills (test/fixtures/public-skills/<repo>/skills/<skill>/SKILL.md), in folder order. */
export function publicSkillFiles(): string[] {
  const root = join(FIXTURES, 'public-skills');
  const files: string[] = [];
  for (const repo of readdirSync(root)) {
    const dir = join(root, repo, 'skills');
    if (!existsSync(dir)) continue;
    for (const s of readdirSync(dir)) if (existsSync(join(dir, s, 'SKILL.md'))) files.push(join(dir, s, 'SKILL.md'));
  }
  return files;
}
