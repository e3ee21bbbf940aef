import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../deps';
import type { BuiltInRole } from '../domain/permissions';
import type { updateProfileInput } from '../contract/organization/profile';
import { issueApiKey } from '../services/access/credentials';
import { adminContext, createOrganizationWithOwner } from '../services/access/organization-setup';
import { allPages, anonymous, as } from './actors';
import type { DemoMember } from './types';
import type { z } from 'zod';

/**
 * The demo's organizations and their people, set up as an administrator and the people themselves
 * would: `org create` with the owner (the admin CLI's service), the owner logs in and fills in the
 * seller identity (organization.profile.update), adds the others with their e-mail, password and
 * role (organization.members.add), deactivates the one who left; everyone active logs in
 * (auth.login) and gets an API key (the CLI's `key create`). Passwords are random for each run.
 */

interface PersonSpec {
  name: string;
  /** The local part of the login e-mail. */
  login: string;
  role: BuiltInRole;
  /** Added, then deactivated: a member who left. */
  left?: true;
}

export interface OrganizationSpec {
  key: 'acme' | 'acme-properties' | 'borneo' | 'solo';
  name: string;
  record_languages?: string[];
  /** The seller identity MyInvois documents carry (organization.profile.update). */
  profile: z.input<typeof updateProfileInput>;
  /** The owner first. */
  people: [PersonSpec & { role: 'owner' }, ...PersonSpec[]];
}

export const ACME: OrganizationSpec = {
  key: 'acme',
  name: 'Acme Trading Sdn Bhd',
  profile: {
    tin: 'C20880050010',
    registration_no: '201901012345',
    sst_no: 'W10-1808-32000001',
    msic: '46510',
    business_activity: 'Wholesale of computers, computer peripheral equipment and software',
    tourism_tax_no: 'NA',
    phone: '+60321234567',
    email: 'billing@acme.example.my',
    address: { line1: 'Level 12, Menara Acme', line2: 'Jalan Sultan Ismail', city: 'Kuala Lumpur', postcode: '50250', state: '14', country_code: 'MY' },
  },
  people: [
    { name: 'Aisha Owner', login: 'aisha', role: 'owner' },
    { name: 'Ben Accountant', login: 'ben', role: 'accountant' },
    { name: 'Chong Clerk', login: 'chong', role: 'clerk' },
    { name: 'Devi Employee', login: 'devi', role: 'employee' },
    { name: 'Eng Viewer', login: 'eng', role: 'viewer' },
    { name: 'Farid Former', login: 'farid', role: 'clerk', left: true },
  ],
};

/** Acme's sister company: the group company Acme's C-GROUP customer is. */
export const ACME_PROPERTIES: OrganizationSpec = {
  key: 'acme-properties',
  name: 'Acme Properties Sdn Bhd',
  profile: { registration_no: '201901054321' },
  people: [{ name: 'Azlan Owner', login: 'azlan', role: 'owner' }],
};

export const BORNEO: OrganizationSpec = {
  key: 'borneo',
  name: 'Borneo Logistics Sdn Bhd',
  record_languages: ['en', 'ms', 'zh'],
  profile: { tin: 'C10234567080', registration_no: '201501098765', msic: '52100' },
  people: [
    { name: 'Grace Owner', login: 'grace', role: 'owner' },
    { name: 'Hafiz Accountant', login: 'hafiz', role: 'accountant' },
    { name: 'Ivy Employee', login: 'ivy', role: 'employee' },
  ],
};

export const SOLO: OrganizationSpec = {
  key: 'solo',
  name: 'Siti Consulting',
  profile: { tin: 'IG12345678010' },
  people: [{ name: 'Siti Sole Owner', login: 'siti', role: 'owner' }],
};

/** One run of the demo: its clock, and the credentials it makes up. */
export interface DemoRun {
  now: Date;
  /** Random, so a run's e-mails are new even on a database that holds earlier runs. */
  tag: string;
  password(): string;
  email(org: OrganizationSpec, person: PersonSpec): string;
}

export function demoRun(now: Date): DemoRun {
  const tag = randomBytes(3).toString('hex');
  return {
    now,
    tag,
    password: () => randomBytes(12).toString('base64url'),
    // Each run's organization has its own mail domain: an e-mail names one member, so logging in
    // needs no organization_id.
    email: (org, person) => `${person.login}@${org.key}-${tag}.demo.example.my`,
  };
}

