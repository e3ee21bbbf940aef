import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import type { Database } from '../../src/db/client';
import { claims, customers, idempotencyKeys, receivableDocuments } from '../../src/db/schema';
import { createTestCustomer } from '../factories/customer';
import { createReceivablesSetup } from '../factories/receivables';

/**
 * One keyed write as the idempotency and rate-limit tests drive it. The tests only talk to this
 * shape, so pointing them at another write (POST /v1/receivables/invoices, POST /v1/expenses/claims)
 * is one more entry here: how to send it, where the record sits in the answer, how to count records.
 */
export interface WriteTarget {
  name: string;
  method: 'POST';
  url: string;
  /**
   * Creates the reference data the write needs in an organization (customer, accounts, tax codes…).
   * Tests call it right after creating each organization; `body` then refers to the reference data
   * of the organization set up last.
   */
  setup?(db: Database, organizationId: string): Promise<void>;
  /** A valid body; `variant` makes a different request (another record). */
  body(variant?: string): Record<string, unknown>;
  /** Where a created record lives (the Location header). */
  locationOf(record: { id: string }): string;
  /** The record in a success answer (REST: the body; /trpc: result.data). */
  record(json: any): { id: string; [k: string]: unknown };
  /** The problem in an error answer (REST: the body; /trpc: error.data.problem). */
  problem(json: any): { code?: string; status: number; errors?: { pointer: string; detail: string }[] };
  /** Records of this kind in an organization, optionally only those a body of `variant` makes. */
  countRecords(db: Database, organizationId: string, variant?: string): Promise<number>;
}

export interface SentWrite {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  json(): any;
  body: string;
}

/** `receivables.customers.create` over /trpc (the same procedure as POST /v1/receivables/customers). */
export function customerCreateTarget(prefix = `C-${randomUUID().slice(0, 8)}`): WriteTarget {
  const code = (variant = 'a') => `${prefix}-${variant}`;
  return {
    name: 'POST /trpc/receivables.customers.create',
    method: 'POST',
    url: '/trpc/receivables.customers.create',
    body: (variant = 'a') => ({ code: code(variant), legal_name: `Kedai ${variant} Sdn Bhd`, payment_terms_days: 30 }),
    locationOf: (r) => `/v1/receivables/customers/${r.id}`,
    record: (json) => json.result.data,
    problem: (json) => json.error.data.problem,
    async countRecords(db, organizationId, variant) {
      const where = variant
        ? and(eq(customers.organizationId, organizationId), eq(customers.code, code(variant)))
        : eq(customers.organizationId, organizationId);
      const [row] = await db.select({ n: count() }).from(customers).where(where);
      return Number(row?.n ?? 0);
    },
  };
}

/** POST /v1/receivables/customers: the same procedure as receivables.customers.create, over REST. */
export function customerRestCreateTarget(prefix = `C-${randomUUID().slice(0, 8)}`): WriteTarget {
  const trpc = customerCreateTarget(prefix);
  return {
    ...trpc,
    name: 'POST /v1/receivables/customers',
    url: '/v1/receivables/customers',
    record: (json) => json,
    problem: (json) => json,
  };
}

/** POST /v1/expenses/claims: a draft claim filed by the caller (title only is enough). */
export function claimFileTarget(prefix = randomUUID().slice(0, 8)): WriteTarget {
  const title = (variant = 'a') => `Travel ${prefix} ${variant}`;
  return {
    name: 'POST /v1/expenses/claims',
    method: 'POST',
    url: '/v1/expenses/claims',
    body: (variant = 'a') => ({ title: title(variant) }),
    locationOf: (r) => `/v1/expenses/claims/${r.id}`,
    record: (json) => json.claim,
    problem: (json) => json,
    async countRecords(db, organizationId, variant) {
      const where = variant
        ? and(eq(claims.organizationId, organizationId), eq(claims.title, title(variant)))
        : eq(claims.organizationId, organizationId);
      const [row] = await db.select({ n: count() }).from(claims).where(where);
      return Number(row?.n ?? 0);
    },
  };
}

/**
 * POST /v1/receivables/invoices: a one-line draft sales invoice. Needs a customer, a revenue account
 * and a tax code of the organization (`setup`); variants differ by customer_reference.
 */
export function invoiceCreateTarget(prefix = randomUUID().slice(0, 8)): WriteTarget {
  const reference = (variant = 'a') => `PO-${prefix}-${variant}`;
  let refs: { customerId: string; accountId: string; taxCodeId: string } | undefined;
  return {
    name: 'POST /v1/receivables/invoices',
    method: 'POST',
    url: '/v1/receivables/invoices',
    async setup(db, organizationId) {
      const ref = await createReceivablesSetup(db, organizationId);
      const customer = await createTestCustomer(db, organizationId);
      refs = { customerId: customer.id, accountId: ref.revenue.id, taxCodeId: ref.sv8.id };
    },
    body(variant = 'a') {
      if (!refs) throw new Error('invoiceCreateTarget: call setup(db, organizationId) before body()');
      return {
        kind: 'sales_invoice',
        customer_id: refs.customerId,
        customer_reference: reference(variant),
        lines: [{ account_id: refs.accountId, description: `Consulting ${variant}`, quantity: '2', unit_price: '150.00', tax_code_id: refs.taxCodeId }],
      };
    },
    locationOf: (r) => `/v1/receivables/invoices/${r.id}`,
    record: (json) => json,
    problem: (json) => json,
    async countRecords(db, organizationId, variant) {
      const where = variant
        ? and(eq(receivableDocuments.organizationId, organizationId), eq(receivableDocuments.customerReference, reference(variant)))
        : eq(receivableDocuments.organizationId, organizationId);
      const [row] = await db.select({ n: count() }).from(receivableDocuments).where(where);
      return Number(row?.n ?? 0);
    },
  };
}

export interface SendOptions {
  token: string;
  key?: string;
  body?: Record<string, unknown>;
  remoteAddress?: string;
  /** fetchWrite only: gives up on the answer when it fires. */
  signal?: AbortSignal;
}

/** Sends a write through fastify.inject. */
export async function sendWrite(app: FastifyInstance, target: WriteTarget, opts: SendOptions): Promise<SentWrite> {
  const res = await app.inject({
    method: target.method,
    url: target.url,
    headers: {
      authorization: `Bearer ${opts.token}`,
      'content-type': 'application/json',
      ...(opts.key !== undefined ? { 'idempotency-key': opts.key } : {}),
    },
    payload: JSON.stringify(opts.body ?? target.body()),
    ...(opts.remoteAddress ? { remoteAddress: opts.remoteAddress } : {}),
  });
  return res as unknown as SentWrite;
}

/** Sends a write with fetch to a listening server. */
export async function fetchWrite(baseUrl: string, target: WriteTarget, opts: SendOptions): Promise<SentWrite> {
  const res = await fetch(`${baseUrl}${target.url}`, {
    method: target.method,
    headers: {
      authorization: `Bearer ${opts.token}`,
      'content-type': 'application/json',
      ...(opts.key !== undefined ? { 'idempotency-key': opts.key } : {}),
    },
    body: JSON.stringify(opts.body ?? target.body()),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  const body = await res.text();
  return { statusCode: res.status, headers: Object.fromEntries(res.headers.entries()), body, json: () => JSON.parse(body) };
}

export async function countIdempotencyKeys(db: Database, organizationId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(idempotencyKeys).where(eq(idempotencyKeys.organizationId, organizationId));
  return Number(row?.n ?? 0);
}
