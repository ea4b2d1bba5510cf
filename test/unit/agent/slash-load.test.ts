// `/name` at the start of a message loads that skill as the user's choice (the window's `/` menu writes it): its
// instructions reach the model with no trigger matching; a word that names no skill is only text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentEnv, recorder } from '../../helpers/agent-env.js';
import { skillMd } from '../../helpers/tmp.js';
import { slashSkills } from '../../../main/core/agent/index.js';
import type { AgentEvent } from '../../../main/core/agent/types.js';

test('the /names a message starts with, and nothing else', () => {
  assert.deepEqual(slashSkills('/git-commit /lint tidy up'), ['git-commit', 'lint']);
  assert.deepEqual(slashSkills('  /翻译 把这段翻成英文'), ['翻译']);
  assert.deepEqual(slashSkills('/tmp/x is big'), []);
  assert.deepEqual(slashSkills('please /git-commit'), []);
  assert.deepEqual(slashSkills('/a'), ['a']);
});

test('a message starting with /name loads that skill by the user’s choice; /usr loads nothing and says nothing', async () => {
  const env = await agentEnv({
    files: {
      '.workbuddy/skills/weekly/SKILL.md': skillMd(
        { name: 'weekly', description: 'Write the weekly report', read_when: ['weekly report'] },
        '# Weekly\n\nWEEKLY-MARKER-3: group by project.\n',
      ),
    },
  });
  env.server.script({ text: 'Done.' }, { text: 'Yes.' });
  const chat = env.agent.newSession();
  const evs = recorder(chat);
  await chat.send('/weekly for the team');
  const loaded = evs.filter((e): e is Extract<AgentEvent, { type: 'skill_loaded' }> => e.type === 'skill_loaded');
  assert.deepEqual(
    loaded.map((e) => [e.name, e.reason]),
    [['weekly', 'user']],
  );
  assert.match(JSON.stringify(env.server.requests[0]!.body.system), /WEEKLY-MARKER-3/);
  await chat.send('/usr is a folder');
  assert.equal(evs.filter((e) => e.type === 'error').length, 0);
});
