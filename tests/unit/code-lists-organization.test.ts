import { describe, expect, it } from 'vitest';
import { countryAlpha3, countryCodes, isCountryCode, isMsicCode, msicCodes } from '../../src/lib/code-lists';

/** The code lists the organization profile validates against: ISO 3166-1 countries and MSIC codes. */

describe('country codes (ISO 3166-1)', () => {
  it('have a source, unique alpha-2 codes and their alpha-3 codes', () => {
    expect(countryCodes.source).toContain('ISO 3166-1');
    expect(countryCodes.entries).toHaveLength(249);
    expect(new Set(countryCodes.entries.map((e) => e.alpha3)).size).toBe(249);
    expect(countryAlpha3('MY')).toBe('MYS');
    expect(countryAlpha3('SG')).toBe('SGP');
  });

  it('take alpha-2 only, exactly as written', () => {
    for (const code of ['MY', 'SG', 'US', 'GB', 'ID', 'TH', 'CN']) expect(isCountryCode(code), code).toBe(true);
    for (const code of ['MYS', 'my', 'XX', 'UK', '']) expect(isCountryCode(code), code).toBe(false);
  });
});

describe('MSIC codes', () => {
  it('are the MyInvois sub-category codes, 5 digits, 00000 for not applicable', () => {
    expect(msicCodes.source).toContain('MSIC');
    expect(msicCodes.entries.every((e) => /^\d{5}$/.test(e.code))).toBe(true);
    expect(isMsicCode('00000')).toBe(true);
    expect(isMsicCode('62010')).toBe(true);
    expect(isMsicCode('6201')).toBe(false);
    expect(isMsicCode('99999')).toBe(false);
  });
});
