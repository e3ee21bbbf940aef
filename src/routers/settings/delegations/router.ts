import { delegationContract } from '../../../contract/settings/delegations';
import { createDelegation, deactivateDelegation, listDelegations, updateDelegation } from '../../../services/approvals-setup/delegations';
import { setupRouter } from '../setup-router';

/**
 * settings.delegations.*: any member's delegations, managed by set-up. The delegator, the delegate,
 * the scope and its target are fixed at creation; the period and the reason change.
 */
export const delegationsRouter = setupRouter(delegationContract, { list: listDelegations, create: createDelegation, update: updateDelegation, deactivate: deactivateDelegation }, 'decision');