export interface SeededOrganization {
  spec: OrganizationSpec;
  id: string;
  name: string;
  base_currency: string;
  members: DemoMember[];
  /** Members who left, still to be deactivated once the org chart holds their old seat. */
  leavers: { id: string; revision: number }[];
}

/** Logs the member in with their e-mail and password, as the person would; answers the session. */
async function logIn(deps: AppDeps, member: DemoMember): Promise<string> {
  const answer = await anonymous(deps).auth.login({ email: member.email, password: member.password });
  if (answer.member.id !== member.id || !answer.session_token) throw new Error(`demo: ${member.email} logged in as another member, or without a token`);
  return answer.session_token;
}

export async function seedOrganization(deps: AppDeps, run: DemoRun, spec: OrganizationSpec): Promise<SeededOrganization> {
  const [ownerSpec, ...others] = spec.people;
  const person = (p: PersonSpec): Omit<DemoMember, 'id'> => ({
    name: p.name,
    email: run.email(spec, p),
    password: run.password(),
    role: p.role,
    permissions: [],
    active: true,
    api_key: null,
    session_token: null,
  });

  // The administrator creates the organization with its owner (the CLI's `org create`).
  const first = person(ownerSpec);
  const { organization, owner: ownerView } = await createOrganizationWithOwner(deps.db, run.now, {
    name: spec.name,
    record_languages: spec.record_languages,
    owner: { name: first.name, email: first.email, password: first.password },
  });
  const owner: DemoMember = { id: ownerView.id, ...first };
  owner.session_token = await logIn(deps, owner);

  // The owner fills in the seller identity and adds the others.
  const profile = await as(deps, owner).organization.profile.get();
  await as(deps, owner, { ifMatch: profile.revision }).organization.profile.update(spec.profile);
  const members = [owner];
  const leavers: SeededOrganization['leavers'] = [];
  for (const p of others) {
    const fields = person(p);
    const added = await as(deps, owner).organization.members.add({ name: fields.name, email: fields.email, password: fields.password, roles: [p.role] });
    const member: DemoMember = { id: added.id, ...fields };
    // A member who left: shown inactive from the start; the deactivation itself waits until the org
    // chart has their old seat (deactivateLeavers), since only an active member can be given one.
    if (p.left) {
      member.active = false;
      leavers.push({ id: added.id, revision: added.revision });
    }
    members.push(member);
  }

  const roles = await allPages((cursor) => as(deps, owner).organization.roles.list({ limit: 100, cursor }));
  const admin = await adminContext(deps.db, organization.id, run.now);
  for (const member of members) {
    member.permissions = roles.find((r) => r.key === member.role)?.permissions ?? [];
    if (!member.active) continue;
    member.session_token ??= await logIn(deps, member);
    // The administrator's `key create`: the key carries what the member holds.
    member.api_key = (await issueApiKey(admin, { member_id: member.id, name: `${member.name} demo key` })).api_key;
  }
  return { spec, id: organization.id, name: organization.name, base_currency: organization.baseCurrency, members, leavers };
}

/** The owner deactivates the members who left (organization.members.deactivate, If-Match). */
export async function deactivateLeavers(deps: AppDeps, org: SeededOrganization): Promise<void> {
  const owner = org.members[0]!;
  for (const l of org.leavers) await as(deps, owner, { ifMatch: l.revision }).organization.members.deactivate({ id: l.id });
}

/** Who plays which part in the organization's documents and claims; in a small one, the same person plays several. */
export function castOf(org: SeededOrganization) {
  const active = org.members.filter((m) => m.active);
  const byRole = (role: BuiltInRole) => active.find((m) => m.role === role);
  const owner = byRole('owner');
  if (!owner) throw new Error(`demo: ${org.name} has no active owner`);
  const preparer = byRole('clerk') ?? owner;
  const approver = byRole('accountant') ?? owner;
  return {
    owner,
    /** Prepares documents. */
    preparer,
    /** Manages customers, issues documents, records receipts; when the preparer is the only one, under the sole-owner exception. */
    issuer: active.find((m) => m.role === 'accountant' && m.id !== preparer.id) ?? owner,
    /** Signs off and approves claims. */
    approver,
    claimant: byRole('employee') ?? owner,
    colleague: byRole('clerk') ?? approver,
    /** A member who left (inactive): the Sales Manager's seat is still theirs on the org chart. */
    leaver: org.members.find((m) => !m.active),
  };
}
export type Cast = ReturnType<typeof castOf>;
