import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { en, type MessageKey } from './en';
import { ms } from './ms';

export type Language = 'en' | 'ms';
export const LANGUAGES: readonly Language[] = ['en', 'ms'];
export type { MessageKey };

const DICTIONARIES: Record<Language, Record<MessageKey, string>> = { en, ms };
/** The locale Intl formats with for each language (Malaysian conventions in both). */
export const LOCALES: Record<Language, string> = { en: 'en-MY', ms: 'ms-MY' };

const STORAGE_KEY = 'console.language';

/** The person's choice on this browser, else the browser's own language, else English. */
function initialLanguage(): Language {
  const stored = globalThis.localStorage?.getItem(STORAGE_KEY);
  if (stored === 'en' || stored === 'ms') return stored;
  return globalThis.navigator?.language?.toLowerCase().startsWith('ms') ? 'ms' : 'en';
}

/** `{name}` in a message replaced by `vars.name`. */
export function interpolate(message: string, vars?: Record<string, string | number>): string {
  if (!vars) return message;
  return message.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

export type Translate = (key: MessageKey, vars?: Record<string, string | number>) => string;

interface I18n {
  language: Language;
  locale: string;
  setLanguage(language: Language): void;
  t: Translate;
}

const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ children }: { children: ReactNode }) {
  const [language, setLanguageState] = useState<Language>(initialLanguage);
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
  const setLanguage = useCallback((next: Language) => {
    globalThis.localStorage?.setItem(STORAGE_KEY, next);
    setLanguageState(next);
  }, []);
  const value = useMemo<I18n>(() => {
    const dictionary = DICTIONARIES[language];
    return { language, locale: LOCALES[language], setLanguage, t: (key, vars) => interpolate(dictionary[key], vars) };
  }, [language, setLanguage]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

/** `const { t, locale, language } = useI18n();` then `t('nav.todo')`. */
export function useI18n(): I18n {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value;
}
