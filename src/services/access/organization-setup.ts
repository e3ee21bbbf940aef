import type { Database } from '../../db/client';
import { activeRoleGrants, listAllRoles } from '../../db/queries/access';
import { findOrganization, listOrganizations } from '../../db/queries/organizations';
import { isCurrency } from '../../lib/code-lists';
import { isValidTimeZone } from '../../lib/dates';
import { AppError } from '../../lib/errors';
import { maxLength, notBlank, Refusals } from '../../lib/refusals';
import { systemContext, type OrganizationSettings, type ServiceContext } from '../context';
import { createOrganization } from './admin';
import { carriesOwnerPower } from './authority-rules';
import { addMember, checkEmail, checkMemberName, type MemberView } from './members';
import { checkPassword } from './passwords';
import { PERMISSIONS } from './permissions';

/**
 * A new organization with its owner (the admin CLI's `org create`), and the context the CLI acts in
 * on an existing one. The caller runs these inside one transaction.
 */

/** Whom the system's changes are recorded for when no member is at hand (history's actor). */
const NOBODY = '00000000-0000-0000-0000-000000000000';

export interface CreateOrganizationWithOwnerInput {
  name: string;
  base_currency?: string;
  time_zone?: string;
  record_languages?: string[];
  owner: { name?: string; email: string; password: string };
}

function orgSettings(org: NonNullable<Awaited<ReturnType<typeof findOrganization>>>): OrganizationSettings {
  return { id: org.id, name: org.name, baseCurrency: org.baseCurrency, timeZone: org.timeZone, recordLanguages: org.recordLanguages, seller: org.seller };
}

export async function createOrganizationWithOwner(db: Database, now: Date, input: CreateOrganizationWithOwnerInput) {
  const r = new Refusals();
  if (notBlank(r, input.name, '/name')) maxLength(r, input.name, 200, '/name');
  if (input.base_currency !== undefined) r.check(isCurrency(input.base_currency), '/base_currency', 'must be an ISO 4217 currency code');
  if (input.time_zone !== undefined) r.check(isValidTimeZone(input.time_zone), '/time_zone', 'must be an IANA time zone');
  input.record_languages?.forEach((lang, i) => r.check(/^[a-z]{2,3}$/.test(lang), `/record_languages/${i}`, 'must be a language code such as en or ms'));
  checkMemberName(r, input.owner.name ?? 'Owner', '/owner/name');
  checkEmail(r, input.owner.email, '/owner/email');
  checkPassword(r, input.owner.password, '/owner/password');
  r.throwIfAny();
  const org = await createOrganization(db, {
    name: input.name,
    baseCurrency: input.base_currency,
    timeZone: input.time_zone,
    recordLanguages: input.record_languages,
  });
  // The owner is added by the system acting for the new organization (nobody holds a role yet).
  const ctx = systemContext(db, orgSettings(org), now, NOBODY, PERMISSIONS);
  const owner = await addMember(ctx, { name: input.owner.name ?? 'Owner', email: input.owner.email, password: input.owner.password, roles: ['owner'] });
  return { organization: org, owner };
}

/**
 * The context the admin CLI acts in on an organization: the system with every permission, recorded
 * in the settings history as acting for the organization's (first) owner. 404 for an unknown organization.
 */
export async function adminContext(db: Database, organizationId: string, now: Date): Promise<ServiceContext> {
  const org = await findOrganization(db, { organizationId });
  if (!org) throw new AppError('not_found', { detail: 'No such organization' });
  const roles = await listAllRoles(db, { organizationId });
  const ownerRoles = new Set(roles.filter((role) => carriesOwnerPower(role.permissions)).map((role) => role.id));
  const owner = (await activeRoleGrants(db, { organizationId })).find((g) => ownerRoles.has(g.roleId));
  return systemContext(db, orgSettings(org), now, owner?.memberId ?? NOBODY, PERMISSIONS);
}

export async function listAllOrganizations(db: Database) {
  return (await listOrganizations(db)).map((o) => ({
    id: o.id,
    name: o.name,
    base_currency: o.baseCurrency,
    time_zone: o.timeZone,
    created_at: o.createdAt.toISOString(),
  }));
}

export type OrganizationWithOwner = { organization: Awaited<ReturnType<typeof createOrganization>>; owner: MemberView };
