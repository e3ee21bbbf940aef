/**
 * MyInvois client, tenancy and transport (issue 25): a token is cached per organization and per
 * secret, so another organization naming the same client id never gets it and a wrong secret is
 * refused by MyInvois; requests go through the outbound guard at connect time, never follow a
 * redirect, read at most 512 KiB of an answer, and keep only LHDN's own error fields.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MyInvoisClient, MyInvoisError } from '../../src/integrations/myinvois/client';
import { STRICT_POLICY } from '../../src/integrations/outbound';
import { BUYER, LOOPBACK_ALLOWED, startSimulator, SUPPLIER } from './helpers';

let sim: Awaited<ReturnType<typeof startSimulator>> | undefined;
let server: Server | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

const validate = (client: MyInvoisClient) => client.validateTin(BUYER.tin, 'BRN', '201901234567');
const failure = (p: Promise<unknown>) => p.then(() => { throw new Error('expected a MyInvoisError'); }, (e: unknown) => e as MyInvoisError);

/** A local HTTP server; `hits` counts requests per path. */
async function serve(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; hits: Map<string, number> }> {
  const hits = new Map<string, number>();
  server = createServer((req, res) => {
    hits.set(req.url ?? '', (hits.get(req.url ?? '') ?? 0) + 1);
    handler!(req, res);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

describe('MyInvois tokens per organization and secret', () => {
  it("never hands one organization's cached token to another naming the same client id", async () => {
    sim = await startSimulator();
    expect(await validate(sim.client(SUPPLIER, { tenant: 'org-a' }))).toBe(true);
    expect(sim.control.requestCount('token')).toBe(1);
    // Organization B names A's client id with a wrong secret: MyInvois is asked, and refuses.
    const wrong = await failure(validate(sim.client({ clientId: SUPPLIER.clientId, clientSecret: 'guessed' }, { tenant: 'org-b' })));
    expect(wrong).toBeInstanceOf(MyInvoisError);
    expect(wrong).toMatchObject({ status: 400, code: 'invalid_client', operation: 'POST /connect/token' });
    expect(sim.control.requestCount('token')).toBe(2);
    expect(sim.control.requestCount('validateTin')).toBe(1);
    // The same organization with another secret is not given the cached token either.
    await failure(validate(sim.client({ clientId: SUPPLIER.clientId, clientSecret: 'guessed' }, { tenant: 'org-a' })));
    expect(sim.control.requestCount('token')).toBe(3);
    // B with the right secret gets a token of its own.
    expect(await validate(sim.client(SUPPLIER, { tenant: 'org-b' }))).toBe(true);
    expect(sim.control.requestCount('token')).toBe(4);
  });
});

describe('MyInvois requests through the outbound guard', () => {
  it('refuses a loopback address at request time when the policy does not allow it (no request leaves)', async () => {
    const local = await serve((_req, res) => res.end('{}'));
    for (const apiBaseUrl of [local.url, local.url.replace('127.0.0.1', 'localhost')]) {
      const client = new MyInvoisClient({ tenant: 'org-a', apiBaseUrl, clientId: 'x', clientSecret: 'y', outbound: STRICT_POLICY });
      const error = await failure(validate(client));
      expect(error).toMatchObject({ status: null, transient: true });
      expect(error.message).toMatch(/may not be reached at this address: resolves to a loopback address/);
    }
    expect(local.hits.size).toBe(0);
  });

  it('does not follow a redirect: a 3xx is a MyInvoisError and the target is never asked', async () => {
    const local = await serve((req, res) => {
      if (req.url === '/elsewhere/connect/token') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"access_token":"t","expires_in":3600}');
      res.writeHead(302, { location: '/elsewhere/connect/token' }).end();
    });
    const client = new MyInvoisClient({ tenant: 'org-a', apiBaseUrl: local.url, clientId: 'x', clientSecret: 'y', outbound: LOOPBACK_ALLOWED });
    const error = await failure(validate(client));
    expect(error).toMatchObject({ status: 302, transient: true, operation: 'POST /connect/token' });
    expect(error.message).toMatch(/redirects are not followed/);
    expect(local.hits.get('/elsewhere/connect/token')).toBeUndefined();
  });

  it('stops reading an answer beyond 512 KiB (a 50 MiB answer) without the memory growing', async () => {
    const CHUNK = Buffer.alloc(64 * 1024, 'x');
    const TOTAL = 50 * 1024 * 1024;
    let sent = 0;
    const local = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const pump = () => {
        while (sent < TOTAL) {
          sent += CHUNK.length;
          if (!res.write(CHUNK)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    global.gc?.();
    const before = process.memoryUsage();
    const client = new MyInvoisClient({ tenant: 'org-a', apiBaseUrl: local.url, clientId: 'x', clientSecret: 'y', outbound: LOOPBACK_ALLOWED });
    const error = await failure(validate(client));
    const after = process.memoryUsage();
    expect(error).toMatchObject({ status: null, transient: true, operation: 'POST /connect/token' });
    expect(error.message).toMatch(/answered more than 512 KiB/);
    expect(error.message.length).toBeLessThan(300);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The server was stopped well short of 50 MiB, and the process did not take the answer in.
    expect(sent).toBeLessThan(TOTAL / 2);
    expect(after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers)).toBeLessThan(20 * 1024 * 1024);
  });

  it("keeps LHDN's error fields only: never a raw page or another field of the answer", async () => {
    const local = await serve((req, res) => {
      if (req.url === '/connect/token') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"access_token":"t","expires_in":3600}');
      if (req.url!.startsWith('/api/v1.0/taxpayer/validate/C1')) {
        return void res.writeHead(400, { 'content-type': 'text/html' }).end('<html>INTERNAL-ADMIN-PAGE db=10.0.0.5 password=hunter2</html>');
      }
      res.writeHead(400, { 'content-type': 'application/json' }).end(
        JSON.stringify({ error: { code: 'BadArgument', message: 'The TIN is malformed', target: 'tin', details: [{ code: 'X1', message: 'inner', target: 'tin', leaked: 'INTERNAL' }], stack: 'INTERNAL-STACK' }, env: 'INTERNAL-ENV' }),
      );
    });
    const client = new MyInvoisClient({ tenant: 'org-a', apiBaseUrl: local.url, clientId: 'x', clientSecret: 'y', outbound: LOOPBACK_ALLOWED });
    const page = await failure(client.validateTin('C1', 'BRN', '1'));
    expect(page).toMatchObject({ status: 400, code: null, details: null });
    expect(page.message).toBe('MyInvois answered 400 to GET /api/v1.0/taxpayer/validate/C1');
    const lhdn = await failure(client.validateTin('C2', 'BRN', '1'));
    expect(lhdn).toMatchObject({ status: 400, code: 'BadArgument' });
    expect(lhdn.details).toEqual({ code: 'BadArgument', message: 'The TIN is malformed', target: 'tin', details: [{ code: 'X1', message: 'inner', target: 'tin' }] });
    expect(lhdn.message).toContain('The TIN is malformed');
    expect(JSON.stringify([lhdn.details, lhdn.message, page.message])).not.toMatch(/INTERNAL|hunter2|html/);
  });
});
