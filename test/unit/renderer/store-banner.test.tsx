// A damaged database set aside: the banner says why in the window's language, from the words main kept with the
// record; SQLite's own message stays as SQLite said it, in code.
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { App } from '../../../renderer/src/App';
import { english, type Said } from '../../../preload/contract';
import { memoryClient } from './memory-client';
import { ENGLISH_SENTENCE, outsideCode, renderWith, WS } from './render';

const MOVED = '/home/me/.knack/knack.db.damaged-20261207T062420Z';

function damaged(words: Said) {
  return {
    ...WS,
    store: { damaged: [{ file: '/home/me/.knack/knack.db', movedTo: MOVED, reason: english(words), words, at: 0 }] },
  };
}

describe('a damaged database', () => {
  it('says why in Chinese: a file that is not a database', async () => {
    renderWith(<App />, memoryClient(), { workspace: damaged({ code: 'store.notDatabase' }) }, 'zh');
    const banner = (await screen.findByText(/数据库已损坏/)).closest('.store-banner') as HTMLElement;
    expect(banner.textContent).toContain(`已原样移到 ${MOVED}（不是数据库文件（开头不是 SQLite 的文件头））`);
    expect(outsideCode(banner).replaceAll(MOVED, '')).not.toMatch(ENGLISH_SENTENCE);
  });

  it("keeps SQLite's own message as it said it, in code, inside the Chinese sentence", async () => {
    const detail = 'database disk image is malformed';
    renderWith(<App />, memoryClient(), { workspace: damaged({ code: 'store.sqlite', params: { detail } }) }, 'zh');
    const banner = (await screen.findByText(/数据库已损坏/)).closest('.store-banner') as HTMLElement;
    expect(banner.querySelector('code')?.textContent).toBe(detail);
    expect(outsideCode(banner).replaceAll(MOVED, '')).not.toMatch(ENGLISH_SENTENCE);
  });

  it('in English, the same sentence as before', async () => {
    renderWith(<App />, memoryClient(), { workspace: damaged({ code: 'store.empty' }) });
    const banner = (await screen.findByText(/the file is empty \(0 bytes\)/)).closest('.store-banner') as HTMLElement;
    expect(banner.textContent).toContain(MOVED);
  });

  it("a database that cannot be opened: why in Chinese, the store's own message as it said it", async () => {
    const error = 'the database schema (9999) is newer than this Knack (12)';
    const words: Said = { code: 'store.cannotOpen', params: { dir: '/home/me/.knack', error } };
    const ws = { ...WS, store: { damaged: [], problem: english(words), problemWords: words } };
    renderWith(<App />, memoryClient(), { workspace: ws }, 'zh');
    const banner = (await screen.findByText(/无法打开数据库/)).closest('.store-banner') as HTMLElement;
    expect(banner.textContent).toContain('无法打开数据库（无法打开 /home/me/.knack 中的数据库：');
    expect(banner.querySelector('code')?.textContent).toBe(error);
    expect(outsideCode(banner)).not.toMatch(ENGLISH_SENTENCE);
  });
});
