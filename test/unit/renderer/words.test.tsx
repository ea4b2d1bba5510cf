// Every message main sends as words (a code plus parameters, preload/words.ts) has English and Chinese, both saying
// the same parameters; the window says words in its language, nested words too, and escapes nothing into HTML.
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { english, placeholders, WORD_CODES, WORDS, type Said } from '../../../preload/contract';
import { wordsZh } from '../../../renderer/src/i18n/words-zh';
import { initI18n } from '../../../renderer/src/i18n';
import { sayWith, useSay } from '../../../renderer/src/i18n/say';
import { errorText } from '../../../renderer/src/api/context';

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
  it("says a contract error in the window's language, and its message when it has no words", () => {
    initI18n('zh');
    const err = {
      code: 'invalid_input',
      message: 'chat.send: text: Too big: expected string to have <=200000 characters',
      words: { code: 'contract.tooLong', params: { method: 'chat.send', field: 'text', limit: 200000 } },
    };
    expect(errorText(err)).toBe('chat.send：text 太长，最多 200000 个字符');
    expect(errorText({ code: 'x', message: 'plain' })).toBe('plain');
    initI18n('en');
  });
});
