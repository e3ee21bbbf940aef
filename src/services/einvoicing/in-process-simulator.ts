/**
 * The MyInvois simulator inside the server process (npm start on the embedded database, docs/myinvois.md
 * "The simulator"): listens on MYINVOIS_SIMULATOR_PORT (another free port when that one is
 * taken), knows again, at every start, the ERP clients and taxpayers of the organizations whose
 * settings point at it (it keeps nothing between runs), and gives the demo seed its `settle` step.
 * The simulator holds no real secret; production configurations turn it off. Its own address is
 * allowed by the service (`outbound`: the given policy plus this origin), never by the operator's
 * OUTBOUND_ALLOWED_NETWORKS.
 */
import type { Logger } from 'pino';
import type { Database } from '../../db/client';
import { findCustomersWithTin, findSimulatorOrganizations, updateEinvoicingUrls } from '../../db/queries/einvoicing-settings';
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
  await reintroduce(opts.db, simulator, url, opts.myinvois, opts.log);
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
 * the simulator environment: its ERP client (secret unsealed), or, for an organization logging in
 * through the operator's intermediary system, that system as appointed by its TIN; its own TIN and
 * the TINs of its customers with a BRN; and points its settings at this run's address.
 */
async function reintroduce(db: Database, sim: Simulator, url: string, myinvois: MyinvoisDeps, log: Logger): Promise<void> {
  const rows = await findSimulatorOrganizations(db);
  const appointedBy: string[] = [];
  for (const { settings, seller, name } of rows) {
    const organizationId = settings.organizationId;
    if (!seller.tin) continue;
    if (settings.login === 'intermediary') {
      appointedBy.push(seller.tin);
    } else {
      try {
        sim.control.registerClient({ clientId: settings.clientId!, clientSecret: open(myinvois.key, settings.clientSecretSealed!, organizationId), tin: seller.tin });
      } catch {
        log.warn({ organizationId }, 'the MyInvois client secret of an organization cannot be opened with this key; its simulator client is not registered');
        continue;
      }
    }
    if (seller.registration_no) sim.control.registerTaxpayer({ tin: seller.tin, idType: 'BRN', idValue: seller.registration_no, name: seller.name ?? name });
    const known = await findCustomersWithTin(db, { organizationId });
    for (const c of known) {
      if (c.tin && c.registrationNo && c.registrationType === 'brn' && !c.tin.startsWith('EI')) {
        sim.control.registerTaxpayer({ tin: c.tin, idType: 'BRN', idValue: c.registrationNo, name: c.legalName });
      }
    }
    if (settings.urls['simulator']?.api_base_url !== url) {
      const urls = { ...settings.urls, simulator: { api_base_url: url, portal_base_url: url } };
      await updateEinvoicingUrls(db, { organizationId, urls });
    }
  }
  if (myinvois.intermediary) {
    // The operator's own system: a TIN of its own that no organization uses, acting for those that appointed it.
    sim.control.registerClient({ clientId: myinvois.intermediary.clientId, clientSecret: myinvois.intermediary.clientSecret, tin: 'C00000000000', onBehalfOf: appointedBy });
  }
}
