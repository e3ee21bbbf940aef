import {
  insertTaxCode,
  isTaxCodeUsed,
  listTaxCodes,
  lockTaxCode,
  updateTaxCodeRow,
  type TaxCodeRow,
} from '../../db/queries/reference-data';
import type { TaxPackKind } from '../../domain/receivables';
import { isTaxType } from '../../lib/code-lists';
import { AppError } from '../../lib/errors';
import { Dec, formatRate } from '../../lib/money';
import { rateInRange, Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { changeRecord, checkCode, checkName, createdRecord, deactivateRecord, setupListPage, uniquely, type RecordChange, type SetupFamily, type SetupListInput } from './setup';

/**
 * Tax codes (settings.taxCodes.*). A document line copies the code, rate and type as they read when
 * it was priced, so changing a code never reprices a line; still, once a line or claim line has used
 * a code its rate and type are fixed (a new rate is a new code), so one code never means two rates.
 */

/** Tax types that carry no tax: exempt (E, the line then needs an exemption reason) and not applicable (06). */
const ZERO_RATED_TYPES = new Set(['E', '06']);

export function taxCodeView(c: TaxCodeRow) {
  return {
    id: c.id,
    code: c.code,
    name: c.name,
    rate: formatRate(c.rate),
    tax_type: c.taxType,
    tax_pack_kind: c.taxPackKind,
    active: c.active,
    revision: c.revision,
  };
}
export type TaxCodeView = ReturnType<typeof taxCodeView>;

function checkRateAndType(r: Refusals, rate: string | undefined, taxType: string | undefined, current?: TaxCodeRow): void {
  const rateOk = rate === undefined || rateInRange(r, rate, '/rate', { min: '0', max: '100' });
  const typeOk = taxType === undefined || r.check(isTaxType(taxType), '/tax_type', 'is not a MyInvois tax type (01 to 06, E)');
  const effectiveType = taxType ?? current?.taxType;
  const effectiveRate = rate ?? current?.rate;
  if (rateOk && typeOk && effectiveType && effectiveRate !== undefined && ZERO_RATED_TYPES.has(effectiveType) && !new Dec(effectiveRate).isZero()) {
    r.add('/rate', `must be 0 for tax type ${effectiveType} (${effectiveType === 'E' ? 'exempt' : 'not applicable'})`);
  }
}

const codeInUse = <T>(write: () => Promise<T>, code: string | undefined) => uniquely(write, 'tax_codes_org_code', '/code', `A tax code ${code} already exists`);

const taxCodes: SetupFamily<TaxCodeRow, TaxCodeView> = {
  entity: 'taxCodes',
  what: 'tax code',
  lock: (ctx, id) => lockTaxCode(ctx.db, { organizationId: ctx.org.id, id }),
  write: (ctx, current, set) =>
    codeInUse(() => updateTaxCodeRow(ctx.db, { organizationId: ctx.org.id, id: current.id }, { ...set, revision: current.revision + 1 }), set.code),
  view: (_ctx, row) => taxCodeView(row),
  inactive: (_ctx, row) => (row.active ? undefined : 'is already inactive'),
};

export interface CreateTaxCodeInput {
  code: string;
  name: string;
  rate: string;
  tax_type: string;
  tax_pack_kind?: TaxPackKind;
}

export async function createTaxCode(ctx: ServiceContext, input: CreateTaxCodeInput): Promise<TaxCodeView> {
  const r = new Refusals();
  checkCode(r, input.code);
  checkName(r, input.name);
  checkRateAndType(r, input.rate, input.tax_type);
  r.throwIfAny();
  const code = input.code.trim();
  const row = await codeInUse(
    () =>
      insertTaxCode(ctx.db, {
        organizationId: ctx.org.id,
        code,
        name: input.name.trim(),
        rate: input.rate,
        taxType: input.tax_type,
        taxPackKind: input.tax_pack_kind ?? 'my_sst',
      }),
    code,
  );
  return createdRecord(ctx, taxCodes, row);
}

export interface UpdateTaxCodeInput extends RecordChange {
  code?: string;
  name?: string;
  rate?: string;
  tax_type?: string;
}

export async function updateTaxCode(ctx: ServiceContext, input: UpdateTaxCodeInput): Promise<TaxCodeView> {
  return changeRecord(ctx, taxCodes, input, async (current) => {
    const r = new Refusals();
    checkCode(r, input.code);
    checkName(r, input.name);
    checkRateAndType(r, input.rate, input.tax_type, current);
    r.throwIfAny();
    // A rate sent as it stands ("8" for 8.0000000000) is no change.
    const rate = input.rate !== undefined && !new Dec(input.rate).eq(current.rate) ? input.rate : undefined;
    const taxType = input.tax_type !== current.taxType ? input.tax_type : undefined;
    if ((rate !== undefined || taxType !== undefined) && (await isTaxCodeUsed(ctx.db, { organizationId: ctx.org.id, id: current.id }))) {
      const pointer = rate !== undefined ? '/rate' : '/tax_type';
      throw new AppError('conflict', {
        detail: `The tax code ${current.code} is used on document or claim lines: its rate and tax type are fixed; create a new tax code for the new rate`,
        errors: [{ pointer, detail: 'cannot change once the tax code is used' }],
      });
    }
    return { code: input.code?.trim(), name: input.name?.trim(), rate, taxType };
  });
}

export async function deactivateTaxCode(ctx: ServiceContext, input: RecordChange): Promise<TaxCodeView> {
  return deactivateRecord(ctx, taxCodes, input, () => ({ active: false }));
}

export type ListTaxCodesInput = SetupListInput;

export function listTaxCodesPage(ctx: ServiceContext, input: ListTaxCodesInput) {
  return setupListPage(ctx, 'settings.taxCodes', input, {}, (q) => listTaxCodes(ctx.db, q), (c) => c.code, taxCodeView);
}
