import type { Permission } from '../services/access/permissions';
import { authenticate, authenticated } from './middleware/authenticate';
import { requirePerson } from './middleware/require-person';
import { requirePermission } from './middleware/require-permission';
import { writeTransaction } from './middleware/write-transaction';
import { publicProcedure } from './trpc';

/**
 * The pipeline every operation goes through, in order:
 * authenticate → rate limit → permission → (writes) idempotency + transaction → handler.
 */
export const authedProcedure = publicProcedure.use(authenticated);

export function readProcedure(permission: Permission) {
  return publicProcedure.use(authenticate(permission));
}

/** A write: one transaction, made idempotent by the Idempotency-Key (required with an API key). */
export function writeProcedure(permission: Permission) {
  return publicProcedure.use(authenticate(permission)).use(writeTransaction);
}

/**
 * A people's decision: a write that only a person with a session may take (API key: 403
 * `person_required`, checked before the permission). Idempotency-Key is optional and honoured.
 */
export function decisionProcedure(permission: Permission) {
  // The mark lets a test walk every decision of the app router (tests/security/person-required.test.ts).
  return authedProcedure.meta({ decision: true }).use(requirePerson).use(requirePermission(permission)).use(writeTransaction);
}

/**
 * A people's decision whose authority is the record's own (a claim's reporter, its sign-offs'
 * grants): session only, no permission named here; the workflow decides who may take which edge.
 */
export const workflowDecisionProcedure = authedProcedure.meta({ decision: true }).use(requirePerson).use(writeTransaction);

/**
 * A read only a person may make (a session; an API key is 403 `person_required`), with this
 * permission: what an integration must not see about credentials (the organization's API keys).
 */
export function personReadProcedure(permission: Permission) {
  return authedProcedure.use(requirePerson).use(requirePermission(permission));
}

/** Any caller signed in as a person (a session); an API key is 403 `person_required`. No permission needed. */
export const sessionProcedure = authedProcedure.use(requirePerson);

/** Reading the organization's reference data (lists of accounts, tax codes, ...). */
export const settingsReadProcedure = readProcedure('organization.settings.read');

/** Changing the organization's reference data: a write (transaction, idempotency) with organization.settings.manage. */
export const settingsWriteProcedure = writeProcedure('organization.settings.manage');

/**
 * Changing who may approve (approval grants, approver assignments, delegations, the claim policy,
 * the org chart) and company group membership: a people's decision with organization.settings.manage, so session only
 * (API key: 403 person_required), as member and role changes are. Reads stay settingsReadProcedure.
 */
export const settingsDecisionProcedure = decisionProcedure('organization.settings.manage');

/** A read only a person with a session may make, with `permission` (API key: 403 `person_required`). */
export function sessionReadProcedure(permission: Permission) {
  return authedProcedure.use(requirePerson).use(requirePermission(permission));
}
