import { describe, it, expect } from 'vitest';
import { checkClaimTitle } from '../../src/services/expenses/claim-title';

const EN_MS = ['en', 'ms'];

describe('checkClaimTitle', () => {
  it('accepts exactly 200 code points, counting astral characters once', () => {
    expect(checkClaimTitle('a'.repeat(200), EN_MS)).toEqual({ ok: true, value: 'a'.repeat(200) });
    // 200 emoji are 400 UTF-16 units but 200 code points
    const emoji = '😀'.repeat(200);
    expect(checkClaimTitle(emoji, EN_MS)).toEqual({ ok: true, value: emoji });
  });

  it('refuses 201 code points', () => {
    const r = checkClaimTitle('a'.repeat(201), EN_MS);
    expect(r).toEqual({ ok: false, reason: 'title must be at most 200 characters long (it has 201)' });
    expect(checkClaimTitle('😀'.repeat(201), EN_MS).ok).toBe(false);
  });

  it('counts length after trimming', () => {
    const r = checkClaimTitle(`  ${'a'.repeat(200)}  `, EN_MS);
    expect(r).toEqual({ ok: true, value: 'a'.repeat(200) });
  });

  it('refuses a blank title', () => {
    expect(checkClaimTitle('', EN_MS)).toEqual({ ok: false, reason: 'title must not be blank' });
  });

  it('refuses a whitespace-only title', () => {
    expect(checkClaimTitle(' \t\n\u00A0\u3000 ', EN_MS)).toEqual({ ok: false, reason: 'title must not be blank' });
  });

  it('trims leading and trailing whitespace but keeps inner spacing', () => {
    expect(checkClaimTitle('  Taxi  to   airport \n', EN_MS)).toEqual({ ok: true, value: 'Taxi  to   airport' });
  });

  it('refuses Cyrillic, naming the offending letters once each', () => {
    expect(checkClaimTitle('Trip Привет Привет', EN_MS)).toEqual({
      ok: false,
      reason: 'title contains letters outside the organization\'s record languages (en, ms): "Привет"',
    });
    // upper and lower case are different letters
    expect(checkClaimTitle('Привет привет', EN_MS)).toEqual({
      ok: false,
      reason: 'title contains letters outside the organization\'s record languages (en, ms): "Приветп"',
    });
  });

  it('names at most 10 offending letters', () => {
    const r = checkClaimTitle('абвгдежзийклм', ['en']);
    expect(r).toEqual({
      ok: false,
      reason: 'title contains letters outside the organization\'s record languages (en): "абвгдежзий" and 3 more',
    });
  });

  it('refuses Han without zh', () => {
    expect(checkClaimTitle('Dinner 晚餐', EN_MS)).toEqual({
      ok: false,
      reason: 'title contains letters outside the organization\'s record languages (en, ms): "晚餐"',
    });
  });

  it('accepts Han with zh', () => {
    expect(checkClaimTitle('Dinner 晚餐，吉隆坡', ['en', 'zh'])).toEqual({ ok: true, value: 'Dinner 晚餐，吉隆坡' });
    expect(checkClaimTitle('晚餐 2026', ['zh'])).toEqual({ ok: true, value: '晚餐 2026' });
  });

  it('refuses Latin when only zh is a record language', () => {
    const r = checkClaimTitle('晚餐 dinner', ['zh']);
    expect(r.ok).toBe(false);
  });

  it('accepts Latin mixed with digits and punctuation', () => {
    const title = 'Trip to KL 2026 – taxi & meals (RM)';
    expect(checkClaimTitle(title, EN_MS)).toEqual({ ok: true, value: title });
  });

  it('accepts Malay and other accented Latin letters, precomposed or combining', () => {
    for (const title of ['Perjalanan ke Kota Bharu — kuih-muih', 'Café résumé naïve', 'Cafe\u0301 re\u0301sume\u0301']) {
      expect(checkClaimTitle(title, ['ms'])).toEqual({ ok: true, value: title });
    }
  });

  it('accepts emoji and other symbols, including emoji sequences with marks', () => {
    for (const title of ['Team lunch 🍜🎉', 'Love ❤️ it', 'Room 1️⃣', '€ 5 + $ 3 = ¥ 800']) {
      expect(checkClaimTitle(title, EN_MS)).toEqual({ ok: true, value: title });
    }
  });

  it('refuses a combining mark of another script attached to a letter', () => {
    // Devanagari vowel sign I (U+093F) on a Latin letter
    const r = checkClaimTitle('ka\u093F', EN_MS);
    expect(r).toEqual({
      ok: false,
      reason: 'title contains letters outside the organization\'s record languages (en, ms): "\u25CC\u093F"',
    });
  });

  it('refuses letters when unknown record languages allow nothing', () => {
    expect(checkClaimTitle('Taxi', ['xx'])).toEqual({
      ok: false,
      reason: 'title contains letters outside the organization\'s record languages (xx): "Taxi"',
    });
    expect(checkClaimTitle('Taxi', [])).toEqual({
      ok: false,
      reason: 'title contains letters outside the organization\'s record languages (none): "Taxi"',
    });
    // language codes that collide with Object.prototype keys are just unknown
    expect(checkClaimTitle('Taxi', ['constructor', '__proto__']).ok).toBe(false);
  });

  it('accepts titles without letters whatever the record languages', () => {
    expect(checkClaimTitle('2026-03 #12 🚕', [])).toEqual({ ok: true, value: '2026-03 #12 🚕' });
  });
});
