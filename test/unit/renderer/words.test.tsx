// Every message main sends as words (a code plus parameters, preload/words.ts) has English and Chinese, both saying
// the same parameters; the window says words in its language, nested words too, and escapes nothing into HTML.
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { english, placeholders, WORD_CODES, WORDS, type Said } from '../../../preload/contract';
import { wordsZh } from '../../../renderer/src/i18n/words-zh';
import { windowEnglish, wordsEn } from '../../../renderer/src/i18n/words-en';
import { en as enTable } from '../../../renderer/src/i18n/en';
import { zh as zhTable } from '../../../renderer/src/i18n/zh';
import { initI18n } from '../../../renderer/src/i18n';
import { sayWith, useSay } from '../../../renderer/src/i18n/say';
import { ErrorText, failure, shownText, type Shown } from '../../../renderer/src/i18n/ErrorText';
import { SaidText, Sentence } from '../../../renderer/src/i18n/SaidText';
import { ENGLISH_SENTENCE, outsideCode } from './render';

const sorted = (xs: string[]) => [...new Set(xs)].sort();

describe('the words table', () => {
  it('has English and Chinese for every code, and no Chinese for a code that does not exist', () => {
    expect(WORD_CODES.length).toBeGreaterThan(0);
    const missing = WORD_CODES.filter(
      (c) => !(typeof WORDS[c] === 'string' && WORDS[c].trim() && typeof wordsZh[c] === 'string' && wordsZh[c].trim()),
    );
    expect(missing).toEqual([]);
    expect(Object.keys(wordsZh).filter((c) => !(c in WORDS))).toEqual([]);
  });

  it('says the same parameters in both languages', () => {
    const differ = WORD_CODES.filter(
      (c) => sorted(placeholders(WORDS[c])).join() !== sorted(placeholders(wordsZh[c])).join(),
    ).map((c) => `${c}: en {${placeholders(WORDS[c]).join(',')}} zh {${placeholders(wordsZh[c]).join(',')}}`);
    expect(differ).toEqual([]);
  });

  it('has Chinese that is Chinese: no run of three English words outside the parameters', () => {
    const english3 = /\b[A-Za-z]{2,}\b(?:[\s,]+\b[A-Za-z]{2,}\b){2,}/;
    const odd = WORD_CODES.filter((c) => english3.test(wordsZh[c].replace(/\{\{\s*\w+\s*\}\}/g, '·')));
    expect(odd.map((c) => `${c}: ${wordsZh[c]}`)).toEqual([]);
  });
});

/** Every string of a nested translation table, with its key path. */
function leaves(table: unknown, at = ''): [string, string][] {
  if (typeof table === 'string') return [[at, table]];
  if (!table || typeof table !== 'object') return [];
  return Object.entries(table).flatMap(([k, v]) => leaves(v, at ? `${at}.${k}` : k));
}

