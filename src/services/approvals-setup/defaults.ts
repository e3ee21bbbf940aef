/**
 * The approval grants every organization starts with (docs/design.md §17): `Line manager` (superior,
 * review, to the root, no bands) and `Project approvers` (account_approver, finance, every axis, no
 * bands). Written by the new-organization hook with the default chart of accounts; organizations
 * created before get the same two rows from drizzle/*_approval-grant-defaults.sql.
 */
import { insertGrants } from '../../db/queries/approvals';
import type { ServiceContext } from '../context';
import { recordSettingsChanges } from '../settings/history';
import { grantView } from './grants';

export const DEFAULT_GRANTS = [
  { name: 'Line manager', kind: 'superior', step: 'review' },
  { name: 'Project approvers', kind: 'account_approver', step: 'finance' },
] as const;

export async function insertDefaultApprovalGrants(ctx: ServiceContext): Promise<void> {
  const rows = await insertGrants(
    ctx.db,
    DEFAULT_GRANTS.map((g) => ({ organizationId: ctx.org.id, name: g.name, kind: g.kind, step: g.step, bands: [] })),
  );
  await recordSettingsChanges(
    ctx,
    rows.map((g) => ({ entity: 'approvalGrants', record_id: g.id, action: 'create', before: null, after: grantView(g) })),
  );
}
