import { approvalGrantContract } from '../../../contract/settings/approval-grants';
import { createGrant, deactivateGrant, listGrants, updateGrant } from '../../../services/approvals-setup/grants';
import { setupRouter } from '../setup-router';

/**
 * settings.approvalGrants.*: sources of approval authority (docs/design.md §17). `kind` and `step` are
 * fixed at creation: update does not take them (400 unknown field). `update` with `active: true`
 * reactivates an inactive grant; the primary-grant rule is checked again (409).
 */
export const approvalGrantsRouter = setupRouter(approvalGrantContract, { list: listGrants, create: createGrant, update: updateGrant, deactivate: deactivateGrant }, 'decision');
