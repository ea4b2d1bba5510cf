// Review 10b finding 2: the Settings page's provider writers (settings.setProvider, setKey, clearKey) never overwrite a
// providers.json they could not read. A hand-edited file with a trailing comma used to be replaced by one holding only
// the new choice, and the user's own provider was lost; now the call is refused with a `conflict` naming the file and
// the line to fix, and the file is left byte for byte. A file that reads well keeps what Knack does not know about.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serviceEnv } from '../../helpers/service-env.js';

const waits = { timeout: 60_000 };
const trailingComma =
  '{\n  "default": "work",\n  "providers": {\n    "work": { "kind": "openai", "baseURL": "https://llm.corp.example/v1", "model": "m", "keyEnv": "CORP_KEY" },\n  }\n}\n';

test(
  'a providers.json that does not parse: setProvider, setKey and clearKey refuse with the file and line, the file untouched',
  waits,
  async (t) => {
    const s = await serviceEnv(t);
    const file = join(s.paths.dataDir, 'providers.json');
    writeFileSync(file, trailingComma, { mode: 0o600 });
    const calls = [
      () => s.call('settings.setProvider', { preset: 'anthropic', model: 'claude-x' }),
      () => s.call('settings.setKey', { preset: 'openai', key: 'sk-openai-new-0123456789' }),
      () => s.call('settings.clearKey', { preset: 'openai' }),
    ];
    for (const call of calls) {
      await assert.rejects(call(), (e: Error & { code?: string }) => {
        assert.equal(e.code, 'conflict', e.message);
        assert.ok(e.message.includes(file), e.message);
        assert.match(e.message, /line 5, column 3/);
        assert.match(e.message, /fix it.*first/);
        return true;
      });
      assert.equal(readFileSync(file, 'utf8'), trailingComma, "the user's providers.json is left as it was");
    }
  },
);

test(
  'a providers.json that is not an object, whose providers is not one, or whose entry to change is not one: refused too',
  waits,
  async (t) => {
    const s = await serviceEnv(t);
    const file = join(s.paths.dataDir, 'providers.json');
    for (const text of ['[]\n', '{ "providers": "work" }\n', '{ "providers": { "anthropic": "https://x" } }\n']) {
      writeFileSync(file, text, { mode: 0o600 });
      await assert.rejects(
        s.call('settings.setProvider', { preset: 'anthropic', model: 'claude-x' }),
        (e: Error & { code?: string }) => {
          assert.equal(e.code, 'conflict', e.message);
          assert.ok(e.message.includes(file), e.message);
          return true;
        },
      );
      assert.equal(readFileSync(file, 'utf8'), text);
    }
  },
);

test(
  'a providers.json that reads well: setProvider and setKey keep its other providers and the fields Knack does not know',
  waits,
  async (t) => {
    const s = await serviceEnv(t);
    const file = join(s.paths.dataDir, 'providers.json');
    writeFileSync(
      file,
      JSON.stringify({
        default: 'work',
        note: 'managed by hand',
        providers: {
          work: {
            kind: 'openai',
            baseURL: 'https://llm.corp.example/v1',
            model: 'm',
            keyEnv: 'CORP_KEY',
            organization: 'org-1',
          },
        },
      }),
      { mode: 0o600 },
    );
    await s.call('settings.setProvider', { preset: 'anthropic', model: 'claude-x' });
    await s.call('settings.setKey', { preset: 'openai', key: 'sk-openai-new-0123456789' });
    const after = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(after.default, 'anthropic');
    assert.equal(after.note, 'managed by hand');
    assert.deepEqual(after.providers.work, {
      kind: 'openai',
      baseURL: 'https://llm.corp.example/v1',
      model: 'm',
      keyEnv: 'CORP_KEY',
      organization: 'org-1',
    });
    assert.equal(after.providers.anthropic.model, 'claude-x');
    assert.equal(after.providers.openai.apiKey, 'sk-openai-new-0123456789');
    await s.call('settings.clearKey', { preset: 'openai' });
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).providers.openai?.apiKey, undefined);
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).note, 'managed by hand');
  },
);
