/**
 * LHDN's code tables as the simulator checks them (data/myinvois/*.json, copied from the SDK's
 * Codes pages). Loaded once.
 */
import { readFileSync } from 'node:fs';
import { projectPath } from '../../../lib/project-root';

function codes(file: string): Set<string> {
  const rows = JSON.parse(readFileSync(projectPath('data', 'myinvois', file), 'utf8')) as { Code: string }[];
  return new Set(rows.map((row) => String(row.Code).trim()));
}

export const CODES = {
  classification: codes('ClassificationCodes.json'),
  country: codes('CountryCodes.json'),
  currency: codes('CurrencyCodes.json'),
  documentType: codes('EInvoiceTypes.json'),
  msic: codes('MSICSubCategoryCodes.json'),
  state: codes('StateCodes.json'),
  taxType: codes('TaxTypes.json'),
  unit: codes('UnitTypes.json'),
};
