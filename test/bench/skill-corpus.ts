// A realistic skills folder for the open benches: each skill like the public ones (SKILL.md, two references with code
// blocks, a Python and a shell script), every fifth with a `pip install` line (a P1 finding), the same bytes each run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const WORDS =
  'review commit deploy test build lint format database query schema migrate release branch merge docs api cache index search render parse compile bundle profile trace log metric alert backup restore'.split(
    ' ',
  );
function words(seed: number, n: number): string {
  const out: string[] = [];
  let x = (seed * 2654435761) >>> 0;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out.push(WORDS[x % WORDS.length]!);
  }
  return out.join(' ');
}

/** Write `n` skill folders `skill-0` … under `skillsDir`; returns the bytes written. */
export function writeSkillCorpus(skillsDir: string, n: number): number {
  let bytes = 0;
  const put = (p: string, text: string): void => {
    mkdirSync(join(p, '..'), { recursive: true });
    writeFileSync(p, text);
    bytes += Buffer.byteLength(text);
  };
  for (let i = 0; i < n; i++) {
    const dir = join(skillsDir, `skill-${i}`);
    const steps = Array.from({ length: 30 }, (_, k) => `${k + 1}. ${words(i * 31 + k, 12)}.`).join('\n');
    const install =
      i % 5 === 0 ? '\n```bash\npip install requests rich\n```\n' : '\n```bash\ngit status\ngit diff --stat\n```\n';
    put(
      join(dir, 'SKILL.md'),
      `---\nname: skill-${i}\ndescription: Use when the user asks to ${words(i, 14)}.\nlicense: MIT\n---\n# Skill ${i}\n\n${steps}\n${install}\nSee [the guide](references/guide.md).\n`,
    );
    const para = (seed: number) => Array.from({ length: 8 }, (_, k) => words(seed + k, 16) + '.').join(' ');
    put(
      join(dir, 'references', 'guide.md'),
      `# Guide\n\n${Array.from({ length: 10 }, (_, k) => para(i + k * 7)).join('\n\n')}\n\n\`\`\`python\nimport json\nwith open(path) as f:\n    data = json.load(f)\n\`\`\`\n`,
    );
    put(
      join(dir, 'references', 'api.md'),
      `# API\n\n| call | meaning |\n|---|---|\n${Array.from({ length: 40 }, (_, k) => `| \`${words(i + k, 1)}_${k}(x)\` | ${words(i + k, 8)} |`).join('\n')}\n`,
    );
    put(
      join(dir, 'scripts', 'report.py'),
      `#!/usr/bin/env python3\n"""Summarise a JSON report."""\nimport json, sys\n\n${Array.from({ length: 30 }, (_, k) => `def step_${k}(data):\n    return [x for x in data if x.get("${words(k, 1)}")]\n`).join('\n')}\nif __name__ == "__main__":\n    print(json.dumps(step_0(json.load(sys.stdin))))\n`,
    );
    put(
      join(dir, 'scripts', 'check.sh'),
      `#!/bin/sh\nset -eu\n${Array.from({ length: 20 }, (_, k) => `echo "${words(i + k, 6)}"`).join('\n')}\ngit log --oneline -5\n`,
    );
  }
  return bytes;
}
