/**
 * The minimal floor of bench/floor.ts: the four benchmarked routes as a careful engineer would write
 * them by hand on fastify and postgres.js, giving the service's answers (bench/floor.ts compares them
 * before the clock starts) with the same duties, and nothing else:
 *
 * - the address's failed authentications read (over their limit: 429 and nothing else), the API key
 *   authenticated with its owner's permissions (key permissions within the owner's roles, owner
 *   active, key neither revoked nor expired), the key's and the organization's rate-limit counters
 *   counted, the key's last use recorded once a minute, the organization's base currency and
 *   configuration epoch read, all in ONE statement; a failed authentication counted against the
 *   address; the permission checked; 429 past a limit; RateLimit-* headers on every answer, ETag on
 *   a record, X-Request-Id;
 * - the organization's receivables workflow and its count of active members read once per epoch (the
 *   service caches them the same way), the document's available transitions judged by the project's
 *   one evaluator (src/services/workflow/transitions.ts: the rules are a duty, not overhead), money
 *   written by the project's money helpers at each currency's places;
 * - the customer read and the invoice read in one statement each (document, lines and their analytic
 *   shares, allocations, timeline, attachments, project, the group-company mark), the JSON built by
 *   PostgreSQL with the answer's own names;
 * - the list's page (newest first) in one statement, a signed cursor to the next;
 * - the 5-line create in one transaction: the Idempotency-Key taken under a transaction-scoped lock
 *   and looked up, customer, accounts and tax codes checked in one statement, the lines priced in
 *   decimals here, the document, its lines and its event written in one statement, the answer stored
 *   for replays.
 *
 * No cache of keys (one statement does the whole authentication), no framework around the SQL, no
 * output validation. Every statement is a named prepared statement.
 *
 *   DATABASE_URL=postgres://... MINIMAL_RATE_LIMIT=1000000000 CURSOR_SECRET=... PORT=3002 node --import tsx bench/minimal-floor-server.ts
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import Decimal from 'decimal.js';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import postgres from 'postgres';
import { encodeCursor } from '../src/lib/cursor';
import { formatAmount, formatRate, formatUnitPrice } from '../src/lib/money';
import { availableTransitions, exitsOf, stateOf, type RecordFacts } from '../src/services/workflow/transitions';
import type { WorkflowDefinition } from '../src/services/workflow/types';

const sql = postgres(process.env.DATABASE_URL!, { max: Number(process.env.DATABASE_POOL_SIZE ?? 10), onnotice: () => {}, prepare: true });
const LIMIT = Number(process.env.MINIMAL_RATE_LIMIT ?? 1_000_000_000);
const AUTH_FAILURES = Number(process.env.MINIMAL_AUTH_FAILURES ?? 20);
const CURSOR_SECRET = process.env.CURSOR_SECRET ?? randomBytes(24).toString('hex');
const KEY_RE = /^fk_([0-9a-f-]{36})_([A-Za-z0-9_-]{20,200})$/;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One more point on a counter of one window (a window past its expiry starts again at 1); `rows`: the counter's key and expiry. */
const UPSERT_COUNTER = (rows: string) => `insert into rate_limit_counters (key, points, expire) ${rows}
  on conflict (key) do update set
    points = case when rate_limit_counters.expire <= now() then 1 else rate_limit_counters.points + 1 end,
    expire = case when rate_limit_counters.expire <= now() then excluded.expire else rate_limit_counters.expire end`;

/** A counter of the request's key or organization (`k`): the count after this request and the seconds left in its window. */
const COUNTER = (name: string, key: string) => `${name} as (
  ${UPSERT_COUNTER(`select ${key}, 1, now() + interval '1 minute' from k`)}
  returning points, ceil(extract(epoch from expire - now()))::int as reset
)`;

/**
 * The address's failed authentications read (over their limit: nothing else happens), then the key,
 * its owner, permissions, the organization's base currency and epoch, both rate-limit counters
 * counted and the key's last use recorded once a minute: one statement, one row whatever it finds.
 */
