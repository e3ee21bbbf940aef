import type { Database } from '../../db/client';
import { setTradeLineInvoiced } from '../../db/queries/reference-data';
import type { AccountType, CustomFieldRecordType, CustomFieldType, TradeLineKind } from '../../domain/receivables';
import { createAccountRow, deactivateAccount } from '../settings/accounts';
import { createAnalyticAccountRow, deactivateAnalyticAccount } from '../settings/analytic-accounts';
import { createAnalyticAxisRow } from '../settings/analytic-axes';
import { createCustomFieldRow, deactivateCustomField } from '../settings/custom-field-definitions';
import { systemContextFor } from '../settings/rules';
import { createTaxCodeRow, deactivateTaxCode, type TaxPackKind } from '../settings/tax-codes';
import { createTradeLineRow } from '../settings/trade-lines';

/**
 * The old signatures of reference-data set-up `(db, organizationId, camelCase input)`, kept for the
 * demo seed, the test factories and the benchmarks until they move onto the settings procedures.
 * Each is a thin wrapper: it acts as the system on the organization and calls the one service of
 * src/services/settings/ (same rules, same settings history), answering the stored row as before.
 * An `active: false` record is created, then deactivated (both kept in the history).
 */

export async function createAccount(
  db: Database,
  organizationId: string,
  input: { code: string; name: string; type?: AccountType; active?: boolean },
) {
  const ctx = await systemContextFor(db, organizationId);
  const row = await createAccountRow(ctx, { code: input.code, name: input.name, type: input.type ?? 'revenue' });
  if (input.active === false) return { ...row, active: false, revision: (await deactivateAccount(ctx, { id: row.id, expected_revision: row.revision })).revision };
  return row;
}

export async function createTaxCode(
  db: Database,
  organizationId: string,
  input: { code: string; name?: string; rate: string; taxType: string; taxPackKind?: TaxPackKind; active?: boolean },
) {
  const ctx = await systemContextFor(db, organizationId);
  const row = await createTaxCodeRow(ctx, { code: input.code, name: input.name ?? input.code, rate: input.rate, tax_type: input.taxType, tax_pack_kind: input.taxPackKind });
  if (input.active === false) return { ...row, active: false, revision: (await deactivateTaxCode(ctx, { id: row.id, expected_revision: row.revision })).revision };
  return row;
}

export async function createAnalyticAxis(db: Database, organizationId: string, input: { code: string; name: string; isProjectAxis?: boolean }) {
  const ctx = await systemContextFor(db, organizationId);
  return createAnalyticAxisRow(ctx, { code: input.code, name: input.name, is_project_axis: input.isProjectAxis });
}

export async function createAnalyticAccount(
  db: Database,
  organizationId: string,
  input: { axisId: string; code: string; name: string; active?: boolean },
) {
  const ctx = await systemContextFor(db, organizationId);
  const row = await createAnalyticAccountRow(ctx, { axis_id: input.axisId, code: input.code, name: input.name });
  if (input.active === false) {
    return { ...row, active: false, revision: (await deactivateAnalyticAccount(ctx, { id: row.id, expected_revision: row.revision })).revision };
  }
  return row;
}

export async function createCustomFieldDefinition(
  db: Database,
  organizationId: string,
  input: {
    recordType?: CustomFieldRecordType;
    key: string;
    label: string;
    type: CustomFieldType;
    options?: string[];
    required?: boolean;
    active?: boolean;
  },
) {
  const ctx = await systemContextFor(db, organizationId);
  const row = await createCustomFieldRow(ctx, {
    record_type: input.recordType ?? 'receivable_document',
    key: input.key,
    label: input.label,
    type: input.type,
    options: input.options,
    required: input.required,
  });
  if (input.active === false) {
    return { ...row, active: false, revision: (await deactivateCustomField(ctx, { id: row.id, expected_revision: row.revision })).revision };
  }
  return row;
}

/**
 * `quantityInvoiced` is what documents have already taken (seeded for tests and the demo); the
 * settings procedure never takes it.
 */
export async function createTradeLine(
  db: Database,
  organizationId: string,
  input: {
    customerId: string;
    kind: TradeLineKind;
    reference: string;
    description: string;
    quantity: string;
    quantityInvoiced?: string;
    unitCode?: string | null;
    lineNo?: number;
  },
) {
  const ctx = await systemContextFor(db, organizationId);
  const row = await createTradeLineRow(ctx, {
    customer_id: input.customerId,
    kind: input.kind,
    reference: input.reference,
    description: input.description,
    quantity: input.quantity,
    unit_code: input.unitCode ?? null,
    line_no: input.lineNo,
  });
  if (input.quantityInvoiced && input.quantityInvoiced !== '0') {
    await setTradeLineInvoiced(db, { organizationId, id: row.id, quantityInvoiced: input.quantityInvoiced });
    return { ...row, quantityInvoiced: input.quantityInvoiced };
  }
  return row;
}
