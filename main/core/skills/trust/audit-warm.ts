// Warms the auditor in a fresh thread: a built-in sample skill (prose, lists, fences, code spans, a checklist, an HTML
// comment, a Python and a shell script) read a few times, so the first real folders run optimised code, not cold code.
import { auditText, quietLinesOf } from './audit.js';

const SKILL = `# Release helper

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

const FILES: { name: string; text: string; kind: 'markdown' | 'shell' | 'script' }[] = [
  { name: 'SKILL.md', text: SKILL, kind: 'markdown' },
  { name: 'scripts/notes.py', text: PYTHON, kind: 'script' },
  { name: 'scripts/release.sh', text: SHELL, kind: 'shell' },
];

/** Read the sample skill `rounds` times through the same steps a folder's files take (findings are dropped). */
export function warmAuditor(rounds: number): void {
  const bufs = FILES.map((f) => Buffer.from(f.text, 'utf8'));
  const description = { text: 'Use when the user asks to cut a release, write the changelog or tag a version.', line: 3 };
  for (let r = 0; r < rounds; r++) {
    FILES.forEach((f, i) => {
      const quiet = quietLinesOf(bufs[i]!);
      auditText(f.name, f.text, f.kind, { quiet, ...(i === 0 ? { description } : {}) });
    });
  }
}
