/**
 * The rules of an approval grant (docs/design.md §17) checked on create, update and reactivation:
 * which fields fit which kind, references (axis, holder, fallback without a cycle), bands, and the
 * primary-grant rule the engine relies on (at most one active superior grant; one active
 * account_approver grant per axis, null meaning every axis; one active default finance grant per axis).
 */
import type { ApprovalBand } from '../../db/schema';
import { findOtherActiveGrants, findGrant, type ApprovalGrantRow } from '../../db/queries/approvals';
import { findMemberRef, findPosition } from '../../db/queries/people';
import { findAnalyticAxis } from '../../db/queries/analytic-axes';
import type { ApprovalGrantKind, ApprovalStep } from '../../domain/approvals';
import { formatAmount, Dec } from '../../lib/money';
import { amountInCurrency, type Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { conflict } from '../settings/setup';

export const MAX_BANDS = 20;
export const MAX_LEVELS_LIMIT = 20;

/** A grant as it would be after the change. */
export interface GrantShape {
  id?: string;
  kind: ApprovalGrantKind;
  step: ApprovalStep;
  axisId: string | null;
  holderPositionId: string | null;
  holderMemberId: string | null;
  maxLevels: number | null;
  fallbackGrantId: string | null;
}

export interface BandInput {
  level?: number;
  min_amount: string;
  max_amount: string | null;
}

/** Which fields the kind and step allow, and whether the references are usable. */
export async function checkGrantShape(ctx: ServiceContext, r: Refusals, g: GrantShape): Promise<void> {
  const expectedStep = g.kind === 'superior' ? 'review' : g.kind === 'account_approver' ? 'finance' : undefined;
  if (expectedStep) r.check(g.step === expectedStep, '/step', `must be ${expectedStep} for a ${g.kind} grant`);
  const org = { organizationId: ctx.org.id };
  if (g.axisId !== null && r.check(g.kind !== 'superior' && g.step === 'finance', '/axis_id', 'is only for account_approver or default grants of the finance step')) {
    const axis = await findAnalyticAxis(ctx.db, { ...org, id: g.axisId });
    r.check(Boolean(axis?.active), '/axis_id', 'is not an active analytic axis of this organization');
  }
  if (g.kind === 'default') {
    const both = g.holderPositionId !== null && g.holderMemberId !== null;
    const none = g.holderPositionId === null && g.holderMemberId === null;
    r.check(!both && !none, '/holder_position_id', 'a default grant names exactly one of holder_position_id and holder_member_id');
  } else {
    r.check(g.holderPositionId === null, '/holder_position_id', 'is only for default grants');
    r.check(g.holderMemberId === null, '/holder_member_id', 'is only for default grants');
  }
  if (g.kind === 'default' && g.holderPositionId) {
    const p = await findPosition(ctx.db, { ...org, id: g.holderPositionId });
    if (r.check(Boolean(p), '/holder_position_id', 'is not a position of this organization')) r.check(!p!.retiredAt, '/holder_position_id', 'names a retired position');
  }
  if (g.kind === 'default' && g.holderMemberId) {
    const m = await findMemberRef(ctx.db, { ...org, id: g.holderMemberId });
    r.check(Boolean(m?.active), '/holder_member_id', 'is not an active member of this organization');
  }
  if (g.maxLevels !== null && r.check(g.kind === 'superior', '/max_levels', 'is only for superior grants')) {
    r.check(g.maxLevels >= 1 && g.maxLevels <= MAX_LEVELS_LIMIT, '/max_levels', `must be from 1 to ${MAX_LEVELS_LIMIT}`);
  }
  if (g.fallbackGrantId !== null) await checkFallback(ctx, r, g);
}

/** The fallback: an active grant of the organization of the same step, never the grant itself, no cycle. */
async function checkFallback(ctx: ServiceContext, r: Refusals, g: GrantShape): Promise<void> {
  const p = '/fallback_grant_id';
  if (!r.check(g.fallbackGrantId !== g.id, p, 'must not name the grant itself')) return;
  const target = await findGrant(ctx.db, { organizationId: ctx.org.id, id: g.fallbackGrantId! });
  if (!r.check(Boolean(target?.active), p, 'is not an active approval grant of this organization')) return;
  if (!r.check(target!.step === g.step, p, `must be a grant of the same step (${g.step})`)) return;
  if (!g.id) return;
  const seen = new Set<string>();
  let next: string | null = target!.fallbackGrantId;
  while (next && !seen.has(next)) {
    if (!r.check(next !== g.id, p, 'would make a cycle of fallbacks')) return;
    seen.add(next);
    next = (await findGrant(ctx.db, { organizationId: ctx.org.id, id: next }))?.fallbackGrantId ?? null;
  }
}

/** Bands: at most 20, amounts in the base currency's places, max ≥ min, levels only on superior grants, no overlap per level. */
export function checkBands(ctx: ServiceContext, r: Refusals, kind: ApprovalGrantKind, bands: BandInput[] | undefined): ApprovalBand[] | undefined {
  if (bands === undefined) return undefined;
  if (!r.check(bands.length <= MAX_BANDS, '/bands', `must have at most ${MAX_BANDS} bands`)) return undefined;
  const currency = ctx.org.baseCurrency;
  const out: ApprovalBand[] = [];
  bands.forEach((b, i) => {
    const at = `/bands/${i}`;
    let ok = amountInCurrency(r, b.min_amount, currency, `${at}/min_amount`);
    if (b.max_amount !== null) ok = amountInCurrency(r, b.max_amount, currency, `${at}/max_amount`) && ok;
    if (ok && b.max_amount !== null) ok = r.check(new Dec(b.max_amount).gte(b.min_amount), `${at}/max_amount`, 'must not be less than min_amount');
    if (b.level !== undefined && r.check(kind === 'superior', `${at}/level`, 'is only for superior grants')) {
      ok = r.check(b.level >= 1, `${at}/level`, 'must be at least 1') && ok;
    }
    if (!ok) return;
    const band: ApprovalBand = { min_amount: formatAmount(b.min_amount, currency), max_amount: b.max_amount === null ? null : formatAmount(b.max_amount, currency) };
    out.push(b.level === undefined ? band : { level: b.level, ...band });
  });
  if (out.length !== bands.length) return undefined;
  out.forEach((b, i) => {
    const clash = out.findIndex((o, j) => j < i && o.level === b.level && overlaps(o, b));
    r.check(clash === -1, `/bands/${i}`, `overlaps band ${clash} of the same level`);
  });
  return out;
}

function overlaps(a: ApprovalBand, b: ApprovalBand): boolean {
  const aBelowB = a.max_amount !== null && new Dec(a.max_amount).lt(b.min_amount);
  const bBelowA = b.max_amount !== null && new Dec(b.max_amount).lt(a.min_amount);
  return !aBelowB && !bBelowA;
}

/** The primary-grant rule: 409 when another active grant already holds the place this one would take. */
export async function checkPrimary(ctx: ServiceContext, g: GrantShape): Promise<void> {
  const others = await findOtherActiveGrants(ctx.db, { organizationId: ctx.org.id, exceptId: g.id });
  const taken = (pred: (o: ApprovalGrantRow) => boolean) => others.find(pred);
  if (g.kind === 'superior') {
    const o = taken((x) => x.kind === 'superior');
    if (o) throw conflict('/kind', 'the organization already has an active superior grant', `The active superior grant is ${o.name} (${o.id}); deactivate it first`);
  }
  if (g.kind === 'account_approver') {
    const o = taken((x) => x.kind === 'account_approver' && x.axisId === g.axisId);
    if (o) throw conflict('/axis_id', 'another active account_approver grant covers this axis', `The active account_approver grant ${o.name} (${o.id}) already covers ${g.axisId ? 'this axis' : 'every axis'}`);
  }
  if (g.kind === 'default' && g.step === 'finance' && g.axisId !== null) {
    const o = taken((x) => x.kind === 'default' && x.step === 'finance' && x.axisId === g.axisId);
    if (o) throw conflict('/axis_id', 'another active default finance grant names this axis', `The active default grant ${o.name} (${o.id}) already names this axis`);
  }
}
