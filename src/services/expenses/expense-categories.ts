import * as ref from '../../db/queries/expense-reference-data';
import { Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { checkRevision } from '../revision';
import { recordSettingsChange } from '../settings/history';
import { decodePage, pageOf } from '../settings/page';
import { conflict, notFound, pageLimit, uniqueOrConflict, visibleText, written } from '../settings/records';

/** settings.expenseCategories: what claim lines are spent on; the code is unique in the organization. */

const ENTITY = 'expenseCategories';
const CODE_IN_USE = 'expense_categories_org_code';

export function expenseCategoryView(row: ref.ExpenseCategoryRow) {
  return { id: row.id, code: row.code, name: row.name, active: row.active, revision: row.revision };
}
export type ExpenseCategoryAnswer = ReturnType<typeof expenseCategoryView>;

export async function listExpenseCategories(ctx: ServiceContext, input: { include_inactive?: boolean; limit?: number; cursor?: string }) {
  const filters = { include_inactive: input.include_inactive ?? false };
  const after = await decodePage(ctx, ENTITY, input, filters);
  const limit = pageLimit(input);
  const rows = await ref.listExpenseCategories(ctx.db, { organizationId: ctx.org.id, includeInactive: filters.include_inactive, after, limit: limit + 1 });
  return pageOf(ctx, ENTITY, filters, rows, limit, (c) => ({ value: c.code, id: c.id }), expenseCategoryView);
}

export async function createExpenseCategory(ctx: ServiceContext, input: { code: string; name: string }): Promise<ExpenseCategoryAnswer> {
  const r = new Refusals();
  const code = visibleText(r, input.code, '/code', 50);
  const name = visibleText(r, input.name, '/name', 200);
  r.throwIfAny();
  const row = written(
    await uniqueOrConflict(
      ref.insertExpenseCategory(ctx.db, { organizationId: ctx.org.id, code, name }),
      CODE_IN_USE,
      '/code',
      `An expense category with the code ${code} already exists`,
    ),
  );
  const after = expenseCategoryView(row);
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'create', after });
  return after;
}

export async function updateExpenseCategory(
  ctx: ServiceContext,
  input: { id: string; expected_revision: number; code?: string; name?: string },
): Promise<ExpenseCategoryAnswer> {
  const q = { organizationId: ctx.org.id, id: input.id };
  const current = await ref.lockExpenseCategory(ctx.db, q);
  if (!current) throw notFound('expense category');
  checkRevision(current.revision, input.expected_revision);
  const r = new Refusals();
  const code = visibleText(r, input.code, '/code', 50);
  const name = visibleText(r, input.name, '/name', 200);
  r.throwIfAny();
  const row = written(
    await uniqueOrConflict(ref.updateExpenseCategoryRow(ctx.db, { ...q, set: { code, name } }), CODE_IN_USE, '/code', `An expense category with the code ${code} already exists`),
  );
  const before = expenseCategoryView(current);
  const after = expenseCategoryView(row);
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'update', before, after });
  return after;
}

/** A deactivated category is offered to no new claim line; lines already filed keep it. */
export async function deactivateExpenseCategory(ctx: ServiceContext, input: { id: string; expected_revision: number }): Promise<ExpenseCategoryAnswer> {
  const q = { organizationId: ctx.org.id, id: input.id };
  const current = await ref.lockExpenseCategory(ctx.db, q);
  if (!current) throw notFound('expense category');
  checkRevision(current.revision, input.expected_revision);
  if (!current.active) throw conflict('/id', 'is already inactive', 'The expense category is already inactive');
  const row = written(await ref.updateExpenseCategoryRow(ctx.db, { ...q, set: { active: false } }));
  const before = expenseCategoryView(current);
  const after = expenseCategoryView(row);
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'deactivate', before, after });
  return after;
}
