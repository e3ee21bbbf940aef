import { approverAssignmentContract } from '../../../contract/settings/approver-assignments';
import { createAssignment, deactivateAssignment, listAssignments, updateAssignment } from '../../../services/approvals-setup/assignments';
import { setupRouter } from '../setup-router';

/**
 * settings.approverAssignments.*: who approves an analytic account's shares, for a dated period and
 * within a band. The account and the member are fixed at creation (update does not take them: 400).
 */
export const approverAssignmentsRouter = setupRouter(approverAssignmentContract, { list: listAssignments, create: createAssignment, update: updateAssignment, deactivate: deactivateAssignment }, 'decision');
