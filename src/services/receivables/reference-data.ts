import type { Database } from '../../db/client';
import {
  insertAccount,
  insertAnalyticAccount,
  insertAnalyticAxis,
  insertCustomFieldDefinition,
  insertTaxCode,
  insertTradeLine,
} from '../../db/queries/reference-data';
import type { CustomFieldType } from '../../db/schema';
import { isTaxType, isUnitCode } from '../../lib/code-lists';
import { AppError, validationError } from '../../lib/errors';
import { checkRatePlaces, Dec, DECIMAL_PATTERN } from '../../lib/money';

/**
 * Set-up of reference data (chart of accounts, tax codes, analytic axes, custom fields, trade lines).
 * Used by the admin tooling, the demo seed and tests; not a /v1 operation.
 */

function must<T>(row: T | undefined): T {
  if (!row) throw new AppError('internal');
  return row;
}

export async function createAccount(
  db: Database,
  organizationId: string,
  input: { code: string; name: string; type?: 'asset' | 'liability' | 'equity' | 'revenue' | 'expense'; active?: boolean },
) {
  if (!input.code.trim()) throw validationError('/code', 'must not be blank');
  const row = await insertAccount(db, { organizationId, code: input.code.trim(), name: input.name, type: input.type ?? 'revenue', active: input.active ?? true });
  return must(row);
}

export async function createTaxCode(
  db: Database,
  organizationId: string,
  input: { code: string; name?: string; rate: string; taxType: string; taxPackKind?: string; active?: boolean },
) {
  if (!isTaxType(input.taxType)) throw validationError('/tax_type', 'is not a MyInvois tax type (01 to 06, E)');
  if (!checkRatePlaces(input.rate) || new Dec(input.rate).isNegative()) throw validationError('/rate', 'must be a non-negative decimal with up to 10 places');
  const row = await insertTaxCode(db, {
    organizationId,
    code: input.code,
    name: input.name ?? input.code,
    rate: input.rate,
    taxType: input.taxType,
    taxPackKind: input.taxPackKind ?? 'my_sst',
    active: input.active ?? true,
  });
  return must(row);
}

export async function createAnalyticAxis(db: Database, organizationId: string, input: { code: string; name: string; isProjectAxis?: boolean }) {
  const row = await insertAnalyticAxis(db, { organizationId, code: input.code, name: input.name, isProjectAxis: input.isProjectAxis ?? false });
  return must(row);
}

export async function createAnalyticAccount(
  db: Database,
  organizationId: string,
  input: { axisId: string; code: string; name: string; active?: boolean },
) {
  const row = await insertAnalyticAccount(db, { organizationId, axisId: input.axisId, code: input.code, name: input.name, active: input.active ?? true });
  return must(row);
}

export async function createCustomFieldDefinition(
  db: Database,
  organizationId: string,
  input: {
    recordType?: 'receivable_document' | 'customer' | 'expense_claim';
    key: string;
    label: string;
    type: CustomFieldType;
    options?: string[];
    required?: boolean;
    active?: boolean;
  },
) {
  if (!/^[a-z][a-z0-9_]{0,62}$/.test(input.key)) throw validationError('/key', 'must be lower-case letters, digits and underscores');
  if (input.type === 'select' && !input.options?.length) throw validationError('/options', 'a select field needs options');
  const row = await insertCustomFieldDefinition(db, {
    organizationId,
    recordType: input.recordType ?? 'receivable_document',
    key: input.key,
    label: input.label,
    type: input.type,
    options: input.options ?? [],
    required: input.required ?? false,
    active: input.active ?? true,
  });
  return must(row);
}

export async function createTradeLine(
  db: Database,
  organizationId: string,
  input: {
    customerId: string;
    kind: 'delivery' | 'sales_return';
    reference: string;
    description: string;
    quantity: string;
    quantityInvoiced?: string;
    unitCode?: string | null;
    lineNo?: number;
  },
) {
  if (!DECIMAL_PATTERN.test(input.quantity) || !new Dec(input.quantity).gt(0)) throw validationError('/quantity', 'must be positive');
  if (input.unitCode && !isUnitCode(input.unitCode)) throw validationError('/unit_code', 'is not a UN/ECE Rec 20 unit code');
  const row = await insertTradeLine(db, {
    organizationId,
    customerId: input.customerId,
    kind: input.kind,
    reference: input.reference,
    description: input.description,
    quantity: input.quantity,
    quantityInvoiced: input.quantityInvoiced ?? '0',
    unitCode: input.unitCode ?? null,
    lineNo: input.lineNo ?? 1,
  });
  return must(row);
}
