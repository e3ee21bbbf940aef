/**
 * The minimal floor of bench/floor.ts: the four benchmarked routes as a careful engineer would write
 * them by hand on fastify and postgres.js, with the same duties as the service and nothing else:
 *
 * - the API key authenticated with its owner's permissions (key permissions within the owner's roles,
 *   owner active, key neither revoked nor expired), the key's and the organization's rate-limit
 *   counters counted, all in ONE statement; the permission checked; 429 past the limit;
 * - the customer read and the invoice read in one statement each, the answer's JSON built by
 *   PostgreSQL (document, lines, analytic shares, attachments; the group-company mark);
 * - the list's first page (50, newest first) in one statement, JSON built by PostgreSQL;
 * - the 5-line create in one transaction: the Idempotency-Key taken under a transaction-scoped lock
 *   and looked up, customer, accounts and tax codes checked in one statement, the lines priced in
 *   decimals here, the document, its lines and its event written in one statement, the answer stored
 *   for replays.
 *
 * No cache of keys (one statement does the whole authentication), no framework around the SQL, no
 * output validation. Every statement is a named prepared statement.
 *
 *   DATABASE_URL=postgres://... MINIMAL_RATE_LIMIT=1000000000 PORT=3002 node --import tsx bench/minimal-floor-server.ts
 */
import { createHash } from 'node:crypto';
import Decimal from 'decimal.js';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import postgres from 'postgres';

const sql = postgres(process.env.DATABASE_URL!, { max: Number(process.env.DATABASE_POOL_SIZE ?? 10), onnotice: () => {}, prepare: true });
const LIMIT = Number(process.env.MINIMAL_RATE_LIMIT ?? 1_000_000_000);
const KEY_RE = /^fk_([0-9a-f-]{36})_([A-Za-z0-9_-]{20,200})$/;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Key, owner, permissions and both rate-limit counters: one statement. */
const AUTH = `
with k as (
  select k.organization_id, k.id, k.owner_member_id,
    array(select p from unnest(k.permissions) p where p = any(array(
      select unnest(r.permissions) from member_roles mr join roles r on r.organization_id = mr.organization_id and r.id = mr.role_id
      where mr.organization_id = k.organization_id and mr.member_id = k.owner_member_id))) as permissions
  from api_keys k join members m on m.organization_id = k.organization_id and m.id = k.owner_member_id
  where k.id = $1 and k.secret_hash = $2 and k.revoked_at is null and (k.expires_at is null or k.expires_at > now()) and m.active
), kc as (
  insert into rate_limit_counters (key, points, expire) select 'minimal:key:' || k.id, 1, now() + interval '1 minute' from k
  on conflict (key) do update set
    points = case when rate_limit_counters.expire <= now() then 1 else rate_limit_counters.points + 1 end,
    expire = case when rate_limit_counters.expire <= now() then excluded.expire else rate_limit_counters.expire end
  returning points
), oc as (
  insert into rate_limit_counters (key, points, expire) select 'minimal:org:' || k.organization_id, 1, now() + interval '1 minute' from k
  on conflict (key) do update set
    points = case when rate_limit_counters.expire <= now() then 1 else rate_limit_counters.points + 1 end,
    expire = case when rate_limit_counters.expire <= now() then excluded.expire else rate_limit_counters.expire end
  returning points
)
select k.organization_id, k.id, k.owner_member_id, k.permissions, (select points from kc) as key_points, (select points from oc) as org_points from k`;

/** Whether a customer of the organization is mapped to another company of an accepted group today. */
const GROUP_COMPANY = (customerId: string) => `exists (select 1 from counterparty_mappings m
  join company_group_members g_other on g_other.organization_id = m.company_organization_id and g_other.status = 'accepted'
  join company_group_members g_self on g_self.group_id = g_other.group_id and g_self.organization_id = m.organization_id and g_self.status = 'accepted'
  join company_groups g on g.id = g_self.group_id and g.active
  where m.organization_id = $1 and m.customer_id = ${customerId} and m.active and m.company_organization_id <> m.organization_id
    and m.valid_from <= current_date and (m.valid_to is null or m.valid_to >= current_date))`;

const CUSTOMER = `
select json_build_object('id', c.id, 'code', c.code, 'legal_name', c.legal_name, 'party_kind', c.party_kind, 'address', c.address,
  'country_code', c.country_code, 'currency', c.currency, 'payment_terms_days', c.payment_terms_days, 'is_active', c.is_active,
  'reminders_off', c.reminders_off, 'is_group_company', ${GROUP_COMPANY('c.id')}, 'revision', c.revision, 'custom_fields', c.custom_fields,
  'default_revenue_account_id', c.default_revenue_account_id, 'default_tax_code_id', c.default_tax_code_id, 'email', c.email, 'phone', c.phone,
  'registration_no', c.registration_no, 'registration_type', c.registration_type, 'sst_registration_no', c.sst_registration_no, 'tin', c.tin)::text as body
from customers c where c.organization_id = $1 and c.id = $2`;