describe('the window never tells a person to type a command', () => {
  // A Knack command (`knack skills trust x`) or one of its options (--update, --yes, --skill): the window has a
  // button for each of these, and says which.
  const cli = /\bknack\s+(?:skills|trust|settings|chat|serve|sandbox|rules)\b|(?:^|[\s(`/])--[a-z]/;

  it('in the words main sends, in English and in Chinese', () => {
    const bad = WORD_CODES.flatMap((c) => [`en ${c}: ${wordsEn[c]}`, `zh ${c}: ${wordsZh[c]}`]).filter((l) =>
      cli.test(l.slice(l.indexOf(': ') + 2)),
    );
    expect(bad).toEqual([]);
  });

  it("in the window's own strings, in English and in Chinese", () => {
    const bad = [...leaves(enTable), ...leaves(zhTable)].filter(([, v]) => cli.test(v)).map(([k, v]) => `${k}: ${v}`);
    expect(bad).toEqual([]);
  });

  it("keeps the CLI's parameters where the window says it otherwise, and names the button instead", () => {
    for (const [c, text] of Object.entries(windowEnglish) as [keyof typeof WORDS, string][])
      expect(`${c} ${sorted(placeholders(text)).join()}`).toBe(`${c} ${sorted(placeholders(WORDS[c])).join()}`);
    expect(WORDS['skillOff.p1']).toContain('knack skills trust');
    const en = initI18n('en');
    const held = { code: 'skillOff.p1', params: { summary: 'npm install', name: 'pptx' } };
    expect(sayWith(en.t, held)).toBe('audit P1, not trusted yet: npm install — press Trust on pptx to review it');
    const zh = initI18n('zh');
    expect(sayWith(zh.t, held)).toBe('审计 P1，尚未信任：npm install — 用 pptx 的「信任」审阅它');
    initI18n('en');
  });
});

describe('saying words in the window', () => {
  const nested: Said = {
    code: 'loadOver',
    params: {
      why: { code: 'loadTrigger', params: { trigger: '提交', matched: 'commit' } },
      over: '"git-commit"',
      overTier: { code: 'tierBuiltin' },
      tier: { code: 'tierProject' },
    },
  };

  it('says nested words in Chinese, and in English exactly as the CLI does', () => {
    const zh = initI18n('zh');
    expect(sayWith(zh.t, nested)).toBe(
      '触发词「提交」匹配了「commit」；同样的词也匹配了内置技能 "git-commit"，由项目技能优先',
    );
    const en = initI18n('en');
    expect(sayWith(en.t, nested)).toBe(english(nested));
  });

  it('falls back to the English of a code the window does not know, and shows an unknown code as itself', () => {
    const zh = initI18n('zh');
    expect(sayWith(zh.t, { code: 'noSuchCode' })).toBe('noSuchCode');
  });

  it('reads a parameter named like an i18next option (count, context, lng) as a parameter', () => {
    const zh = initI18n('zh');
    expect(
      sayWith(zh.t, { code: 'loadDependency', params: { skill: 'x', count: 3, context: 'male', lng: 'en' } }),
    ).toBe('x 需要它');
  });

  it('shows markup in a parameter as text, never as HTML', () => {
    initI18n('en');
    function Shown() {
      const say = useSay();
      return <p>{say({ code: 'loadDependency', params: { skill: '<img src=x onerror=alert(1)>' } })}</p>;
    }
    const { container } = render(<Shown />);
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByText('needed by <img src=x onerror=alert(1)>')).toBeTruthy();
  });
});

describe('errors main sent with words', () => {
  /** Another program's own text: markup and markdown that must stay text. */
  const hostile = '<img src=x onerror=alert(1)> **bold** [link](https://x.test) `tick`';
  const err = {
    code: 'internal',
    message: `sessions.delete failed: ${hostile}`,
    words: { code: 'service.failed', params: { method: 'sessions.delete', detail: hostile } },
  };

  /** The `<p>` ErrorText renders into, and its one `<code>`. */
  function shown(e: Shown) {
    const { container } = render(
      <p>
        <ErrorText error={e} />
      </p>,
    );
    const p = container.querySelector('p')!;
    const code = [...p.querySelectorAll('code')];
    return { p, code, container };
  }

  for (const [lang, lead] of [
    ['en', 'sessions.delete failed: '],
    ['zh', 'sessions.delete 失败：'],
  ] as const)
    it(`says the lead in ${lang} and another program's text as text, in code`, () => {
      initI18n(lang);
      const { p, code, container } = shown(failure(err));
      expect(container.querySelector('img, strong, em, a')).toBeNull();
      expect(code.map((c) => c.textContent)).toEqual([hostile]);
      expect(outsideCode(p)).toBe(lead);
      expect(shownText(failure(err))).toBe(lead + hostile);
    });

  it("puts the failure at its place in the window's own sentence, in Chinese", () => {
    initI18n('zh');
    const { p, code } = shown(failure(err, 'skills.enableFailed', { name: 'pdf' }));
    expect(code.map((c) => c.textContent)).toEqual([hostile]);
    expect(outsideCode(p)).toBe('无法开启 pdf：sessions.delete 失败：');
    expect(shownText(failure(err, 'skills.enableFailed', { name: 'pdf' }))).toBe(
      `无法开启 pdf：sessions.delete 失败：${hostile}`,
    );
  });

  it('shows the message of a failure without words in code, after the lead in Chinese', () => {
    initI18n('zh');
    const { p, code, container } = shown(failure(new Error(hostile)));
    expect(container.querySelector('img')).toBeNull();
    expect(code.map((c) => c.textContent)).toEqual([hostile]);
    expect(outsideCode(p)).toBe('出错了：');
    expect(ENGLISH_SENTENCE.test(outsideCode(p))).toBe(false);
  });

  it("puts an element at its slot of the window's sentence, and after one whose translation lost the slot", () => {
    const i18n = initI18n('zh');
    const at = (k: string) =>
      render(
        <p>
          <Sentence k={k} slot="reason" params={{ path: '/tmp/x.db' }}>
            <code>{hostile}</code>
          </Sentence>
        </p>,
      ).container.querySelector('p')!;
    const p = at('workspace.storeDamaged');
    expect(p.querySelector('img')).toBeNull();
    expect(p.textContent).toBe(i18n.t('workspace.storeDamaged', { path: '/tmp/x.db', reason: hostile }));
    i18n.addResource('zh', 'translation', 'test.lostSlot', '数据库已损坏');
    expect(at('test.lostSlot').textContent).toBe(`数据库已损坏 ${hostile}`);
  });

  it('in safe text, escapes every part, and a slot marker forged in a plain parameter shows as an escape', () => {
    initI18n('en');
    const forged = 'w\u20630\u2063\u202e';
    const words: Said = {
      code: 'tool.denied',
      params: { tool: forged, reason: { code: 'gate.unchecked', params: { error: `e\u202e${hostile}` } } },
    };
    const p = render(
      <p>
        <SaidText words={words} safe />
      </p>,
    ).container.querySelector('p')!;
    expect([...p.querySelectorAll('code')].map((c) => c.textContent)).toEqual([`e\\u{202e}${hostile}`]);
    expect(outsideCode(p)).toBe('w\\u{2063}0\\u{2063}\\u{202e} denied: refused: the call could not be checked ()');
  });

  it("says the window's own sentence as it is", () => {
    initI18n('en');
    const { p, code } = shown('Type a folder path.');
    expect(code).toEqual([]);
    expect(p.textContent).toBe('Type a folder path.');
  });

  it("says a contract error in the window's language", () => {
    initI18n('zh');
    const tooLong = {
      code: 'invalid_input',
      message: 'chat.send: text: Too big: expected string to have <=200000 characters',
      words: { code: 'contract.tooLong', params: { method: 'chat.send', field: 'text', limit: 200000 } },
    };
    expect(shownText(failure(tooLong))).toBe('chat.send：text 太长，最多 200000 个字符');
    initI18n('en');
  });
});
