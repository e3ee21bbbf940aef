import type { Database } from '../db/client';
import type { AppDeps } from '../deps';
import { seedApprovals } from './approvals';
import { seedClaims } from './claims';
import { ACME, ACME_PROPERTIES, BORNEO, castOf, deactivateLeavers, demoRun, seedOrganization, SOLO, type SeededOrganization } from './people';
import { seedCompanyGroup, seedReferenceData } from './reference-data';
import { seedCustomers, seedDocuments } from './receivables';
import type { DemoData, DemoEinvoicing, DemoOrganization } from './types';

export type { DemoClaim, DemoCustomer, DemoData, DemoEinvoicing, DemoMember, DemoOrganization } from './types';

/**
 * The demo data set (docs/design.md §10): a sandbox to try the API and the fixture black-box tests
 * start from. Three organizations (Acme Trading with its group sister company, Borneo Logistics, the
 * sole owner Siti Consulting), built step by step through the operations people and the administrator
 * use: `org create`, auth.login, organization.*, settings.*, receivables.*, expenses.claims.create,
 * me.payoutChannels.create, expenses.claims.transition and pay; claim lines, which are no operation
 * yet, go to their service as the acting member. Never a database query or a table from here (tests/unit/demo-imports.test.ts).
 *
 * One transaction: a run that fails leaves nothing behind. The operations' own transactions nest in
 * it as savepoints (on the embedded database, the outer handle must not be touched meanwhile: every
 * step gets the transaction's). Each run adds a fresh set of organizations with fresh e-mails and
 * random passwords, so it works on a database that already holds one.
 */
export async function seedDemo(deps: AppDeps, now: Date, opts: { einvoicing?: DemoEinvoicing } = {}): Promise<DemoData> {
  return deps.db.transaction(async (tx) => {
    const d: AppDeps = { ...deps, db: tx as unknown as Database };
    const run = demoRun(now);

    // 1. The organizations and their people.
    const acme = await seedOrganization(d, run, ACME);
    const acmeProperties = await seedOrganization(d, run, ACME_PROPERTIES);
    const borneo = await seedOrganization(d, run, BORNEO);
    const solo = await seedOrganization(d, run, SOLO);

    // 2. Acme and its sister company are a group.
    await seedCompanyGroup(d, run, acme, castOf(acme), acmeProperties);

    // 3. Each organization's reference data, customers, documents and claims.
    const organizations: DemoOrganization[] = [];
    for (const org of [acme, borneo, solo]) {
      const cast = castOf(org);
      const { reference, printed } = await seedReferenceData(d, run, org, cast);
      // The member who left keeps their seat on the chart; only now is the deactivation taken.
      await deactivateLeavers(d, org);
      const approvals = await seedApprovals(d, org, cast, reference);
      const customers = await seedCustomers(d, org, cast, org === acme ? acmeProperties : undefined);
      const receivables = await seedDocuments(d, run, org, cast, customers, reference, org === acme ? opts.einvoicing : undefined);
      const claims = await seedClaims(d, run, org, cast, reference, approvals.decidable);
      organizations.push({
        id: org.id,
        name: org.name,
        base_currency: org.base_currency,
        members: org.members,
        customers,
        ...printed,
        ...receivables,
        ...claims,
        ...approvals.printed,
        ...extras(org, { acme, acmeProperties, solo }),
      });
    }
    return { organizations };
  });
}

/** Acme names its group sister company (and how to log in to it); the sole owner's organization says it is one. */
function extras(org: SeededOrganization, all: Record<'acme' | 'acmeProperties' | 'solo', SeededOrganization>): Partial<DemoOrganization> {
  if (org === all.acme) {
    const sibling = all.acmeProperties;
    const { id, name, email, password } = sibling.members[0]!;
    return { group_sibling_organization_id: sibling.id, group_sibling: { id: sibling.id, name: sibling.name, owner: { id, name, email, password } } };
  }
  if (org === all.solo) return { sole_owner: true };
  return {};
}
