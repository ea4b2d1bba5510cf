// i18next setup: English and Chinese, following the system language unless the user picked one (kept in localStorage).
// Every visible string goes through t(); the two resource tables must have the same keys (a test checks it).
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en';
import { zh } from './zh';
import { wordsEn } from './words-en';
import { wordsZh } from './words-zh';

export const LANGS = ['en', 'zh'] as const;
export type Lang = (typeof LANGS)[number];
const KEY = 'knack.lang';
let listening = false;

function systemLang(): Lang {
  const l = (typeof navigator !== 'undefined' && navigator.language) || 'en';
  return l.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

export function chosenLang(): Lang {
  try {
    const v = localStorage.getItem(KEY);
    if (v === 'en' || v === 'zh') return v;
  } catch {
    /* storage unavailable: follow the system */
  }
  return systemLang();
}

export function setLang(lang: Lang | 'system'): void {
  try {
    if (lang === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, lang);
  } catch {
    /* not persisted, still switched */
  }
  const next = lang === 'system' ? systemLang() : lang;
  void i18n.changeLanguage(next);
  document.documentElement.lang = next === 'zh' ? 'zh-CN' : 'en';
}

export function initI18n(lang: Lang = chosenLang()): typeof i18n {
  if (!i18n.isInitialized) {
    void i18n.use(initReactI18next).init({
      resources: { en: { translation: en, words: wordsEn }, zh: { translation: zh, words: wordsZh } },
      lng: lang,
      fallbackLng: 'en',
      interpolation: { escapeValue: false },
      initAsync: false,
    });
  } else void i18n.changeLanguage(lang);
  if (typeof document !== 'undefined') document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  if (typeof window !== 'undefined' && !listening) {
    listening = true;
    // Another window (or tab) switched the language: follow it.
    window.addEventListener('storage', (e) => {
      if (e.key !== KEY) return;
      const next = e.newValue === 'en' || e.newValue === 'zh' ? e.newValue : systemLang();
      void i18n.changeLanguage(next);
      document.documentElement.lang = next === 'zh' ? 'zh-CN' : 'en';
    });
  }
  return i18n;
}
