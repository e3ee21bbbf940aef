import {
  findAnalyticAxis,
  insertAnalyticAccount,
  listAnalyticAccounts,
  lockAnalyticAccount,
  updateAnalyticAccountRow,
  type AnalyticAccountRow,
} from '../../db/queries/reference-data';
import { Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { changeRecord, checkCode, checkName, createdRecord, deactivateRecord, setupListPage, uniquely, type RecordChange, type SetupFamily, type SetupListInput } from './setup';

/**
 * Analytic accounts (settings.analyticAccounts.*): a department, or a project on the project axis.
 * Codes are unique per axis. An account stays on the axis it was created on.
 */

export function analyticAccountView(a: AnalyticAccountRow) {
  return { id: a.id, axis_id: a.axisId, code: a.code, name: a.name, active: a.active, revision: a.revision };
}
export type AnalyticAccountView = ReturnType<typeof analyticAccountView>;

const codeInUse = <T>(write: () => Promise<T>, code: string | undefined) =>
  uniquely(write, 'analytic_accounts_org_axis_code', '/code', `The axis already has an analytic account with the code ${code}`);

const analyticAccounts: SetupFamily<AnalyticAccountRow, AnalyticAccountView> = {
  entity: 'analyticAccounts',
  what: 'analytic account',
  lock: (ctx, id) => lockAnalyticAccount(ctx.db, { organizationId: ctx.org.id, id }),
  write: (ctx, current, set) =>
    codeInUse(() => updateAnalyticAccountRow(ctx.db, { organizationId: ctx.org.id, id: current.id }, { ...set, revision: current.revision + 1 }), set.code),
  view: (_ctx, row) => analyticAccountView(row),
  inactive: (_ctx, row) => (row.active ? undefined : 'is already inactive'),
};

export interface CreateAnalyticAccountInput {
  axis_id: string;
  code: string;
  name: string;
}

export async function createAnalyticAccount(ctx: ServiceContext, input: CreateAnalyticAccountInput): Promise<AnalyticAccountView> {
  const r = new Refusals();
  checkCode(r, input.code);
  checkName(r, input.name);
  const axis = await findAnalyticAxis(ctx.db, { organizationId: ctx.org.id, id: input.axis_id });
  if (r.check(Boolean(axis), '/axis_id', 'no such analytic axis in this organization')) r.check(Boolean(axis?.active), '/axis_id', 'the analytic axis is inactive');
  r.throwIfAny();
  const code = input.code.trim();
  const row = await codeInUse(() => insertAnalyticAccount(ctx.db, { organizationId: ctx.org.id, axisId: input.axis_id, code, name: input.name.trim() }), code);
  return createdRecord(ctx, analyticAccounts, row);
}

export interface UpdateAnalyticAccountInput extends RecordChange {
  code?: string;
  name?: string;
}

export async function updateAnalyticAccount(ctx: ServiceContext, input: UpdateAnalyticAccountInput): Promise<AnalyticAccountView> {
  const r = new Refusals();
  checkCode(r, input.code);
  checkName(r, input.name);
  r.throwIfAny();
  return changeRecord(ctx, analyticAccounts, input, () => ({ code: input.code?.trim(), name: input.name?.trim() }));
}

export async function deactivateAnalyticAccount(ctx: ServiceContext, input: RecordChange): Promise<AnalyticAccountView> {
  return deactivateRecord(ctx, analyticAccounts, input, () => ({ active: false }));
}

export interface ListAnalyticAccountsInput extends SetupListInput {
  axis_id?: string;
}

export function listAnalyticAccountsPage(ctx: ServiceContext, input: ListAnalyticAccountsInput) {
  return setupListPage(ctx, 'settings.analyticAccounts', input, { axis_id: input.axis_id }, (q) => listAnalyticAccounts(ctx.db, { ...q, axisId: input.axis_id }), (a) => a.code, analyticAccountView);
}