/** A document's answer, with or without its lines (the list page's items have none). */
const DOCUMENT_JSON = (withLines: boolean) => `json_build_object('id', d.id, 'kind', d.kind, 'state', d.state, 'revision', d.revision,
  'reference', d.reference, 'customer_id', d.customer_id, 'customer_reference', d.customer_reference, 'currency', d.currency,
  'fx_rate', d.fx_rate::text, 'invoice_date', d.invoice_date, 'due_on', d.due_on, 'payment_terms_days', d.payment_terms_days,
  'created_at', d.created_at, 'issued_at', d.issued_at, 'reason', d.reason, 'original_invoice_id', d.original_invoice_id,
  'buyer', d.buyer, 'seller', d.seller, 'custom_fields', d.custom_fields, 'net_total', d.net_total::text, 'tax_total', d.tax_total::text,
  'gross_amount', d.gross_amount::text, 'gross_base', d.gross_base::text, 'outstanding', d.outstanding::text,
  'outstanding_base', d.outstanding_base::text, 'project_id', d.project_id, 'is_group_company', ${GROUP_COMPANY('d.customer_id')},
  'attachments', (select coalesce(json_agg(a.file_id order by a.ordinal), '[]'::json) from file_attachments a
    where a.organization_id = d.organization_id and a.record_type = 'receivable_document' and a.record_id = d.id)
  ${withLines ? `, 'lines', (select coalesce(json_agg(json_build_object('id', l.id, 'line_no', l.line_no, 'account_id', l.account_id,
    'classification_code', l.classification_code, 'description', l.description, 'unit_code', l.unit_code, 'quantity', l.quantity::text,
    'unit_price', l.unit_price::text, 'discount_amount', l.discount_amount::text, 'net_amount', l.net_amount::text, 'tax_amount', l.tax_amount::text,
    'tax_code_id', l.tax_code_id, 'tax_code', l.tax_code, 'tax_type', l.tax_type, 'tax_rate', l.tax_rate::text,
    'tax_exemption_reason', l.tax_exemption_reason,
    'shares', (select coalesce(json_agg(json_build_object('analytic_account_id', s.analytic_account_id, 'percentage', s.percentage::text) order by s.position), '[]'::json)
      from receivable_line_shares s where s.organization_id = l.organization_id and s.line_id = l.id)) order by l.line_no), '[]'::json)
    from receivable_document_lines l where l.organization_id = d.organization_id and l.document_id = d.id)` : ''})`;

const INVOICE = `select ${DOCUMENT_JSON(true)}::text as body from receivable_documents d where d.organization_id = $1 and d.id = $2`;

const LIST = `
select json_build_object('items', coalesce(json_agg(x.doc order by x.created_at desc, x.id desc), '[]'::json),
  'next_cursor', case when count(*) = $2 then min(x.created_at)::text || '|' || min(x.id::text) end)::text as body
from (select d.id, d.created_at, ${DOCUMENT_JSON(false)} as doc from receivable_documents d where d.organization_id = $1
      order by d.created_at desc, d.id desc limit $2) x`;

interface Principal {
  organization_id: string;
  id: string;
  owner_member_id: string;
  permissions: string[];
  key_points: number;
  org_points: number;
}

function problem(reply: FastifyReply, status: number, code: string, detail?: string) {
  return reply.code(status).type('application/problem+json').send({ type: `/problems/${code}`, title: code, status, code, ...(detail ? { detail } : {}) });
}

/** The principal of the request, or the refusal already sent. */
async function authenticate(req: FastifyRequest, reply: FastifyReply, permission: string): Promise<Principal | undefined> {
  const header = req.headers.authorization;
  const m = header?.startsWith('Bearer ') ? KEY_RE.exec(header.slice(7)) : null;
  if (!m) return void problem(reply, 401, 'unauthenticated');
  const secretHash = createHash('sha256').update(m[2]!).digest('hex');
  const [p] = await sql.unsafe<Principal[]>(AUTH, [m[1]!, secretHash], { prepare: true });
  if (!p) return void problem(reply, 401, 'unauthenticated');
  if (p.key_points > LIMIT || p.org_points > LIMIT) return void problem(reply, 429, 'rate_limited');
  if (!p.permissions.includes(permission)) return void problem(reply, 403, 'forbidden');
  return p;
}

function sendJson(reply: FastifyReply, status: number, body: string) {
  return reply.code(status).header('content-type', 'application/json; charset=utf-8').send(body);
}

