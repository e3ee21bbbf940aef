import {
  insertTaxCode,
  isTaxCodeUsed,
  listTaxCodes,
  lockTaxCode,
  updateTaxCodeRow,
  type TaxCodeRow,
} from '../../db/queries/reference-data';
import { isTaxType } from '../../lib/code-lists';
import { AppError } from '../../lib/errors';
import { Dec, formatRate } from '../../lib/money';
import { rateInRange, Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { recordSettingsChange } from './history';
import type { PageInput } from './page';
import { checkCode, checkName, keysetPage, leavesUnchanged, lockedForChange, must, uniquely } from './rules';

/**
 * Tax codes (settings.taxCodes.*). A document line copies the code, rate and type as they read when
 * it was priced, so changing a code never reprices a line; still, once a line or claim line has used
 * a code its rate and type are fixed (a new rate is a new code), so one code never means two rates.
 */

/** The tax regimes a code may belong to (the line answers it as `tax_pack_kind`). */
export const TAX_PACK_KINDS = ['my_sst'] as const;
export type TaxPackKind = (typeof TAX_PACK_KINDS)[number];

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

const ENTITY = 'taxCodes';
const CODE_IN_USE = 'tax_codes_org_code';

function checkRateAndType(r: Refusals, rate: string | undefined, taxType: string | undefined, current?: TaxCodeRow): void {
  const rateOk = rate === undefined || rateInRange(r, rate, '/rate', { min: '0', max: '100' });
  const typeOk = taxType === undefined || r.check(isTaxType(taxType), '/tax_type', 'is not a MyInvois tax type (01 to 06, E)');
  const effectiveType = taxType ?? current?.taxType;
  const effectiveRate = rate ?? current?.rate;
  if (rateOk && typeOk && effectiveType && effectiveRate !== undefined && ZERO_RATED_TYPES.has(effectiveType) && !new Dec(effectiveRate).isZero()) {
    r.add('/rate', `must be 0 for tax type ${effectiveType} (${effectiveType === 'E' ? 'exempt' : 'not applicable'})`);
  }
}

export interface CreateTaxCodeInput {
  code: string;
  name: string;
  rate: string;
  tax_type: string;
  tax_pack_kind?: TaxPackKind;
}

export async function createTaxCodeRow(ctx: ServiceContext, input: CreateTaxCodeInput): Promise<TaxCodeRow> {
  const r = new Refusals();
  checkCode(r, input.code);
  checkName(r, input.name);
  checkRateAndType(r, input.rate, input.tax_type);
  r.throwIfAny();
  const code = input.code.trim();
  const row = must(
    await uniquely(
      () =>
        insertTaxCode(ctx.db, {
          organizationId: ctx.org.id,
          code,
          name: input.name.trim(),
          rate: input.rate,
          taxType: input.tax_type,
          taxPackKind: input.tax_pack_kind ?? 'my_sst',
        }),
      CODE_IN_USE,
      '/code',
      `A tax code ${code} already exists`,
    ),
  );
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'create', before: null, after: taxCodeView(row) });
  return row;
}

export async function createTaxCode(ctx: ServiceContext, input: CreateTaxCodeInput): Promise<TaxCodeView> {
  return taxCodeView(await createTaxCodeRow(ctx, input));
}

export interface UpdateTaxCodeInput {
  id: string;
  expected_revision: number;
  code?: string;
  name?: string;
  rate?: string;
  tax_type?: string;
}

export async function updateTaxCode(ctx: ServiceContext, input: UpdateTaxCodeInput): Promise<TaxCodeView> {
  const current = lockedForChange(await lockTaxCode(ctx.db, { organizationId: ctx.org.id, id: input.id }), input.expected_revision, 'tax code');
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
  const code = input.code?.trim();
  const patch = { code, name: input.name?.trim(), rate, taxType };
  if (leavesUnchanged(current, patch)) return taxCodeView(current);
  const row = must(
    await uniquely(
      () => updateTaxCodeRow(ctx.db, { organizationId: ctx.org.id, id: current.id }, { ...patch, revision: current.revision + 1 }),
      CODE_IN_USE,
      '/code',
      `A tax code ${code} already exists`,
    ),
  );
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'update', before: taxCodeView(current), after: taxCodeView(row) });
  return taxCodeView(row);
}

export async function deactivateTaxCode(ctx: ServiceContext, input: { id: string; expected_revision: number }): Promise<TaxCodeView> {
  const current = lockedForChange(await lockTaxCode(ctx.db, { organizationId: ctx.org.id, id: input.id }), input.expected_revision, 'tax code');
  if (!current.active) return taxCodeView(current);
  const row = must(await updateTaxCodeRow(ctx.db, { organizationId: ctx.org.id, id: current.id }, { active: false, revision: current.revision + 1 }));
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'deactivate', before: taxCodeView(current), after: taxCodeView(row) });
  return taxCodeView(row);
}

export interface ListTaxCodesInput extends PageInput {
  include_inactive?: boolean;
}

export async function listTaxCodesPage(ctx: ServiceContext, input: ListTaxCodesInput) {
  const includeInactive = input.include_inactive ?? false;
  return keysetPage(
    ctx,
    'settings.taxCodes',
    input,
    { include_inactive: includeInactive },
    (after, limit) => listTaxCodes(ctx.db, { organizationId: ctx.org.id, includeInactive, after, limit }),
    (c) => c.code,
    taxCodeView,
  );
}