const AUTH = `
with af as (select points from rate_limit_counters where key = 'minimal:authfail:' || $3 and expire > now()),
k as (
  select k.organization_id, k.id, k.owner_member_id, o.base_currency, coalesce((select e.epoch from auth_epochs e where e.organization_id = k.organization_id), 0)::int as epoch,
    array(select p from unnest(k.permissions) p where p = any(array(
      select unnest(r.permissions) from member_roles mr join roles r on r.organization_id = mr.organization_id and r.id = mr.role_id
      where mr.organization_id = k.organization_id and mr.member_id = k.owner_member_id))) as permissions
  from api_keys k join members m on m.organization_id = k.organization_id and m.id = k.owner_member_id
    join organizations o on o.id = k.organization_id
  where k.id = $1 and k.secret_hash = $2 and k.revoked_at is null and (k.expires_at is null or k.expires_at > now()) and m.active
    and coalesce((select points from af), 0) < $4
), ${COUNTER('kc', `'minimal:key:' || k.id`)}, ${COUNTER('oc', `'minimal:org:' || k.organization_id`)},
t as (update api_keys u set last_used_at = now() from k where u.organization_id = k.organization_id and u.id = k.id
  and (u.last_used_at is null or u.last_used_at <= now() - interval '1 minute') returning 1)
select (select points from af) as address_points, k.*, kc.points as key_points, kc.reset as key_reset, oc.points as org_points, oc.reset as org_reset
from (select 1) one left join k on true left join kc on true left join oc on true`;

/** A failed authentication counted against the address. */
const AUTH_FAILED = UPSERT_COUNTER(`values ('minimal:authfail:' || $1, 1, now() + interval '1 minute')`);

/** Whether a customer of the organization is mapped to another company of an accepted group today. */
const GROUP_COMPANY = (customerId: string) => `exists (select 1 from counterparty_mappings m
  join company_group_members g_other on g_other.organization_id = m.company_organization_id and g_other.status = 'accepted'
  join company_group_members g_self on g_self.group_id = g_other.group_id and g_self.organization_id = m.organization_id and g_self.status = 'accepted'
  join company_groups g on g.id = g_self.group_id and g.active
  where m.organization_id = $1 and m.customer_id = ${customerId} and m.active and m.company_organization_id <> m.organization_id
    and m.valid_from <= current_date and (m.valid_to is null or m.valid_to >= current_date))`;

/** An instant as the answers write it (JavaScript's toISOString: UTC, milliseconds). */
const ISO = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const CUSTOMER = `
select json_build_object('id', c.id, 'code', c.code, 'legal_name', c.legal_name, 'party_kind', c.party_kind, 'address', c.address,
  'country_code', c.country_code, 'currency', c.currency, 'payment_terms_days', c.payment_terms_days, 'is_active', c.is_active,
  'reminders_off', c.reminders_off, 'is_group_company', ${GROUP_COMPANY('c.id')}, 'revision', c.revision, 'custom_fields', c.custom_fields,
  'default_revenue_account_id', c.default_revenue_account_id, 'default_tax_code_id', c.default_tax_code_id, 'email', c.email, 'phone', c.phone,
  'registration_no', c.registration_no, 'registration_type', c.registration_type, 'sst_registration_no', c.sst_registration_no, 'tin', c.tin)::text as body,
  c.revision
from customers c where c.organization_id = $1 and c.id = $2`;

