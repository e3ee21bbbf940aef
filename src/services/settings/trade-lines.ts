import {
  customerExists,
  insertTradeLine,
  listTradeLines,
  lockTradeLines,
  updateTradeLineRow,
  type TradeLineRow,
} from '../../db/queries/reference-data';
import type { TradeLineKind } from '../../domain/receivables';
import { isUnitCode } from '../../lib/code-lists';
import { Dec, formatRate } from '../../lib/money';
import { maxLength, notBlank, rateInRange, Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { changeRecord, createdRecord, deactivateRecord, setupListPage, type RecordChange, type SetupFamily, type SetupListInput } from './setup';

/**
 * Trade lines (settings.tradeLines.*): a customer's delivery lines and sales return lines, in base
 * units, which invoice and credit note lines take quantities from. `quantity_invoiced` is kept by
 * the documents (never sent); a line's quantity can never drop below it. Customer and kind are
 * fixed once created. A deactivated line is refused on new document lines.
 */

const REFERENCE_MAX = 100;
const DESCRIPTION_MAX = 500;
/** numeric(20, 10): below 10^10. */
const QUANTITY_MAX = '9999999999';

export function tradeLineView(t: TradeLineRow) {
  return {
    id: t.id,
    customer_id: t.customerId,
    kind: t.kind,
    reference: t.reference,
    description: t.description,
    unit_code: t.unitCode,
    quantity: formatRate(t.quantity),
    quantity_invoiced: formatRate(t.quantityInvoiced),
    line_no: t.lineNo,
    active: t.active,
    created_at: t.createdAt.toISOString(),
    revision: t.revision,
  };
}
export type TradeLineView = ReturnType<typeof tradeLineView>;

function checkFields(r: Refusals, input: { reference?: string; description?: string; quantity?: string; unit_code?: string | null }): void {
  if (input.reference !== undefined && notBlank(r, input.reference, '/reference')) maxLength(r, input.reference, REFERENCE_MAX, '/reference');
  if (input.description !== undefined && notBlank(r, input.description, '/description')) maxLength(r, input.description, DESCRIPTION_MAX, '/description');
  if (input.quantity !== undefined) rateInRange(r, input.quantity, '/quantity', { min: '0', minExclusive: true, max: QUANTITY_MAX });
  if (input.unit_code !== undefined && input.unit_code !== null) r.check(isUnitCode(input.unit_code), '/unit_code', 'is not a UN/ECE Recommendation 20 unit code');
}

const tradeLines: SetupFamily<TradeLineRow, TradeLineView> = {
  entity: 'tradeLines',
  what: 'trade line',
  // Locked as the documents lock it, so a quantity cut and a document taking units never cross.
  lock: async (ctx, id) => (await lockTradeLines(ctx.db, { organizationId: ctx.org.id, ids: [id] }))[0],
  write: (ctx, current, set) => updateTradeLineRow(ctx.db, { organizationId: ctx.org.id, id: current.id }, { ...set, revision: current.revision + 1 }),
  view: (_ctx, row) => tradeLineView(row),
  inactive: (_ctx, row) => (row.active ? undefined : 'is already inactive'),
};

export interface CreateTradeLineInput {
  customer_id: string;
  kind: TradeLineKind;
  reference: string;
  description: string;
  quantity: string;
  unit_code?: string | null;
  line_no?: number;
}

export async function createTradeLine(ctx: ServiceContext, input: CreateTradeLineInput): Promise<TradeLineView> {
  const r = new Refusals();
  checkFields(r, input);
  r.check(await customerExists(ctx.db, { organizationId: ctx.org.id, id: input.customer_id }), '/customer_id', 'no such customer in this organization');
  r.throwIfAny();
  const row = await insertTradeLine(ctx.db, {
    organizationId: ctx.org.id,
    customerId: input.customer_id,
    kind: input.kind,
    reference: input.reference.trim(),
    description: input.description.trim(),
    quantity: input.quantity,
    unitCode: input.unit_code ?? null,
    lineNo: input.line_no ?? 1,
  });
  return createdRecord(ctx, tradeLines, row);
}

export interface UpdateTradeLineInput extends RecordChange {
  reference?: string;
  description?: string;
  quantity?: string;
  unit_code?: string | null;
  line_no?: number;
}

export async function updateTradeLine(ctx: ServiceContext, input: UpdateTradeLineInput): Promise<TradeLineView> {
  const r = new Refusals();
  checkFields(r, input);
  r.throwIfAny();
  return changeRecord(ctx, tradeLines, input, (current) => {
    if (input.quantity !== undefined && new Dec(input.quantity).lt(current.quantityInvoiced)) {
      r.add('/quantity', `must not be less than the ${formatRate(current.quantityInvoiced)} base units already invoiced`);
    }
    r.throwIfAny();
    const quantity = input.quantity !== undefined && !new Dec(input.quantity).eq(current.quantity) ? input.quantity : undefined;
    return { reference: input.reference?.trim(), description: input.description?.trim(), quantity, unitCode: input.unit_code, lineNo: input.line_no };
  });
}

export async function deactivateTradeLine(ctx: ServiceContext, input: RecordChange): Promise<TradeLineView> {
  return deactivateRecord(ctx, tradeLines, input, () => ({ active: false }));
}

export interface ListTradeLinesInput extends SetupListInput {
  customer_id?: string;
  kind?: TradeLineKind;
}

export function listTradeLinesPage(ctx: ServiceContext, input: ListTradeLinesInput) {
  return setupListPage(ctx, 'settings.tradeLines', input, { customer_id: input.customer_id, kind: input.kind }, (q) => listTradeLines(ctx.db, { ...q, customerId: input.customer_id, kind: input.kind }), (t) => t.reference, tradeLineView);
}
