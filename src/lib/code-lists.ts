/**
 * Code lists used to validate MyInvois documents (classification codes,
 * currencies, units of measure, state codes, tax types, countries, MSIC codes).
 *
 * The lists live as JSON under `data/` (each file is
 * `{ "source": "...", "entries": [...] }`) and are read once at import time
 * with readFileSync from the project folder (lib/project-root.ts), which works
 * the same under tsx, vitest, plain node and the bundle in dist/. Each file is checked against a zod schema on load,
 * so a damaged file fails at start-up rather than giving wrong answers later.
 *
 * All lookups are exact and case-sensitive: the official codes are
 * upper-case ("MYR", "KGM") or digits ("022", "01"), and that is what
 * MyInvois expects on the wire.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { projectPath } from './project-root';

export interface ClassificationCode {
  code: string;
  description: string;
}

export interface Currency {
  code: string;
  name: string;
  /** ISO 4217 minor unit: number of decimal places of an amount (MYR 2, JPY 0, KWD 3). */
  minor_units: number;
}

export interface UnitCode {
  code: string;
  name: string;
}

export interface StateCode {
  code: string;
  name: string;
}

export interface TaxType {
  code: string;
  description: string;
}

export interface CountryCode {
  /** ISO 3166-1 alpha-2: what the API speaks everywhere (docs/design.md §5). */
  code: string;
  /** ISO 3166-1 alpha-3: what MyInvois documents carry. */
  alpha3: string;
  name: string;
}

export interface MsicCode {
  code: string;
  description: string;
  /** MSIC section letter (A..U); empty for 00000 (not applicable). */
  category: string;
}

export interface CodeList<T> {
  /** Where the list comes from (official source and version/date). */
  readonly source: string;
  /** Frozen entries, in file order. */
  readonly entries: readonly Readonly<T>[];
}

function loadList<S extends z.ZodType>(file: string, entry: S): CodeList<z.infer<S>> {
  const url = projectPath('data', file);
  const parsed = z
    .object({ source: z.string().min(1), entries: z.array(entry).min(1) })
    .safeParse(JSON.parse(readFileSync(url, 'utf8')));
  if (!parsed.success) {
    throw new Error(`data/${file} is not a valid code list: ${parsed.error.message}`);
  }
  const codes = new Set<string>();
  for (const e of parsed.data.entries as { code: string }[]) {
    if (codes.has(e.code)) throw new Error(`data/${file}: duplicate code ${e.code}`);
    codes.add(e.code);
  }
  return Object.freeze({
    source: parsed.data.source,
    entries: Object.freeze(parsed.data.entries.map((e) => Object.freeze(e))),
  });
}

export const classificationCodes: CodeList<ClassificationCode> = loadList(
  'classification-codes.json',
  z.object({ code: z.string().regex(/^\d{3}$/), description: z.string().min(1) }),
);

export const currencies: CodeList<Currency> = loadList(
  'currencies.json',
  z.object({
    code: z.string().regex(/^[A-Z]{3}$/),
    name: z.string().min(1),
    minor_units: z.number().int().min(0).max(4),
  }),
);

export const unitCodes: CodeList<UnitCode> = loadList(
  'unit-codes.json',
  z.object({ code: z.string().regex(/^[A-Z0-9]{2,3}$/), name: z.string().min(1) }),
);

export const stateCodes: CodeList<StateCode> = loadList(
  'state-codes.json',
  z.object({ code: z.string().regex(/^\d{2}$/), name: z.string().min(1) }),
);

export const taxTypes: CodeList<TaxType> = loadList(
  'tax-types.json',
  z.object({ code: z.string().regex(/^(\d{2}|E)$/), description: z.string().min(1) }),
);

export const countryCodes: CodeList<CountryCode> = loadList(
  'country-codes.json',
  z.object({ code: z.string().regex(/^[A-Z]{2}$/), alpha3: z.string().regex(/^[A-Z]{3}$/), name: z.string().min(1) }),
);

export const msicCodes: CodeList<MsicCode> = loadList(
  'msic-codes.json',
  z.object({ code: z.string().regex(/^\d{5}$/), description: z.string().min(1), category: z.string().regex(/^[A-Z]?$/) }),
);

const classificationSet: ReadonlySet<string> = new Set(classificationCodes.entries.map((e) => e.code));
const currencyMap: ReadonlyMap<string, Currency> = new Map(currencies.entries.map((e) => [e.code, e]));
const unitSet: ReadonlySet<string> = new Set(unitCodes.entries.map((e) => e.code));
const stateSet: ReadonlySet<string> = new Set(stateCodes.entries.map((e) => e.code));
const taxTypeSet: ReadonlySet<string> = new Set(taxTypes.entries.map((e) => e.code));
const countryByAlpha2: ReadonlyMap<string, CountryCode> = new Map(countryCodes.entries.map((e) => [e.code, e]));
const countryByAlpha3: ReadonlyMap<string, CountryCode> = new Map(countryCodes.entries.map((e) => [e.alpha3, e]));
const msicSet: ReadonlySet<string> = new Set(msicCodes.entries.map((e) => e.code));

export function isClassificationCode(code: string): boolean {
  return classificationSet.has(code);
}

export function isCurrency(code: string): boolean {
  return currencyMap.has(code);
}

/** ISO 4217 minor units of `code`, or undefined when the currency is not in the list. */
export function currencyMinorUnits(code: string): number | undefined {
  return currencyMap.get(code)?.minor_units;
}

export function isUnitCode(code: string): boolean {
  return unitSet.has(code);
}

export function isStateCode(code: string): boolean {
  return stateSet.has(code);
}

export function isTaxType(code: string): boolean {
  return taxTypeSet.has(code);
}

/** An ISO 3166-1 alpha-2 code (`MY`, `SG`): the only form the API accepts and answers. */
export function isCountryCode(code: string): boolean {
  return countryByAlpha2.has(code);
}

/** The alpha-3 form (`MYS`) of an alpha-2 code, for the MyInvois document; undefined when unknown. */
export function countryAlpha3(alpha2: string): string | undefined {
  return countryByAlpha2.get(alpha2)?.alpha3;
}

/**
 * The alpha-2 form of a stored country code: alpha-2 as is, a known alpha-3 (`MYS`, written before
 * the API settled on alpha-2) converted, anything else unchanged. Used where stored identities are
 * frozen onto documents, so a record written in the old form cannot leak it.
 */
export function countryAlpha2(code: string): string {
  return countryByAlpha3.get(code)?.code ?? code;
}

/** An MSIC 2008 sub-category code as MyInvois lists it (00000 = not applicable). */
export function isMsicCode(code: string): boolean {
  return msicSet.has(code);
}