/** A document's header with the answer's names (money as PostgreSQL writes it; documentAnswer gives it its places). */
const HEADER_JSON = `json_build_object('id', d.id, 'kind', d.kind, 'state', d.state, 'revision', d.revision,
  'reference', d.reference, 'customer_id', d.customer_id, 'customer_reference', d.customer_reference, 'currency', d.currency,
  'fx_rate', d.fx_rate::text, 'invoice_date', d.invoice_date, 'due_on', d.due_on, 'payment_terms_days', d.payment_terms_days,
  'created_at', ${ISO('d.created_at')}, 'issued_at', ${ISO('d.issued_at')}, 'updated_at', ${ISO('d.updated_at')}, 'prepared_by', d.prepared_by,
  'reason', d.reason, 'original_invoice_id', d.original_invoice_id, 'original_total', d.original_total::text, 'legacy_reference', d.legacy_reference,
  'is_opening', d.is_opening, 'is_group_transaction', ${GROUP_COMPANY('d.customer_id')}, 'multiple_projects', d.multiple_projects,
  'project', (select json_build_object('id', p.id, 'code', p.code, 'name', p.name) from analytic_accounts p where p.organization_id = d.organization_id and p.id = d.project_id),
  'custom_fields', d.custom_fields, 'net_total', d.net_total::text, 'tax_total', d.tax_total::text,
  'gross_amount', d.gross_amount::text, 'gross_base', d.gross_base::text, 'outstanding', d.outstanding::text,
  'outstanding_base', d.outstanding_base::text, 'buyer', d.buyer, 'seller', d.seller,
  'attachment_ids', (select coalesce(json_agg(a.file_id order by a.ordinal), '[]'::json) from file_attachments a
    where a.organization_id = d.organization_id and a.record_type = 'receivable_document' and a.record_id = d.id))`;

/** A document's lines (from \`lines\`, a relation of receivable_document_lines rows) with their analytic shares. */
const LINES_JSON = (lines: string) => `(select coalesce(json_agg(json_build_object('id', l.id, 'line_no', l.line_no, 'account_id', l.account_id,
    'classification_code', l.classification_code, 'description', l.description, 'unit_code', l.unit_code, 'quantity', l.quantity::text,
    'unit_price', l.unit_price::text, 'discount_amount', l.discount_amount::text, 'net_amount', l.net_amount::text, 'net_base', l.net_base::text,
    'tax_amount', l.tax_amount::text, 'tax_base', l.tax_base::text, 'tax_code', l.tax_code, 'tax_code_id', l.tax_code_id, 'tax_pack_kind', l.tax_pack_kind,
    'tax_rate', l.tax_rate::text, 'tax_exemption_reason', l.tax_exemption_reason, 'trade_line_id', l.trade_line_id,
    'shares', (select coalesce(json_agg(json_build_object('analytic_account_id', s.analytic_account_id, 'percentage', s.percentage::text) order by s.position), '[]'::json)
      from receivable_line_shares s where s.organization_id = l.organization_id and s.line_id = l.id)) order by l.line_no), '[]'::json)
    from ${lines})`;

/** The invoice read: header, lines, allocations and timeline in one statement. */
const INVOICE = `select ${HEADER_JSON} as doc,
  ${LINES_JSON('receivable_document_lines l where l.organization_id = d.organization_id and l.document_id = d.id')} as lines,
  (select coalesce(json_agg(json_build_object('id', a.id, 'invoice_id', a.invoice_id, 'created_by', a.created_by, 'amount', a.amount::text,
     'base_amount', a.base_amount::text, 'currency', a.currency, 'effective_on', a.effective_on, 'created_at', ${ISO('a.created_at')},
     'source_kind', a.source_kind, 'receipt_id', a.receipt_id, 'credit_note_id', a.credit_note_id, 'reverses_id', a.reverses_id,
     'reversed_by_id', a.reversed_by_id) order by a.created_at, a.id), '[]'::json)
   from allocations a where a.organization_id = d.organization_id and (a.invoice_id = d.id or a.credit_note_id = d.id)) as allocations,
  (select coalesce(json_agg(json_build_object('action_key', t.action_key, 'actor_member_id', t.actor_member_id, 'decided_at', ${ISO('t.decided_at')},
     'from', t.from_state, 'to', t.to_state, 'reason', t.reason) order by t.decided_at, t.seq), '[]'::json)
   from receivable_timeline t where t.organization_id = d.organization_id and t.document_id = d.id) as timeline
from receivable_documents d where d.organization_id = $1 and d.id = $2`;

