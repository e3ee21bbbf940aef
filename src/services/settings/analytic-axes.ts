import {
  findProjectAxis,
  insertAnalyticAxis,
  isAnalyticAxisUsed,
  listAnalyticAxes,
  lockAnalyticAxis,
  updateAnalyticAxisRow,
  type AnalyticAxisRow,
} from '../../db/queries/reference-data';
import { isUniqueViolation } from '../../db/errors';
import { AppError } from '../../lib/errors';
import { Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { changeRecord, checkCode, checkName, createdRecord, deactivateRecord, setupListPage, type RecordChange, type SetupFamily, type SetupListInput } from './setup';

/**
 * Analytic axes (settings.analyticAxes.*): departments, projects, ... At most one axis of an
 * organization is its project axis (the documents' `project` and the claims' `project_names` read
 * it). Deactivating an axis makes its accounts unusable on new lines, as deactivating each would.
 */

export function analyticAxisView(a: AnalyticAxisRow) {
  return { id: a.id, code: a.code, name: a.name, is_project_axis: a.isProjectAxis, required_on_claims: a.requiredOnClaims, active: a.active, revision: a.revision };
}
export type AnalyticAxisView = ReturnType<typeof analyticAxisView>;

const projectAxisTaken = (existing?: { code: string }) =>
  new AppError('conflict', {
    detail: `The organization already has a project axis${existing ? ` (${existing.code})` : ''}; only one axis can be the project axis`,
    errors: [{ pointer: '/is_project_axis', detail: 'another axis is already the project axis' }],
  });

/** The two unique indexes of axes, each answered as 409 at its own field. */
async function axisWrite<T>(write: () => Promise<T>, code: string | undefined): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (isUniqueViolation(e, 'analytic_axes_org_code')) {
      throw new AppError('conflict', { detail: `An analytic axis with the code ${code} already exists`, errors: [{ pointer: '/code', detail: 'is already in use' }] });
    }
    if (isUniqueViolation(e, 'analytic_axes_one_project_axis')) throw projectAxisTaken();
    throw e;
  }
}

const axes: SetupFamily<AnalyticAxisRow, AnalyticAxisView> = {
  entity: 'analyticAxes',
  what: 'analytic axis',
  lock: (ctx, id) => lockAnalyticAxis(ctx.db, { organizationId: ctx.org.id, id }),
  write: (ctx, current, set) =>
    axisWrite(() => updateAnalyticAxisRow(ctx.db, { organizationId: ctx.org.id, id: current.id }, { ...set, revision: current.revision + 1 }), set.code),
  view: (_ctx, row) => analyticAxisView(row),
  inactive: (_ctx, row) => (row.active ? undefined : 'is already inactive'),
};

export interface CreateAnalyticAxisInput {
  code: string;
  name: string;
  is_project_axis?: boolean;
  /** Every claim line must be allocated on this axis. */
  required_on_claims?: boolean;
}

export async function createAnalyticAxis(ctx: ServiceContext, input: CreateAnalyticAxisInput): Promise<AnalyticAxisView> {
  const r = new Refusals();
  checkCode(r, input.code);
  checkName(r, input.name);
  r.throwIfAny();
  if (input.is_project_axis) {
    const existing = await findProjectAxis(ctx.db, { organizationId: ctx.org.id });
    if (existing) throw projectAxisTaken(existing);
  }
  const code = input.code.trim();
  return createdRecord(
    ctx,
    axes,
    await axisWrite(
      () => insertAnalyticAxis(ctx.db, { organizationId: ctx.org.id, code, name: input.name.trim(), isProjectAxis: input.is_project_axis ?? false, requiredOnClaims: input.required_on_claims ?? false }),
      code,
    ),
  );
}

export interface UpdateAnalyticAxisInput extends RecordChange {
  code?: string;
  name?: string;
  is_project_axis?: boolean;
  required_on_claims?: boolean;
}

export async function updateAnalyticAxis(ctx: ServiceContext, input: UpdateAnalyticAxisInput): Promise<AnalyticAxisView> {
  const r = new Refusals();
  checkCode(r, input.code);
  checkName(r, input.name);
  r.throwIfAny();
  return changeRecord(ctx, axes, input, async (current) => {
    const set = { code: input.code?.trim(), name: input.name?.trim(), isProjectAxis: input.is_project_axis, requiredOnClaims: input.required_on_claims };
    if (input.is_project_axis !== undefined && input.is_project_axis !== current.isProjectAxis) {
      if (input.is_project_axis) {
        const existing = await findProjectAxis(ctx.db, { organizationId: ctx.org.id });
        if (existing && existing.id !== current.id) throw projectAxisTaken(existing);
      }
      // Documents computed their project summary with the axis's flag when priced.
      if (await isAnalyticAxisUsed(ctx.db, { organizationId: ctx.org.id, axisId: current.id })) {
        throw new AppError('conflict', {
          detail: `Document lines already share accounts of the axis ${current.code}: whether it is the project axis can no longer change`,
          errors: [{ pointer: '/is_project_axis', detail: 'cannot change once document lines use the axis' }],
        });
      }
    }
    return set;
  });
}

export async function deactivateAnalyticAxis(ctx: ServiceContext, input: RecordChange): Promise<AnalyticAxisView> {
  return deactivateRecord(ctx, axes, input, () => ({ active: false }));
}

export type ListAnalyticAxesInput = SetupListInput;

export function listAnalyticAxesPage(ctx: ServiceContext, input: ListAnalyticAxesInput) {
  return setupListPage(ctx, 'settings.analyticAxes', input, {}, (q) => listAnalyticAxes(ctx.db, q), (a) => a.code, analyticAxisView);
}
