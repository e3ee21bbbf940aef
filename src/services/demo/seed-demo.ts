import type { Database } from '../../db/client';
import { todayIn } from '../../lib/dates';
import { addMember, createApiKey, createOrganization, createSession, rolePermissions } from '../access/admin';
import type { BuiltInRole } from '../access/permissions';
import { createCompanyGroup, createCustomer, mapCounterparty } from '../receivables/customers';

/**
 * The demo data set: a sandbox to try the API and the fixture black-box tests start from. Built by
 * the same services the operations use. Each run adds a fresh set of organizations.
 */

export interface DemoMember {
  id: string;
  name: string;
  role: BuiltInRole;
  permissions: string[];
  active: boolean;
  api_key: string;
  session_token: string;
}

export interface DemoOrganization {
  id: string;
  name: string;
  base_currency: string;
  members: DemoMember[];
  customers: { id: string; code: string; legal_name: string; currency: string; is_active: boolean; is_group_company: boolean }[];
  [section: string]: unknown;
}

export interface DemoData {
  organizations: DemoOrganization[];
}

/** What seeding needs from the configuration: the key payout channel fields are encrypted under. */
export interface DemoOptions {
  payoutKey: Buffer;
}

/** A later area adds its part of the demo (reference data, documents, claims) for one organization. */
export type DemoSection = (
  db: Database,
  org: DemoOrganization,
  ctx: { now: Date; today: string; all: DemoData; payoutKey: Buffer },
) => Promise<void>;
const sections: DemoSection[] = [];
export function addDemoSection(section: DemoSection): void {
  sections.push(section);
}

async function seedMembers(db: Database, organizationId: string, people: { name: string; role: BuiltInRole; active?: boolean }[], now: Date) {
  const out: DemoMember[] = [];
  for (const person of people) {
    const member = await addMember(db, { organizationId, name: person.name, roles: [person.role], active: person.active ?? true });
    const permissions = rolePermissions(person.role);
    const key = await createApiKey(db, { organizationId, ownerMemberId: member.id, name: `${person.name} demo key`, permissions });
    const session = await createSession(db, { organizationId, memberId: member.id, now });
    out.push({ id: member.id, name: member.name, role: person.role, permissions, active: member.active, api_key: key.token, session_token: session.token });
  }
  return out;
}

export async function seedDemo(db: Database, now: Date, options: DemoOptions): Promise<DemoData> {
  const suffix = now.toISOString().slice(0, 19).replace(/[-:T]/g, '');
  const acme = await createOrganization(db, {
    name: 'Acme Trading Sdn Bhd',
    seller: {
      name: 'Acme Trading Sdn Bhd',
      tin: 'C20880050010',
      registration_no: '201901012345',
      sst_no: 'W10-1808-32000001',
      msic: '46510',
      address: { line1: 'Level 12, Menara Acme', line2: 'Jalan Sultan Ismail', city: 'Kuala Lumpur', postcode: '50250', state: '14', country_code: 'MY' },
    },
  });
  const borneo = await createOrganization(db, {
    name: 'Borneo Logistics Sdn Bhd',
    recordLanguages: ['en', 'ms', 'zh'],
    seller: { name: 'Borneo Logistics Sdn Bhd', tin: 'C10234567080', registration_no: '201501098765', msic: '52100' },
  });
  const solo = await createOrganization(db, { name: 'Siti Consulting', seller: { name: 'Siti Consulting', tin: 'IG12345678010' } });
  const sibling = await createOrganization(db, { name: 'Acme Properties Sdn Bhd' });
  await createCompanyGroup(db, `Acme Group ${suffix}`, [acme.id, sibling.id]);

  const data: DemoData = { organizations: [] };

  const acmeMembers = await seedMembers(
    db,
    acme.id,
    [
      { name: 'Aisha Owner', role: 'owner' },
      { name: 'Ben Accountant', role: 'accountant' },
      { name: 'Chong Clerk', role: 'clerk' },
      { name: 'Devi Employee', role: 'employee' },
      { name: 'Eng Viewer', role: 'viewer' },
      { name: 'Farid Former', role: 'clerk', active: false },
    ],
    now,
  );
  const borneoMembers = await seedMembers(
    db,
    borneo.id,
    [
      { name: 'Grace Owner', role: 'owner' },
      { name: 'Hafiz Accountant', role: 'accountant' },
      { name: 'Ivy Employee', role: 'employee' },
    ],
    now,
  );
  const soloMembers = await seedMembers(db, solo.id, [{ name: 'Siti Sole Owner', role: 'owner' }], now);

  const today = todayIn(acme.timeZone, now);
  const acmeLocal = await createCustomer(db, acme.id, {
    code: 'C-LOCAL',
    legalName: 'Kedai Runcit Maju Sdn Bhd',
    registrationNo: '200801012345',
    registrationType: 'brn',
    tin: 'C11223344050',
    sstRegistrationNo: 'W10-1234-56789012',
    email: 'accounts@maju.example.my',
    phone: '+60312345678',
    address: { line1: '12 Jalan Ampang', city: 'Kuala Lumpur', postcode: '50450', state: '14' },
    paymentTermsDays: 30,
  });
  const acmeForeign = await createCustomer(db, acme.id, {
    code: 'C-USD',
    legalName: 'Pacific Imports LLC',
    currency: 'USD',
    countryCode: 'US',
    paymentTermsDays: 45,
    tin: 'EI00000000020',
    address: { line1: '500 Market Street', city: 'San Francisco', postcode: '94105' },
  });
  const acmeGroup = await createCustomer(db, acme.id, {
    code: 'C-GROUP',
    legalName: 'Acme Properties Sdn Bhd',
    registrationNo: '201901054321',
    registrationType: 'brn',
    paymentTermsDays: 60,
  });
  await mapCounterparty(db, { organizationId: acme.id, customerId: acmeGroup.id, companyOrganizationId: sibling.id, validFrom: '2020-01-01' });
  const acmeInactive = await createCustomer(db, acme.id, { code: 'C-OLD', legalName: 'Dormant Trading Enterprise', isActive: false, partyKind: 'organization' });
  const borneoCustomer = await createCustomer(db, borneo.id, { code: 'B-001', legalName: 'Kuching Freight Sdn Bhd', paymentTermsDays: 14 });
  const soloCustomer = await createCustomer(db, solo.id, { code: 'S-001', legalName: 'Tan Wei Ming', partyKind: 'individual', registrationType: 'nric', registrationNo: '880101145566' });

  const view = (c: typeof acmeLocal, isGroup = false) => ({
    id: c.id,
    code: c.code,
    legal_name: c.legalName,
    currency: c.currency,
    is_active: c.isActive,
    is_group_company: isGroup,
  });

  data.organizations.push(
    {
      id: acme.id,
      name: acme.name,
      base_currency: acme.baseCurrency,
      members: acmeMembers,
      customers: [view(acmeLocal), view(acmeForeign), view(acmeGroup, true), view(acmeInactive)],
      group_sibling_organization_id: sibling.id,
    },
    { id: borneo.id, name: borneo.name, base_currency: borneo.baseCurrency, members: borneoMembers, customers: [view(borneoCustomer)] },
    { id: solo.id, name: solo.name, base_currency: solo.baseCurrency, members: soloMembers, customers: [view(soloCustomer)], sole_owner: true },
  );

  for (const org of data.organizations) {
    for (const section of sections) await section(db, org, { now, today, all: data, payoutKey: options.payoutKey });
  }
  return data;
}