/** The list's page, newest first: one more than asked tells whether there is a next page. */
const LIST = `select ${HEADER_JSON} as doc, d.created_at::text as k from receivable_documents d where d.organization_id = $1
  order by d.created_at desc, d.id desc limit $2`;

/** What the organization's configuration gives an answer: read once per epoch (the service caches the same under the same epoch). */
const CONFIG = `select (select w.definition from workflows w where w.organization_id = $1 and w.record_type = 'receivable_document') as def,
  (select count(*)::int from members m where m.organization_id = $1 and m.active) as active_members,
  coalesce((select e.enabled from einvoicing_settings e where e.organization_id = $1), false) as einvoicing`;

interface Principal {
  organization_id: string;
  id: string;
  owner_member_id: string;
  base_currency: string;
  epoch: number;
  permissions: string[];
  key_points: number;
  key_reset: number;
  org_points: number;
  org_reset: number;
}

interface Config {
  einvoicing: boolean;
  def: WorkflowDefinition;
  soleMember: boolean;
}

const configs = new Map<string, Promise<Config>>();

function configOf(p: Principal): Promise<Config> {
  const key = `${p.organization_id}@${p.epoch}`;
  let config = configs.get(key);
  if (!config) {
    if (configs.size >= 1_000) configs.clear();
    config = sql.unsafe<{ def: WorkflowDefinition; active_members: number; einvoicing: boolean }[]>(CONFIG, [p.organization_id], { prepare: true }).then(([row]) => ({
      epoch: p.epoch,
      einvoicing: row!.einvoicing,
      def: row!.def,
      soleMember: row!.active_members === 1,
    }));
    configs.set(key, config);
  }
  return config;
}

type Json = Record<string, unknown>;
type Doc = Json & { currency: string; state: string; prepared_by: string };

/** A document header from HEADER_JSON as the service answers it: money at its currency's places, the state's semantic. */
function header(doc: Doc, config: Config, base: string): Doc {
  const cur = doc.currency;
  doc.semantic = stateOf(config.def, doc.state).semantic;
  doc.fx_rate = formatRate(doc.fx_rate as string);
  for (const f of ['net_total', 'tax_total', 'gross_amount', 'outstanding'] as const) doc[f] = formatAmount(doc[f] as string, cur);
  for (const f of ['gross_base', 'outstanding_base'] as const) doc[f] = formatAmount(doc[f] as string, base);
  if (doc.original_total === null) delete doc.original_total;
  else doc.original_total = formatAmount(doc.original_total as string, cur);
  return doc;
}

function lines(rows: Json[], cur: string, base: string): Json[] {
  for (const l of rows) {
    l.quantity = formatRate(l.quantity as string);
    l.unit_price = formatUnitPrice(l.unit_price as string, cur);
    for (const f of ['discount_amount', 'net_amount', 'tax_amount'] as const) l[f] = formatAmount(l[f] as string, cur);
    for (const f of ['net_base', 'tax_base'] as const) l[f] = formatAmount(l[f] as string, base);
    l.tax_rate = formatRate(l.tax_rate as string);
    for (const s of l.shares as Json[]) s.percentage = formatRate(s.percentage as string);
  }
  return rows;
}

/**
 * The whole document answer (read and create): header, lines, allocations, timeline and the
 * transitions the caller is offered, judged on the facts a document in this state needs.
 */