const app = Fastify({ logger: false });
app.get('/readyz', async () => ({ ok: true }));

app.get('/v1/receivables/customers/:id', async (req, reply) => {
  const p = await authenticate(req, reply, 'receivables.customer.read');
  if (!p) return reply;
  const id = (req.params as { id: string }).id;
  if (!UUID_RE.test(id)) return problem(reply, 404, 'not_found');
  const [row] = await sql.unsafe<{ body: string }[]>(CUSTOMER, [p.organization_id, id], { prepare: true });
  return row ? sendJson(reply, 200, row.body) : problem(reply, 404, 'not_found');
});

app.get('/v1/receivables/invoices/:id', async (req, reply) => {
  const p = await authenticate(req, reply, 'receivables.invoice.read');
  if (!p) return reply;
  const id = (req.params as { id: string }).id;
  if (!UUID_RE.test(id)) return problem(reply, 404, 'not_found');
  const [row] = await sql.unsafe<{ body: string }[]>(INVOICE, [p.organization_id, id], { prepare: true });
  return row ? sendJson(reply, 200, row.body) : problem(reply, 404, 'not_found');
});

app.get('/v1/receivables/invoices', async (req, reply) => {
  const p = await authenticate(req, reply, 'receivables.invoice.read');
  if (!p) return reply;
  // The page the service answers for the same request: `limit` (1 to 100; bench/floor.ts always sends it).
  const limit = Number((req.query as { limit?: string }).limit ?? 25);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) return problem(reply, 400, 'validation');
  const [row] = await sql.unsafe<{ body: string }[]>(LIST, [p.organization_id, limit], { prepare: true });
  return sendJson(reply, 200, row!.body);
});

app.post('/v1/receivables/invoices', async (req, reply) => {
  const p = await authenticate(req, reply, 'receivables.invoice.create');
  if (!p) return reply;
  const key = req.headers['idempotency-key'];
  if (typeof key !== 'string' || key.length < 1 || key.length > 255) return problem(reply, 422, 'idempotency_key_required');
  const answer = await createInvoice(p, key, req.body as CreateBody);
  return answer.status === 201 ? sendJson(reply, 201, answer.body) : problem(reply, answer.status, answer.body);
});

interface CreateBody {
  kind: string;
  customer_id: string;
  currency: string;
  customer_reference?: string;
  lines: { account_id: string; description: string; quantity: string; unit_price: string; tax_code_id: string }[];
}

const IDEMPOTENCY = `
with l as (select pg_try_advisory_xact_lock(hashtextextended($2 || ':' || $3, 0)) as locked)
select l.locked, k.status, k.body from l left join idempotency_keys k on k.organization_id = $1 and k.scope = $2 and k.key = $3 and k.expires_at > now()`;

const CHECK = `
select (select json_build_object('id', c.id, 'currency', c.currency, 'terms', c.payment_terms_days, 'active', c.is_active) from customers c
          where c.organization_id = $1 and c.id = $2) as customer,
       (select count(*)::int from accounts a where a.organization_id = $1 and a.id = any($3::uuid[]) and a.active) as accounts,
       (select json_object_agg(t.id, json_build_object('code', t.code, 'rate', t.rate::text, 'type', t.tax_type, 'pack', t.tax_pack_kind))
          from tax_codes t where t.organization_id = $1 and t.id = any($4::uuid[]) and t.active) as tax_codes`;

/** Document, lines and event in one statement; the document's answer built from what was written. */
const INSERT = `
with d as (
  insert into receivable_documents (organization_id, kind, state, customer_id, customer_reference, currency, fx_rate, invoice_date, due_on,
    payment_terms_days, prepared_by, net_total, tax_total, gross_amount, gross_base, outstanding, outstanding_base)
  values ($1, 'sales_invoice', 'draft', $2, $3, $4, 1, current_date, current_date + $5::int, $5, $6, $7, $8, $9, $9, $9, $9)
  returning *
), l as (
  insert into receivable_document_lines (organization_id, document_id, line_no, account_id, classification_code, description, quantity,
    unit_price, discount_amount, net_amount, net_base, tax_amount, tax_base, tax_code_id, tax_code, tax_type, tax_pack_kind, tax_rate)
  select $1, d.id, x.line_no, x.account_id, '022', x.description, x.quantity, x.unit_price, 0, x.net, x.net, x.tax, x.tax,
    x.tax_code_id, x.tax_code, x.tax_type, x.tax_pack_kind, x.tax_rate
  from d, jsonb_to_recordset($10::text::jsonb) as x(line_no int, account_id uuid, description text, quantity numeric, unit_price numeric,
    net numeric, tax numeric, tax_code_id uuid, tax_code text, tax_type text, tax_pack_kind text, tax_rate numeric)
  returning *
), e as (
  insert into events (organization_id, type, occurred_at, actor_member_id, subject_type, subject_id, subject_revision, data)
  select $1, 'receivables.invoice.created', now(), $6, 'receivable_document', d.id, 1, '{"kind":"sales_invoice","state":"draft","semantic":"draft"}'::jsonb from d
)
select json_build_object('id', d.id, 'kind', d.kind, 'state', d.state, 'revision', d.revision, 'customer_id', d.customer_id,
  'currency', d.currency, 'invoice_date', d.invoice_date, 'due_on', d.due_on, 'net_total', d.net_total::text, 'tax_total', d.tax_total::text,
  'gross_amount', d.gross_amount::text, 'lines', (select json_agg(json_build_object('id', l.id, 'line_no', l.line_no, 'description', l.description,
    'quantity', l.quantity::text, 'unit_price', l.unit_price::text, 'net_amount', l.net_amount::text, 'tax_amount', l.tax_amount::text) order by l.line_no) from l))::text as body
from d`;

