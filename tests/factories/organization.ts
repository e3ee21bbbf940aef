import type { Database } from '../../src/db/client';
import { addMember, createApiKey, createOrganization, createSession, rolePermissions } from '../../src/services/access/admin';
import type { BuiltInRole, Permission } from '../../src/services/access/permissions';

export interface TestMember {
  id: string;
  organizationId: string;
  apiKey: string;
  apiKeyId: string;
  session: string;
  sessionId: string;
}

export interface TestOrganization {
  id: string;
  baseCurrency: string;
  owner: TestMember;
}

let counter = 0;

export async function createTestMember(
  db: Database,
  organizationId: string,
  opts: { role?: BuiltInRole; name?: string; keyPermissions?: Permission[]; active?: boolean; email?: string; password?: string } = {},
): Promise<TestMember> {
  const role = opts.role ?? 'owner';
  const member = await addMember(db, {
    organizationId,
    name: opts.name ?? `Member ${++counter}`,
    roles: [role],
    active: opts.active,
    email: opts.email,
    password: opts.password,
  });
  const key = await createApiKey(db, { organizationId, ownerMemberId: member.id, permissions: opts.keyPermissions ?? rolePermissions(role) });
  const session = await createSession(db, { organizationId, memberId: member.id, now: new Date() });
  return { id: member.id, organizationId, apiKey: key.token, apiKeyId: key.id, session: session.token, sessionId: session.id };
}

export async function createTestOrganization(
  db: Database,
  opts: { name?: string; baseCurrency?: string; recordLanguages?: string[]; timeZone?: string } = {},
): Promise<TestOrganization> {
  const org = await createOrganization(db, {
    name: opts.name ?? `Test Org ${++counter} ${Math.random().toString(36).slice(2, 8)}`,
    baseCurrency: opts.baseCurrency,
    recordLanguages: opts.recordLanguages,
    timeZone: opts.timeZone,
  });
  const owner = await createTestMember(db, org.id, { role: 'owner', name: 'Owner' });
  return { id: org.id, baseCurrency: org.baseCurrency, owner };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A unique e-mail address for a test member (logins are per e-mail across organizations). */
export const uniqueEmail = (name = 'person') => `${name}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}@example.test`;
