// `knack skills match` answers one message trigger by trigger (matchNaive) instead of building the automaton: the two
// must give the same answer, over a real catalog: the bench's generated skills (test/bench/skill-corpus.ts), the public
// skills of the fixtures and the built-in skills, for the bench's message and for each trigger said in a sentence, in
// another case, after a slash, beside a Chinese request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, tempDir } from '../../helpers/tmp.js';
import { writeSkillCorpus } from '../../bench/skill-corpus.js';
import { openCatalog } from '../../../main/core/skills/catalog/catalog.js';
import { resolvePaths } from '../../../main/core/config/paths.js';
import { SkillMatcher } from '../../../main/core/skills/use/matcher.js';

test('one message matched trigger by trigger is what the automaton answers, over the bench corpus and the fixtures', async () => {
  const root = tempDir('knack-one-shot-match-');
  const ws = join(root, 'ws');
  writeSkillCorpus(join(ws, '.workbuddy', 'skills'), 300);
  const user = join(root, 'home', '.workbuddy', 'skills');
  mkdirSync(user, { recursive: true });
  cpSync(join(FIXTURES, 'public-skills'), user, { recursive: true });
  const paths = resolvePaths({ home: join(root, 'home'), dataDir: join(root, 'data') });
  const catalog = await openCatalog({ paths, workspace: ws });
  const enabled = catalog.enabled();
  const tiers = new Set(enabled.map((e) => e.tier));
  assert.ok(enabled.length > 300 && tiers.size === 3, `${enabled.length} skills in ${[...tiers].join(', ')}`);

  const messages = ['please review the commit and deploy the release', 'migrate the database schema', ''];
  for (const e of enabled) {
    for (const phrase of [...e.manifest.readWhen, e.manifest.name]) {
      messages.push(
        `could you ${phrase} for me, then check the logs`,
        phrase.toUpperCase(),
        `/${e.manifest.name} ${phrase}`,
        `帮我${phrase}，谢谢`,
      );
    }
  }
  const matcher = new SkillMatcher(enabled);
  let matched = 0;
  for (const m of messages) {
    const once = matcher.matchNaive(m);
    assert.deepEqual(once, matcher.match(m), m);
    if (once.length) matched++;
  }
  // Most messages trigger something: the comparison is over answers, not over empty lists.
  assert.ok(matched > messages.length / 2, `${matched} of ${messages.length} messages matched`);
});
