import type { AppDeps } from '../deps';
import { allPages, as, daysBefore } from './actors';
import type { Cast, SeededOrganization } from './people';
import type { ReferenceData } from './reference-data';
import type { DemoOrganization } from './types';

/**
 * Who approves the demo's claims (docs/design.md §17), set up by the owner through settings.*: the two
 * grants every organization starts with (`Line manager`: the claimant's superior signs in review;
 * `Project approvers`: each analytic account's approver signs its share in finance), a `default`
 * finance grant naming the Finance Manager's seat (the finance controller) as the project approvers'
 * fallback, the owner as the KLCC project's approver up to 1,000.00 (a share above goes to the
 * controller), and the owner's delegation to the finance controller while she travels. An
 * organization of one person has nobody to sign its claims: it keeps the defaults only.
 */

export type Printed = Pick<DemoOrganization, 'approval_grants' | 'delegations' | 'approver_assignments'>;

export interface ApprovalSetup {
  printed: Printed;
  /** Whether claims can be decided at all (someone other than the claimant signs). */
  decidable: boolean;
}

export async function seedApprovals(deps: AppDeps, org: SeededOrganization, cast: Cast, ref: ReferenceData): Promise<ApprovalSetup> {
  const { owner, approver, claimant } = cast;
  const settings = () => as(deps, owner).settings;
  const listGrants = () => allPages((cursor) => settings().approvalGrants.list({ limit: 100, cursor }));
  const decidable = org.members.filter((m) => m.active).length > 1 && approver.id !== owner.id && claimant.id !== owner.id;
  if (!decidable) return { decidable, printed: { approval_grants: (await listGrants()).map(grantOf), delegations: [], approver_assignments: [] } };

  const projectApprovers = (await listGrants()).find((g) => g.kind === 'account_approver' && g.active);
  if (!projectApprovers) throw new Error(`demo: ${org.name} has no Project approvers grant`);
  const controller = await settings().approvalGrants.create({ name: 'Finance controller', kind: 'default', step: 'finance', holder_position_id: ref.financeManager.id });
  await as(deps, owner, { ifMatch: projectApprovers.revision }).settings.approvalGrants.update({ id: projectApprovers.id, fallback_grant_id: controller.id });

  const klcc = await settings().approverAssignments.create({
    analytic_account_id: ref.projects.klcc.id,
    member_id: owner.id,
    valid_from: '2024-01-01',
    min_amount: '0',
    max_amount: '1000.00',
  });
  // Two weeks before the seed to a month later: the claims' decisions fall in it.
  const from = daysBefore(ref.today, 15);
  const delegation = await settings().delegations.create({
    delegator_member_id: owner.id,
    delegate_member_id: approver.id,
    valid_from: from,
    valid_to: daysBefore(from, -60),
    reason: 'Travelling to the Tokyo trade fair',
  });
  return {
    decidable,
    printed: {
      approval_grants: (await listGrants()).map(grantOf),
      delegations: [delegation].map((d) => ({ id: d.id, delegator_member_id: d.delegator_member_id, delegate_member_id: d.delegate_member_id, valid_from: d.valid_from, valid_to: d.valid_to, scope: d.scope })),
      approver_assignments: [klcc].map((a) => ({ id: a.id, analytic_account_id: a.analytic_account_id, member_id: a.member_id, min_amount: a.min_amount, max_amount: a.max_amount })),
    },
  };
}

function grantOf(g: { id: string; name: string; kind: string; step: string; fallback_grant_id: string | null; active: boolean }) {
  return { id: g.id, name: g.name, kind: g.kind, step: g.step, fallback_grant_id: g.fallback_grant_id, active: g.active };
}
