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
import { recordSettingsChange } from './history';
import type { PageInput } from './page';
import { checkCode, checkName, keysetPage, leavesUnchanged, lockedForChange, must, uniquely } from './rules';

/**
 * Analytic accounts (settings.analyticAccounts.*): a department, or a project on the project axis.
 * Codes are unique per axis. An account stays on the axis it was created on.
 */

export function analyticAccountView(a: AnalyticAccountRow) {
  return { id: a.id, axis_id: a.axisId, code: a.code, name: a.name, active: a.active, revision: a.revision };
}
export type AnalyticAccountView = ReturnType<typeof analyticAccountView>;

const ENTITY = 'analyticAccounts';
const CODE_IN_USE = 'analytic_accounts_org_axis_code';

export interface CreateAnalyticAccountInput {
  axis_id: string;
  code: string;
  name: string;
}

export async function createAnalyticAccountRow(ctx: ServiceContext, input: CreateAnalyticAccountInput): Promise<AnalyticAccountRow> {
  const r = new Refusals();
  checkCode(r, input.code);
  checkName(r, input.name);
  const axis = await findAnalyticAxis(ctx.db, { organizationId: ctx.org.id, id: input.axis_id });
  if (r.check(Boolean(axis), '/axis_id', 'no such analytic axis in this organization')) r.check(Boolean(axis?.active), '/axis_id', 'the analytic axis is inactive');
  r.throwIfAny();
  const code = input.code.trim();
  const row = must(
    await uniquely(
      () => insertAnalyticAccount(ctx.db, { organizationId: ctx.org.id, axisId: input.axis_id, code, name: input.name.trim() }),
      CODE_IN_USE,
      '/code',
      `The axis already has an analytic account with the code ${code}`,
    ),
  );
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'create', before: null, after: analyticAccountView(row) });
  return row;
}

export async function createAnalyticAccount(ctx: ServiceContext, input: CreateAnalyticAccountInput): Promise<AnalyticAccountView> {
  return analyticAccountView(await createAnalyticAccountRow(ctx, input));
}

export interface UpdateAnalyticAccountInput {
  id: string;
  expected_revision: number;
  code?: string;
  name?: string;
}

export async function updateAnalyticAccount(ctx: ServiceContext, input: UpdateAnalyticAccountInput): Promise<AnalyticAccountView> {
  const r = new Refusals();
  checkCode(r, input.code);
  checkName(r, input.name);
  r.throwIfAny();
  const current = lockedForChange(await lockAnalyticAccount(ctx.db, { organizationId: ctx.org.id, id: input.id }), input.expected_revision, 'analytic account');
  const code = input.code?.trim();
  const patch = { code, name: input.name?.trim() };
  if (leavesUnchanged(current, patch)) return analyticAccountView(current);
  const row = must(
    await uniquely(
      () => updateAnalyticAccountRow(ctx.db, { organizationId: ctx.org.id, id: current.id }, { ...patch, revision: current.revision + 1 }),
      CODE_IN_USE,
      '/code',
      `The axis already has an analytic account with the code ${code}`,
    ),
  );
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'update', before: analyticAccountView(current), after: analyticAccountView(row) });
  return analyticAccountView(row);
}

export async function deactivateAnalyticAccount(ctx: ServiceContext, input: { id: string; expected_revision: number }): Promise<AnalyticAccountView> {
  const current = lockedForChange(await lockAnalyticAccount(ctx.db, { organizationId: ctx.org.id, id: input.id }), input.expected_revision, 'analytic account');
  if (!current.active) return analyticAccountView(current);
  const row = must(await updateAnalyticAccountRow(ctx.db, { organizationId: ctx.org.id, id: current.id }, { active: false, revision: current.revision + 1 }));
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'deactivate', before: analyticAccountView(current), after: analyticAccountView(row) });
  return analyticAccountView(row);
}

export interface ListAnalyticAccountsInput extends PageInput {
  axis_id?: string;
  include_inactive?: boolean;
}

export async function listAnalyticAccountsPage(ctx: ServiceContext, input: ListAnalyticAccountsInput) {
  const includeInactive = input.include_inactive ?? false;
  return keysetPage(
    ctx,
    'settings.analyticAccounts',
    input,
    { include_inactive: includeInactive, axis_id: input.axis_id },
    (after, limit) => listAnalyticAccounts(ctx.db, { organizationId: ctx.org.id, axisId: input.axis_id, includeInactive, after, limit }),
    (a) => a.code,
    analyticAccountView,
  );
}