function documentAnswer(p: Principal, config: Config, row: { doc: Doc; lines: Json[]; allocations: Json[]; timeline: Json[] }): Json {
  const base = p.base_currency;
  const doc = header(row.doc, config, base);
  const facts: RecordFacts = { state: doc.state, reporterMemberId: doc.prepared_by, unmet: {} };
  const { all: exits, conditions } = exitsOf(config.def, doc.state);
  if (exits.some((t) => t.not_raiser)) {
    facts.raiserMemberId = (row.timeline.filter((e) => e.to === doc.state && e.from !== doc.state).at(-1)?.actor_member_id as string | undefined) ?? null;
  }
  if (conditions.has('nothing_allocated')) {
    const live = row.allocations.filter((a) => !a.reverses_id && !a.reversed_by_id).length;
    if (live) facts.unmet!.nothing_allocated = `The document has ${live} allocation${live === 1 ? '' : 's'}; reverse ${live === 1 ? 'it' : 'them'} before cancelling`;
  }
  // What the benchmark's documents do not reach (a credit note's cap, e-invoicing's preflight) is not written here.
  if (doc.kind === 'customer_credit_note' || doc.reference !== null || config.einvoicing) throw new Error('the minimal floor answers sales invoice drafts only');
  doc.lines = lines(row.lines, doc.currency, base);
  doc.allocations = row.allocations.map((a) => ({ ...a, amount: formatAmount(a.amount as string, a.currency as string), base_amount: formatAmount(a.base_amount as string, base) }));
  doc.available_transitions = availableTransitions(config.def, facts, {
    memberId: p.owner_member_id,
    permissions: new Set(p.permissions),
    isSoleActiveMember: config.soleMember,
  });
  doc.timeline = row.timeline;
  return doc;
}

function problem(reply: FastifyReply, status: number, code: string, detail?: string) {
  return reply.code(status).type('application/problem+json').send({ type: `/problems/${code}`, title: code, status, code, ...(detail ? { detail } : {}) });
}

/** The principal of the request (its answer's headers set), or the refusal already sent. */
async function authenticate(req: FastifyRequest, reply: FastifyReply, permission: string): Promise<Principal | undefined> {
  reply.header('x-request-id', randomUUID());
  const header = req.headers.authorization;
  const m = header?.startsWith('Bearer ') ? KEY_RE.exec(header.slice(7)) : null;
  if (!m) return void problem(reply, 401, 'unauthenticated');
  const secretHash = createHash('sha256').update(m[2]!).digest('hex');
  const [found] = await sql.unsafe<(Principal & { address_points: number | null })[]>(AUTH, [m[1]!, secretHash, req.ip, AUTH_FAILURES], { prepare: true });
  if ((found!.address_points ?? 0) >= AUTH_FAILURES) return void problem(reply, 429, 'rate_limited');
  const p = found!.id === null ? undefined : found;
  if (!p) {
    await sql.unsafe(AUTH_FAILED, [req.ip], { prepare: true });
    return void problem(reply, 401, 'unauthenticated');
  }
  // The tightest of the two windows.
  const keyTighter = LIMIT - p.key_points <= LIMIT - p.org_points;
  reply.header('ratelimit-limit', String(LIMIT));
  reply.header('ratelimit-remaining', String(Math.max(0, LIMIT - Math.max(p.key_points, p.org_points))));
  reply.header('ratelimit-reset', String(keyTighter ? p.key_reset : p.org_reset));
  if (p.key_points > LIMIT || p.org_points > LIMIT) return void problem(reply, 429, 'rate_limited');
  if (!p.permissions.includes(permission)) return void problem(reply, 403, 'forbidden');
  return p;
}

function sendJson(reply: FastifyReply, status: number, body: string, revision?: number) {
  if (revision !== undefined) reply.header('etag', `"${revision}"`);
  return reply.code(status).header('content-type', 'application/json; charset=utf-8').send(body);
}

const app = Fastify({ logger: false });
app.get('/readyz', async () => ({ ok: true }));

