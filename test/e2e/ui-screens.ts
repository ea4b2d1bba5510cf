// Screenshots for docs/screenshots/: each screen in light and dark, English and Chinese. Only when
// KNACK_SCREENSHOTS=1 (so a normal test run never rewrites the committed images).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright';
import { ROOT } from './ui-harness.js';

const SCREENSHOTS = process.env.KNACK_SCREENSHOTS === '1';

/** The few page globals used here (this file is compiled for Node, without the DOM library). */
interface PageGlobals {
  localStorage: { setItem(k: string, v: string): void };
  StorageEvent: new (type: string, init: { key: string; newValue: string }) => unknown;
  dispatchEvent(e: unknown): void;
}

/** Switch the page's language the way another Knack window would (localStorage + storage event). */
async function setLang(page: Page, lang: 'en' | 'zh'): Promise<void> {
  await page.evaluate((l) => {
    const g = globalThis as unknown as PageGlobals;
    g.localStorage.setItem('knack.lang', l);
    g.dispatchEvent(new g.StorageEvent('storage', { key: 'knack.lang', newValue: l }));
  }, lang);
}

export async function saveScreens(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  const dir = join(ROOT, 'docs', 'screenshots');
  mkdirSync(dir, { recursive: true });
  for (const lang of ['en', 'zh'] as const) {
    await setLang(page, lang);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(150);
      await page.screenshot({ path: join(dir, `${name}-${lang}-${scheme}.png`) });
    }
  }
  await setLang(page, 'en');
  await page.emulateMedia({ colorScheme: 'light' });
}
