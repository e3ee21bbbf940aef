/**
 * The MyInvois simulator inside the server process (npm start on the embedded database, MYINVOIS.md
 * "The MyInvois simulator"): listens on MYINVOIS_SIMULATOR_PORT (another free port when that one is
 * taken), knows again, at every start, the ERP clients and taxpayers of the organizations whose
 * settings point at it (it keeps nothing between runs), and gives the demo seed its `settle` step.
 * The simulator holds no real secret; production configurations turn it off. Its own address is
 * allowed by the service (`outbound`: the given policy plus this origin), never by the operator's
 * OUTBOUND_ALLOWED_NETWORKS.
 */
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database } from '../../db/client';
import { customers, einvoicingSettings, organizations } from '../../db/schema';
import { createSimulator, type Simulator } from '../../integrations/myinvois/simulator';
import { trustingOrigin, type OutboundPolicy } from '../../integrations/outbound';
import { open } from '../../lib/secret-box';
import type { DemoEinvoicing } from '../../demo/types';
import type { MyinvoisDeps } from './connection';
import { POLL_DELAY_MS, pollDue, submitDue } from './submission';

export interface InProcessSimulator {
  url: string;
  simulator: Simulator;
  /** What the demo seed needs to e-invoice through it. */
  demo: DemoEinvoicing;
  /** The outbound policy given, with this simulator's origin allowed: the process's from now on. */
  outbound: OutboundPolicy;
  close(): Promise<void>;
}

async function listen(sim: Simulator, port: number): Promise<string> {
  try {
    return await sim.app.listen({ port, host: '127.0.0.1' });
  } catch (error) {
    if ((error as { code?: string }).code !== 'EADDRINUSE') throw error;
    return sim.app.listen({ port: 0, host: '127.0.0.1' });
  }
}

export async function startInProcessSimulator(opts: { db: Database; port: number; myinvois: MyinvoisDeps; log: Logger }): Promise<InProcessSimulator> {
  const simulator = createSimulator({ validationDelayMs: 2_000 });
  const url = await listen(simulator, opts.port);
  const outbound = trustingOrigin(opts.myinvois.outbound, url);
  const myinvois: MyinvoisDeps = { ...opts.myinvois, outbound };
  const { control } = simulator;
  await reintroduce(opts.db, simulator, url, opts.myinvois.key, opts.log);
  const demo: DemoEinvoicing = {
    apiBaseUrl: url,
    portalBaseUrl: url,
    register(client, taxpayers) {
      control.registerClient(client);
      for (const taxpayer of taxpayers) control.registerTaxpayer(taxpayer);
    },
    async settle(deps, organizationId, now) {
      const db = deps.db as Database;
      await submitDue(db, organizationId, now, myinvois);
      control.validatePending();
      await pollDue(db, organizationId, now, myinvois, { dueBy: new Date(now.getTime() + POLL_DELAY_MS) });
    },
  };
  return { url, simulator, demo, outbound, close: () => simulator.app.close() };
}

/**
 * Registers again, with a simulator that has just started, every organization e-invoicing against
 * the simulator environment: its ERP client (secret unsealed), its own TIN and the TINs of its
 * customers with a BRN, and points its settings at this run's address.
 */
async function reintroduce(db: Database, sim: Simulator, url: string, key: Buffer, log: Logger): Promise<void> {
  const rows = await db
    .select({ settings: einvoicingSettings, seller: organizations.seller, name: organizations.name })
    .from(einvoicingSettings)
    .innerJoin(organizations, eq(organizations.id, einvoicingSettings.organizationId))
    .where(and(eq(einvoicingSettings.environment, 'simulator'), isNotNull(einvoicingSettings.clientId), isNotNull(einvoicingSettings.clientSecretSealed)));
  for (const { settings, seller, name } of rows) {
    const organizationId = settings.organizationId;
    if (!seller.tin) continue;
    try {
      sim.control.registerClient({ clientId: settings.clientId!, clientSecret: open(key, settings.clientSecretSealed!, organizationId), tin: seller.tin });
    } catch {
      log.warn({ organizationId }, 'the MyInvois client secret of an organization cannot be opened with this key; its simulator client is not registered');
      continue;
    }
    if (seller.registration_no) sim.control.registerTaxpayer({ tin: seller.tin, idType: 'BRN', idValue: seller.registration_no, name: seller.name ?? name });
    const known = await db
      .select({ tin: customers.tin, registrationNo: customers.registrationNo, registrationType: customers.registrationType, legalName: customers.legalName })
      .from(customers)
      .where(and(eq(customers.organizationId, organizationId), isNotNull(customers.tin)));
    for (const c of known) {
      if (c.tin && c.registrationNo && c.registrationType === 'brn' && !c.tin.startsWith('EI')) {
        sim.control.registerTaxpayer({ tin: c.tin, idType: 'BRN', idValue: c.registrationNo, name: c.legalName });
      }
    }
    if (settings.urls['simulator']?.api_base_url !== url) {
      const urls = { ...settings.urls, simulator: { api_base_url: url, portal_base_url: url } };
      await db.update(einvoicingSettings).set({ urls }).where(eq(einvoicingSettings.organizationId, organizationId));
    }
  }
}
