-- Backfill: organizations created before every new organization got the default approval grants
-- (src/services/approvals-setup/defaults.ts) get them now: 'Line manager' (superior, review, to the
-- root, no bands) and 'Project approvers' (account_approver, finance, every axis, no bands). Only an
-- organization with no approval grant at all gets them, so grants an organization set up itself are
-- never touched and running this twice inserts nothing more. Each inserted grant gets its 'create'
-- entry in the settings history, written by the system, with the grant as settings.approvalGrants.list
-- answers it.
WITH defaults(name, kind, step, ord) AS (
  VALUES
    ('Line manager', 'superior', 'review', 1),
    ('Project approvers', 'account_approver', 'finance', 2)
),
inserted AS (
  INSERT INTO approval_grants (organization_id, name, kind, step, bands)
  SELECT o.id, d.name, d.kind, d.step, '[]'::jsonb
  FROM organizations o CROSS JOIN defaults d
  WHERE NOT EXISTS (SELECT 1 FROM approval_grants g WHERE g.organization_id = o.id)
  ORDER BY o.id, d.ord
  RETURNING organization_id, id, name, kind, step, axis_id, holder_position_id, holder_member_id, max_levels,
    fallback_grant_id, bands, active, revision, created_at
)
INSERT INTO settings_history (organization_id, entity, record_id, action, actor_member_id, actor_via, changed_at, before, after)
SELECT organization_id, 'approvalGrants', id, 'create', NULL, 'system', now(), NULL,
  jsonb_build_object('id', id, 'name', name, 'kind', kind, 'step', step, 'axis_id', axis_id,
    'holder_position_id', holder_position_id, 'holder_member_id', holder_member_id, 'max_levels', max_levels,
    'fallback_grant_id', fallback_grant_id, 'bands', bands, 'active', active, 'revision', revision,
    'created_at', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
FROM inserted;
