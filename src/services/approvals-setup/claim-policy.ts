/**
 * settings.claimPolicy: the organization's claim rules (docs/design.md §17), one record. Without a
 * row it answers the defaults at revision 1; the first update (If-Match "1") writes the row at
 * revision 2. Changes are serialized per organization and kept in the settings history.
 */
import { lockSetupScope } from '../../db/queries/keyset';
import { findClaimPolicy, upsertClaimPolicy, type ClaimPolicyRow } from '../../db/queries/approvals';
import { formatRate } from '../../lib/money';
import { rateInRange, Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { checkRevision } from '../revision';
import { recordSettingsChange } from '../settings/history';
import { leavesUnchanged, written } from '../settings/setup';

const ENTITY = 'claimPolicy';

export const CLAIM_POLICY_DEFAULTS = { escalation_working_days: 3, escalation_max_hops: 2, weekend_days: null, sole_owner_exception: false, payout_tolerance_percent: '5' } as const;

/** The largest payout tolerance an organization may set (percent of the approved amount). */
export const PAYOUT_TOLERANCE_MAX = '100';

export function claimPolicyView(row: ClaimPolicyRow | undefined) {
  if (!row) return { ...CLAIM_POLICY_DEFAULTS, weekend_days: null as number[] | null, payout_tolerance_percent: CLAIM_POLICY_DEFAULTS.payout_tolerance_percent as string, revision: 1 };
  return {
    escalation_working_days: row.escalationWorkingDays,
    escalation_max_hops: row.escalationMaxHops,
    weekend_days: row.weekendDays,
    sole_owner_exception: row.soleOwnerException,
    payout_tolerance_percent: formatRate(row.payoutTolerancePercent),
    revision: row.revision,
  };
}
export type ClaimPolicyAnswer = ReturnType<typeof claimPolicyView>;

export async function getClaimPolicy(ctx: ServiceContext): Promise<ClaimPolicyAnswer> {
  return claimPolicyView(await findClaimPolicy(ctx.db, { organizationId: ctx.org.id }));
}

export interface UpdateClaimPolicyInput {
  expected_revision: number;
  escalation_working_days?: number;
  escalation_max_hops?: number;
  weekend_days?: number[] | null;
  sole_owner_exception?: boolean;
  /** Percent, 0 to 100, at most 2 places. */
  payout_tolerance_percent?: string;
}

function checkPolicy(r: Refusals, input: UpdateClaimPolicyInput): void {
  const days = input.escalation_working_days;
  if (days !== undefined) r.check(days >= 1 && days <= 30, '/escalation_working_days', 'must be from 1 to 30');
  const hops = input.escalation_max_hops;
  if (hops !== undefined) r.check(hops >= 0 && hops <= 10, '/escalation_max_hops', 'must be from 0 to 10');
  if (input.payout_tolerance_percent !== undefined) {
    rateInRange(r, input.payout_tolerance_percent, '/payout_tolerance_percent', { maxPlaces: 2, min: '0', max: PAYOUT_TOLERANCE_MAX });
  }
  const weekend = input.weekend_days;
  if (weekend) {
    const p = '/weekend_days';
    if (r.check(weekend.length >= 1 && weekend.length <= 3, p, 'must name 1 to 3 days (null: by the seller address state)')) {
      weekend.forEach((d, i) => r.check(d >= 1 && d <= 7, `${p}/${i}`, 'must be an ISO weekday from 1 (Monday) to 7 (Sunday)'));
      r.check(new Set(weekend).size === weekend.length, p, 'must not name a day twice');
    }
  }
}

export async function updateClaimPolicy(ctx: ServiceContext, input: UpdateClaimPolicyInput): Promise<ClaimPolicyAnswer> {
  const r = new Refusals();
  checkPolicy(r, input);
  await lockSetupScope(ctx.db, ctx.org.id, 'claim-policy');
  const current = await findClaimPolicy(ctx.db, { organizationId: ctx.org.id, forUpdate: true });
  const before = claimPolicyView(current);
  checkRevision(before.revision, input.expected_revision);
  r.throwIfAny();
  const sent = {
    escalation_working_days: input.escalation_working_days,
    escalation_max_hops: input.escalation_max_hops,
    weekend_days: input.weekend_days === undefined || input.weekend_days === null ? input.weekend_days : [...input.weekend_days].sort(),
    sole_owner_exception: input.sole_owner_exception,
    payout_tolerance_percent: input.payout_tolerance_percent,
  };
  // A change that changes nothing writes nothing and records no history.
  if (leavesUnchanged(before, sent)) return before;
  const row = written(
    await upsertClaimPolicy(ctx.db, {
      organizationId: ctx.org.id,
      escalationWorkingDays: input.escalation_working_days ?? before.escalation_working_days,
      escalationMaxHops: input.escalation_max_hops ?? before.escalation_max_hops,
      weekendDays: input.weekend_days === undefined ? before.weekend_days : input.weekend_days === null ? null : [...input.weekend_days].sort(),
      soleOwnerException: input.sole_owner_exception ?? before.sole_owner_exception,
      payoutTolerancePercent: input.payout_tolerance_percent ?? before.payout_tolerance_percent,
      revision: before.revision + 1,
    }),
  );
  const after = claimPolicyView(row);
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: ctx.org.id, action: 'update', before, after });
  return after;
}