const STORE = `
insert into idempotency_keys (organization_id, scope, key, fingerprint, route, status, body, headers, created_at, expires_at)
values ($1, $2, $3, $4, 'receivables.invoices.create', 201, $5, '{}'::jsonb, now(), now() + interval '24 hours')`;

async function createInvoice(p: Principal, key: string, body: CreateBody): Promise<{ status: number; body: string }> {
  const scope = `minimal:${p.id}`;
  const fingerprint = createHash('sha256').update(JSON.stringify(body)).digest('hex');
  return sql.begin(async (tx) => {
    const [seen] = await tx.unsafe<{ locked: boolean; status: number | null; body: unknown }[]>(IDEMPOTENCY, [p.organization_id, scope, key], { prepare: true });
    if (!seen!.locked) return { status: 409, body: 'idempotency_in_progress' };
    if (seen!.status !== null) return { status: seen!.status, body: typeof seen!.body === 'string' ? seen!.body : JSON.stringify(seen!.body) };
    const lines = Array.isArray(body?.lines) ? body.lines : [];
    if (!lines.length || lines.length > 200) return { status: 422, body: 'validation' };
    const [check] = await tx.unsafe<{ customer: { currency: string; terms: number; active: boolean } | null; accounts: number; tax_codes: Record<string, { code: string; rate: string; type: string; pack: string }> | null }[]>(
      CHECK,
      [p.organization_id, body.customer_id, [...new Set(lines.map((l) => l.account_id))], [...new Set(lines.map((l) => l.tax_code_id))]],
      { prepare: true },
    );
    if (!check!.customer?.active || check!.customer.currency !== body.currency) return { status: 422, body: 'validation' };
    if (check!.accounts !== new Set(lines.map((l) => l.account_id)).size) return { status: 422, body: 'validation' };
    let net = new Decimal(0);
    let tax = new Decimal(0);
    const priced = lines.map((l, i) => {
      const code = check!.tax_codes?.[l.tax_code_id];
      if (!code) throw Object.assign(new Error('tax code'), { status: 422 });
      const lineNet = new Decimal(l.quantity).times(l.unit_price).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
      const lineTax = lineNet.times(code.rate).dividedBy(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
      net = net.plus(lineNet);
      tax = tax.plus(lineTax);
      return { line_no: i + 1, account_id: l.account_id, description: l.description, quantity: l.quantity, unit_price: l.unit_price, net: lineNet.toFixed(2), tax: lineTax.toFixed(2), tax_code_id: l.tax_code_id, tax_code: code.code, tax_type: code.type, tax_pack_kind: code.pack, tax_rate: code.rate };
    });
    const [row] = await tx.unsafe<{ body: string }[]>(
      INSERT,
      [p.organization_id, body.customer_id, body.customer_reference ?? '', body.currency, check!.customer.terms, p.owner_member_id, net.toFixed(2), tax.toFixed(2), net.plus(tax).toFixed(2), JSON.stringify(priced)],
      { prepare: true },
    );
    await tx.unsafe(STORE, [p.organization_id, scope, key, fingerprint, row!.body], { prepare: true });
    return { status: 201, body: row!.body };
  }) as Promise<{ status: number; body: string }>;
}

app.setErrorHandler((err, _req, reply) => {
  const status = (err as { status?: number }).status;
  if (status === 422) return problem(reply, 422, 'validation');
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  return problem(reply, 500, 'internal');
});

const shutdown = async () => {
  await app.close();
  await sql.end({ timeout: 5 });
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown());
process.once('SIGINT', () => void shutdown());

await app.listen({ port: Number(process.env.PORT ?? 3002), host: process.env.HOST ?? '127.0.0.1' });