app.get('/v1/receivables/customers/:id', async (req, reply) => {
  const p = await authenticate(req, reply, 'receivables.customer.read');
  if (!p) return reply;
  const id = (req.params as { id: string }).id;
  if (!UUID_RE.test(id)) return problem(reply, 404, 'not_found');
  const [row] = await sql.unsafe<{ body: string; revision: number }[]>(CUSTOMER, [p.organization_id, id], { prepare: true });
  return row ? sendJson(reply, 200, row.body, row.revision) : problem(reply, 404, 'not_found');
});

app.get('/v1/receivables/invoices/:id', async (req, reply) => {
  const p = await authenticate(req, reply, 'receivables.invoice.read');
  if (!p) return reply;
  const id = (req.params as { id: string }).id;
  if (!UUID_RE.test(id)) return problem(reply, 404, 'not_found');
  const [[row], config] = await Promise.all([
    sql.unsafe<{ doc: Doc; lines: Json[]; allocations: Json[]; timeline: Json[] }[]>(INVOICE, [p.organization_id, id], { prepare: true }),
    configOf(p),
  ]);
  if (!row) return problem(reply, 404, 'not_found');
  return sendJson(reply, 200, JSON.stringify(documentAnswer(p, config, row)), row.doc.revision as number);
});

app.get('/v1/receivables/invoices', async (req, reply) => {
  const p = await authenticate(req, reply, 'receivables.invoice.read');
  if (!p) return reply;
  // The page the service answers for the same request: `limit` (1 to 100; bench/floor.ts always sends it).
  const limit = Number((req.query as { limit?: string }).limit ?? 25);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) return problem(reply, 400, 'validation');
  const [rows, config] = await Promise.all([sql.unsafe<{ doc: Doc; k: string }[]>(LIST, [p.organization_id, limit + 1], { prepare: true }), configOf(p)]);
  const page = rows.length > limit ? rows.slice(0, limit) : rows;
  const last = page.at(-1);
  const next = rows.length > limit && last ? encodeCursor(CURSOR_SECRET, { sort: 'created_at', order: 'desc', filters: {} }, { value: last.k, id: last.doc.id as string }) : null;
  return sendJson(reply, 200, JSON.stringify({ documents: page.map((r) => header(r.doc, config, p.base_currency)), next_cursor: next }));
});

app.post('/v1/receivables/invoices', async (req, reply) => {
  const p = await authenticate(req, reply, 'receivables.invoice.create');
  if (!p) return reply;
  const key = req.headers['idempotency-key'];
  if (typeof key !== 'string' || key.length < 1 || key.length > 255) return problem(reply, 422, 'idempotency_key_required');
  const answer = await createInvoice(p, key, req.body as CreateBody);
  return answer.status === 201 ? sendJson(reply, 201, answer.body, 1) : problem(reply, answer.status, answer.body);
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
select ${HEADER_JSON} as doc, ${LINES_JSON('l')} as lines, '[]'::json as allocations, '[]'::json as timeline
from d`;

const STORE = `
insert into idempotency_keys (organization_id, scope, key, fingerprint, route, status, body, headers, created_at, expires_at)
values ($1, $2, $3, $4, 'receivables.invoices.create', 201, $5, '{}'::jsonb, now(), now() + interval '24 hours')`;

async function createInvoice(p: Principal, key: string, body: CreateBody): Promise<{ status: number; body: string }> {
  const config = await configOf(p);
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
    const [row] = await tx.unsafe<{ doc: Doc; lines: Json[]; allocations: Json[]; timeline: Json[] }[]>(
      INSERT,
      [p.organization_id, body.customer_id, body.customer_reference ?? '', body.currency, check!.customer.terms, p.owner_member_id, net.toFixed(2), tax.toFixed(2), net.plus(tax).toFixed(2), JSON.stringify(priced)],
      { prepare: true },
    );
    const answer = JSON.stringify(documentAnswer(p, config, row!));
    await tx.unsafe(STORE, [p.organization_id, scope, key, fingerprint, answer], { prepare: true });
    return { status: 201, body: answer };
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
