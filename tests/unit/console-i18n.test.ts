import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from '../../web/src/i18n/en';
import { ms } from '../../web/src/i18n/ms';

/**
 * Every string of the people's console exists in English and Bahasa Malaysia, and every key the
 * console's code names (`t('…')`) is in the dictionary: a screen never shows a key or an empty label.
 */

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

const dictionaries = { en, ms } as Record<string, Record<string, string>>;

describe('the console dictionary', () => {
  it('has every key in both languages, none empty', () => {
    const keys = new Set([...Object.keys(en), ...Object.keys(ms)]);
    for (const [language, dictionary] of Object.entries(dictionaries)) {
      const missing = [...keys].filter((k) => !(k in dictionary));
      const empty = Object.entries(dictionary)
        .filter(([, v]) => typeof v !== 'string' || v.trim() === '')
        .map(([k]) => k);
      expect({ language, missing, empty }).toEqual({ language, missing: [], empty: [] });
    }
  });

  it('keeps the same {placeholders} in both languages', () => {
    const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    const differing = Object.keys(en).filter((k) => JSON.stringify(placeholders(en[k as keyof typeof en])) !== JSON.stringify(placeholders(ms[k as keyof typeof en])));
    expect(differing).toEqual([]);
  });

  it("has every key the console's code passes to t()", () => {
    const used = new Map<string, string>();
    for (const file of sourceFiles(join(process.cwd(), 'web/src'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/\bt\(\s*['"`]([^'"`$]+)['"`]/g)) used.set(m[1]!, file);
    }
    expect(used.size).toBeGreaterThan(10);
    const unknown = [...used].filter(([key]) => !(key in en)).map(([key, file]) => `${key} (${file})`);
    expect(unknown).toEqual([]);
  });
});
