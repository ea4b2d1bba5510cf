// The auditor's warm-up sample: a skill like the public ones (prose, lists, fences, code spans, a checklist, an HTML
// comment, a multilingual reference with a table, a Python and a shell script), as texts and as a folder on disk.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const SAMPLE_SKILL = `# Release helper

Use this skill when the user asks to cut a release, write the changelog or tag a version.

## Steps

1. Read \`package.json\` and the last tag (\`git describe --tags\`).
2. Collect the merged pull requests since that tag.
3. Write the changelog entry under \`## Unreleased\`, grouped by kind.
   - Features first, then fixes, then chores.
   - Link each entry to its pull request.
4. Run the tests before tagging:

\`\`\`bash
npm ci
npm test -- --reporter=dot
git tag -a "v$VERSION" -m "release $VERSION" && \\
  git push origin "v$VERSION"
\`\`\`

Install the helper once with \`pip install release-notes\` if it is missing, or \`npm install -g changelog-cli\`.

| command | meaning |
|---|---|
| \`git log --oneline\` | the commits since the tag |
| \`gh pr list --state merged\` | the merged pull requests |

## Red flags

Watch for these in a contributed script:
- \`eval(\` on input from the network
- \`curl … | sh\` downloads that run at once
- \`rm -rf "$DIR"/\` with an unchecked variable

<!-- maintainers: keep this list short -->

See [the guide](references/guide.md) for the release calendar. Never upload secrets or tokens anywhere.

    $ python3 scripts/notes.py --since v1.2.0
    wrote CHANGELOG.md
`;

const PYTHON = `#!/usr/bin/env python3
"""Collect release notes from merged pull requests."""
import json
import os
import subprocess
import sys


def merged_since(tag):
    out = subprocess.run(["git", "log", "--merges", "--oneline", f"{tag}..HEAD"], capture_output=True, text=True, check=True)
    return [line.split(" ", 1)[1] for line in out.stdout.splitlines() if " " in line]


def main():
    tag = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("LAST_TAG", "v0.0.0")
    notes = {"tag": tag, "entries": merged_since(tag)}
    with open("notes.json", "w") as f:
        json.dump(notes, f, indent=2)
    print(json.dumps(notes))


if __name__ == "__main__":
    main()
`;

const SHELL = `#!/bin/sh
set -eu
VERSION="\${1:?usage: release.sh VERSION}"
echo "releasing $VERSION"
git fetch --tags origin
if git rev-parse "v$VERSION" >/dev/null 2>&1; then
  echo "tag v$VERSION exists" >&2
  exit 1
fi
npm version "$VERSION" --no-git-tag-version
git commit -am "release $VERSION"
`;

const GUIDE = `# Release guide

Releases go out on the first Tuesday of the month. Les notes de version sont rédigées en français et en anglais;
日本語のリリースノートも用意します。 Ask in #releases 🚀 when in doubt.

| step | owner | when |
|---|---|---|
| freeze | maintainers | Monday |
| tag | release captain | Tuesday |
| announce | docs team | Wednesday |

\`\`\`python
import json
with open("notes.json") as f:
    data = json.load(f)
print(len(data["entries"]))
\`\`\`

Check the [calendar](https://example.com/calendar) and the \`CHANGELOG.md\` before tagging.
`;

const FRONTMATTER = '---\nname: release-helper\ndescription: Use when the user asks to cut a release, write the changelog or tag a version.\nlicense: MIT\n---\n';

export const SAMPLE_FILES: { name: string; text: string; kind: 'markdown' | 'shell' | 'script' }[] = [
  { name: 'SKILL.md', text: SAMPLE_SKILL, kind: 'markdown' },
  { name: 'scripts/notes.py', text: PYTHON, kind: 'script' },
  { name: 'scripts/release.sh', text: SHELL, kind: 'shell' },
];

/**
 * Write the sample skill into a new private temporary folder (SKILL.md with its frontmatter, a reference, the scripts)
 * and give its path; undefined when the temporary folder cannot be written (the warm-up then uses the texts alone).
 */
export function writeSampleSkill(): string | undefined {
  let dir: string | undefined;
  try {
    dir = mkdtempSync(join(tmpdir(), 'knack-audit-warm-'));
    if (!live.size) process.once('exit', removeAll);
    live.add(dir);
    const put = (rel: string, text: string): void => {
      mkdirSync(dirname(join(dir!, rel)), { recursive: true });
      writeFileSync(join(dir!, rel), text);
    };
    put('SKILL.md', FRONTMATTER + SAMPLE_SKILL);
    put('references/guide.md', GUIDE);
    for (const f of SAMPLE_FILES.slice(1)) put(f.name, f.text);
    return dir;
  } catch {
    if (dir) removeSampleSkill(dir);
    return undefined;
  }
}

/** Sample folders written and not yet removed: removed at exit at the latest. */
const live = new Set<string>();
function removeAll(): void {
  for (const d of [...live]) removeSampleSkill(d);
}

export function removeSampleSkill(dir: string): void {
  live.delete(dir);
  if (!live.size) process.off('exit', removeAll);
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    // a temporary folder: the system clears it
  }
}
