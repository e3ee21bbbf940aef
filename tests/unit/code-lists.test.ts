import { describe, it, expect } from 'vitest';
import {
  classificationCodes,
  currencies,
  currencyMinorUnits,
  isClassificationCode,
  isCurrency,
  isStateCode,
  isTaxType,
  isUnitCode,
  stateCodes,
  taxTypes,
  unitCodes,
} from '../../src/lib/code-lists';

describe('code list files', () => {
  it.each([
    ['classification', classificationCodes],
    ['currencies', currencies],
    ['units', unitCodes],
    ['states', stateCodes],
    ['tax types', taxTypes],
  ] as const)('%s has a source and unique codes', (_name, list) => {
    expect(list.source.length).toBeGreaterThan(10);
    const codes = list.entries.map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('entries are frozen', () => {
    expect(Object.isFrozen(currencies.entries)).toBe(true);
    expect(Object.isFrozen(currencies.entries[0])).toBe(true);
  });
});

describe('classification codes', () => {
  it('are exactly 001..045', () => {
    const expected = Array.from({ length: 45 }, (_, i) => String(i + 1).padStart(3, '0'));
    expect(classificationCodes.entries.map((e) => e.code)).toEqual(expected);
  });

  it('have the official descriptions', () => {
    const d = new Map(classificationCodes.entries.map((e) => [e.code, e.description]));
    expect(d.get('001')).toBe('Breastfeeding equipment');
    expect(d.get('002')).toBe('Child care centres and kindergartens fees');
    expect(d.get('003')).toBe('Computer, smartphone or tablet');
    expect(d.get('004')).toBe('Consolidated e-Invoice');
    expect(d.get('022')).toBe('Others');
    expect(d.get('045')).toBe('Self-billed - Non-monetary payment to agents, dealers or distributors');
    for (const desc of d.values()) expect(desc).toBe(desc.trim());
  });

  it('lookup', () => {
    expect(isClassificationCode('022')).toBe(true);
    expect(isClassificationCode('045')).toBe(true);
    expect(isClassificationCode('000')).toBe(false);
    expect(isClassificationCode('046')).toBe(false);
    expect(isClassificationCode('22')).toBe(false);
  });
});

describe('currencies', () => {
  it('is a broad ISO 4217 list', () => {
    expect(currencies.entries.length).toBeGreaterThanOrEqual(150);
    for (const c of currencies.entries) expect(c.code).toMatch(/^[A-Z]{3}$/);
  });

  it.each([
    ['MYR', 2],
    ['USD', 2],
    ['EUR', 2],
    ['SGD', 2],
    ['CNY', 2],
    ['IDR', 2],
    ['THB', 2],
    ['GBP', 2],
    ['HUF', 2],
    ['JPY', 0],
    ['KRW', 0],
    ['VND', 0],
    ['CLP', 0],
    ['ISK', 0],
    ['KWD', 3],
    ['BHD', 3],
    ['OMR', 3],
    ['JOD', 3],
    ['TND', 3],
    ['CLF', 4],
    ['UYW', 4],
  ] as const)('%s has %i minor units', (code, mu) => {
    expect(isCurrency(code)).toBe(true);
    expect(currencyMinorUnits(code)).toBe(mu);
  });

  it('rejects unknown, lower-case, withdrawn and unit-less codes', () => {
    for (const code of ['XYZ', 'myr', 'MYR ', '', 'HRK', 'XXX', 'XAU', 'CNH']) {
      expect(isCurrency(code)).toBe(false);
      expect(currencyMinorUnits(code)).toBeUndefined();
    }
  });
});

describe('unit codes', () => {
  it('is a substantial subset with the common codes', () => {
    expect(unitCodes.entries.length).toBeGreaterThanOrEqual(150);
    expect(unitCodes.source).toMatch(/subset/i);
    expect(unitCodes.source).toMatch(/Rec(ommendation)? 20/);
    for (const code of ['C62', 'EA', 'H87', 'KGM', 'GRM', 'MTR', 'KMT', 'LTR', 'MLT', 'HUR', 'DAY', 'MON', 'ANN',
      'SET', 'PR', 'DZN', 'MTK', 'MTQ', 'KWH', 'XBX', 'XPK', 'XCT', 'XPX', 'LS', 'E48']) {
      expect(isUnitCode(code)).toBe(true);
    }
  });

  it('names the main codes', () => {
    const name = new Map(unitCodes.entries.map((e) => [e.code, e.name]));
    expect(name.get('C62')).toBe('one');
    expect(name.get('EA')).toBe('each');
    expect(name.get('H87')).toBe('piece');
    expect(name.get('KGM')).toBe('kilogram');
    expect(name.get('MTR')).toBe('metre');
    expect(name.get('LTR')).toBe('litre');
  });

  it('rejects codes that are not Rec 20/21 codes', () => {
    for (const code of ['BX', 'PK', 'PCS', 'kgm', 'KG', '']) expect(isUnitCode(code)).toBe(false);
  });
});

describe('state codes', () => {
  it('are 01..17 with the official names', () => {
    const expected = Array.from({ length: 17 }, (_, i) => String(i + 1).padStart(2, '0'));
    expect(stateCodes.entries.map((e) => e.code)).toEqual(expected);
    const name = new Map(stateCodes.entries.map((e) => [e.code, e.name]));
    expect(name.get('01')).toBe('Johor');
    expect(name.get('10')).toBe('Selangor');
    expect(name.get('14')).toBe('Wilayah Persekutuan Kuala Lumpur');
    expect(name.get('15')).toBe('Wilayah Persekutuan Labuan');
    expect(name.get('16')).toBe('Wilayah Persekutuan Putrajaya');
    expect(name.get('17')).toBe('Not Applicable');
  });

  it('lookup', () => {
    expect(isStateCode('14')).toBe(true);
    expect(isStateCode('17')).toBe(true);
    expect(isStateCode('00')).toBe(false);
    expect(isStateCode('18')).toBe(false);
    expect(isStateCode('1')).toBe(false);
  });
});

describe('tax types', () => {
  it('are 01..06 and E', () => {
    expect(taxTypes.entries.map((e) => e.code)).toEqual(['01', '02', '03', '04', '05', '06', 'E']);
    const d = new Map(taxTypes.entries.map((e) => [e.code, e.description]));
    expect(d.get('01')).toBe('Sales Tax');
    expect(d.get('02')).toBe('Service Tax');
    expect(d.get('03')).toBe('Tourism Tax');
    expect(d.get('04')).toBe('High-Value Goods Tax');
    expect(d.get('05')).toBe('Sales Tax on Low Value Goods');
    expect(d.get('06')).toBe('Not Applicable');
    expect(d.get('E')).toMatch(/^Tax exemption/);
  });

  it('lookup', () => {
    expect(isTaxType('02')).toBe(true);
    expect(isTaxType('E')).toBe(true);
    expect(isTaxType('e')).toBe(false);
    expect(isTaxType('07')).toBe(false);
    expect(isTaxType('2')).toBe(false);
  });
});
