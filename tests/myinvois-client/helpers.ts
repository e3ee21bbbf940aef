/**
 * Test helpers for the MyInvois client: the simulator of tests/myinvois-simulator (its clients,
 * taxpayers and minimal invoice) listening on a free local port, and clients of it sharing one token
 * cache and the simulator's clock (so `control.advance` moves token expiry too). The simulator is on
 * 127.0.0.1: the clients' outbound policy allows that network explicitly (LOOPBACK_ALLOWED).
 */

export const LOOPBACK_ALLOWED = outboundPolicy(parseNetworkList('127.0.0.1/32').networks);
/** The tenant (organization id) of the clients unless a test names another. */
export const TENANT = 'org-a';
import { MyInvoisClient, TokenCache, type MyInvoisClientOptions } from '../../src/integrations/myinvois/client';
import { outboundPolicy, parseNetworkList } from '../../src/integrations/outbound';
import type { SimulatorOptions } from '../../src/integrations/myinvois/simulator';
import { inv, setup, SUPPLIER, type Doc } from '../myinvois-simulator/helpers';

export { BUYER, inv, minimalInvoice, OTHER, START, SUPPLIER } from '../myinvois-simulator/helpers';

export async function startSimulator(options: SimulatorOptions = {}) {
  const sim = setup(options);
  const apiBaseUrl = await sim.app.listen({ port: 0, host: '127.0.0.1' });
  const tokens = new TokenCache();
  function client(who: { clientId: string; clientSecret: string } = SUPPLIER, extra: Partial<MyInvoisClientOptions> = {}) {
    return new MyInvoisClient({ tenant: TENANT, apiBaseUrl, clientId: who.clientId, clientSecret: who.clientSecret, tokens, outbound: LOOPBACK_ALLOWED, now: () => sim.control.now(), ...extra });
  }
  async function close() {
    sim.control.recover();
    await sim.app.close();
  }
  return { ...sim, apiBaseUrl, tokens, client, close };
}

/** A document as the service stores it: its serialised bytes, and its number. */
export function toSubmit(doc: Doc) {
  return { codeNumber: String(inv(doc)['ID'][0]._), bytes: Buffer.from(JSON.stringify(doc), 'utf8') };
}
