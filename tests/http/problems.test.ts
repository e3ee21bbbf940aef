import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, WHAT_TO_DO } from '../../src/lib/errors';
import { useTestApp } from '../helpers/app';

const t = useTestApp();
const CODES = Object.keys(ERROR_CATALOGUE) as (keyof typeof ERROR_CATALOGUE)[];

describe('/problems/<code>: one page per code of the catalogue, saying what to do', () => {
  it('every code has a what-to-do sentence in the catalogue', () => {
    const missing = CODES.filter((code) => !/^[A-Z].{20,}[.!]$/.test(WHAT_TO_DO[code] ?? ''));
    expect(missing).toEqual([]);
  });

  it.each(CODES)('/problems/%s: title, status, code and the what-to-do sentence', async (code) => {
    const res = await t.app.inject({ method: 'GET', url: `/problems/${code}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const entry = ERROR_CATALOGUE[code];
    const text = res.body.replace(/&#39;/g, "'").replace(/&#34;/g, '"').replace(/&#38;/g, '&').replace(/&#60;/g, '<').replace(/&#62;/g, '>');
    expect(text).toContain(`<h1>${entry.title}</h1>`);
    expect(text).toContain(`Status ${entry.status}.`);
    expect(text).toContain(`<code>${code}</code>`);
    expect(text).toContain('<h2>What to do</h2>');
    expect(text).toContain(WHAT_TO_DO[code]);
    expect(text).toMatch(/<title>[^<]*Finance API<\/title>/);
  });
});
