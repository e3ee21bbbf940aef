import * as ref from '../../db/queries/expense-reference-data';
import { Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { openPage } from '../settings/page';
import { changeRecord, createdRecord, deactivateRecord, uniquely, visibleText, type RecordChange, type SetupFamily } from '../settings/setup';

/** settings.expenseCategories: what claim lines are spent on; the code is unique in the organization. */

const ENTITY = 'expenseCategories';

export function expenseCategoryView(row: ref.ExpenseCategoryRow) {
  return { id: row.id, code: row.code, name: row.name, active: row.active, revision: row.revision };
}
export type ExpenseCategoryAnswer = ReturnType<typeof expenseCategoryView>;

export async function listExpenseCategories(ctx: ServiceContext, input: { include_inactive?: boolean; limit?: number; cursor?: string }) {
  const filters = { include_inactive: input.include_inactive ?? false };
  const page = await openPage(ctx, ENTITY, input, filters);
  const rows = await ref.listExpenseCategories(ctx.db, { organizationId: ctx.org.id, includeInactive: filters.include_inactive, after: page.after, limit: page.take });
  return page.answer(rows, (c) => ({ value: c.code, id: c.id }), expenseCategoryView);
}

const codeInUse = <T>(write: () => Promise<T>, code: string | undefined) =>
  uniquely(write, 'expense_categories_org_code', '/code', `An expense category with the code ${code} already exists`);

const expenseCategories: SetupFamily<ref.ExpenseCategoryRow, ExpenseCategoryAnswer> = {
  entity: ENTITY,
  what: 'expense category',
  lock: (ctx, id) => ref.lockExpenseCategory(ctx.db, { organizationId: ctx.org.id, id }),
  write: (ctx, current, set) => codeInUse(() => ref.updateExpenseCategoryRow(ctx.db, { organizationId: ctx.org.id, id: current.id, set }), set.code),
  view: (_ctx, row) => expenseCategoryView(row),
  inactive: (_ctx, row) => (row.active ? undefined : 'is already inactive'),
};

export async function createExpenseCategory(ctx: ServiceContext, input: { code: string; name: string }): Promise<ExpenseCategoryAnswer> {
  const r = new Refusals();
  const code = visibleText(r, input.code, '/code', 50);
  const name = visibleText(r, input.name, '/name', 200);
  r.throwIfAny();
  return createdRecord(ctx, expenseCategories, await codeInUse(() => ref.insertExpenseCategory(ctx.db, { organizationId: ctx.org.id, code, name }), code));
}

export async function updateExpenseCategory(ctx: ServiceContext, input: RecordChange & { code?: string; name?: string }): Promise<ExpenseCategoryAnswer> {
  return changeRecord(ctx, expenseCategories, input, () => {
    const r = new Refusals();
    const code = visibleText(r, input.code, '/code', 50);
    const name = visibleText(r, input.name, '/name', 200);
    r.throwIfAny();
    return { code, name };
  });
}

/** A deactivated category is offered to no new claim line; lines already filed keep it. */
export async function deactivateExpenseCategory(ctx: ServiceContext, input: RecordChange): Promise<ExpenseCategoryAnswer> {
  return deactivateRecord(ctx, expenseCategories, input, () => ({ active: false }));
}
