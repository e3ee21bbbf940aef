import { createHash } from 'node:crypto';

/**
 * Examples for every value the OpenAPI document describes, so that what the /docs page shows (and what its
 * request client pre-fills) is a value the API accepts: decimal strings such as "1060.00", valid UUIDs,
 * dates, integers within their real bounds. Without them Scalar invents placeholders that fail when
 * pasted (`"customer_id": ""`, `-9007199254740991`).
 *
 * Added after generation, by property name (the zod schemas stay as the contract wrote them): a schema
 * that already has an example, an enum or a const keeps it. tests/http/openapi-lint.test.ts checks that
 * every value has one and that Spectral and Redocly find each valid against its own schema.
 */

type Json = Record<string, any>;

/** A fixed, valid, lower-case UUID (version 4 layout) for a name: the same record is the same id everywhere. */
export function exampleUuid(name: string): string {
  const h = createHash('sha256').update(`example:${name}`).digest('hex');
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** One invoice of 2 x 500.00 with 6% service tax: net 1000.00, tax 60.00, gross 1060.00. */
const DECIMALS: Record<string, string> = {
  amount: '1060.00',
  allocated: '1060.00',
  bank_charged_amount: '212.40',
  days: '67.50',
  days_counted: '30.00',
  base_amount: '1060.00',
  discount_amount: '0.00',
  exchange_difference: '0.00',
  fx_rate: '1',
  gross_amount: '1060.00',
  gross_base: '1060.00',
  net_amount: '1000.00',
  net_base: '1000.00',
  net_total: '1000.00',
  original_total: '1060.00',
  outstanding: '1060.00',
  outstanding_base: '1060.00',
  percentage: '100',
  quantity: '2',
  tax_amount: '60.00',
  tax_base: '1000.00',
  tax_rate: '6.00',
  tax_total: '60.00',
  total: '1060.00',
  unallocated: '0.00',
  unit_price: '500.00',
  your_share: '1060.00',
};

const DATES: Record<string, string> = {
  invoice_date: '2026-01-15',
  invoice_date_from: '2026-01-01',
  invoice_date_to: '2026-01-31',
  as_of: '2026-03-31',
  due_on: '2026-02-14',
  effective_on: '2026-01-01',
  expense_date: '2026-01-12',
  received_on: '2026-02-10',
  received_from: '2026-02-01',
  received_to: '2026-02-28',
};

const DATE_TIME = '2026-01-15T09:30:00.000Z';

/** Plain texts by property name; `address.<name>` inside an address. */
const TEXTS: Record<string, string> = {
  account_code: '4000',
  account_name: 'Sales of services',
  account_tail: '6789',
  action_key: 'submit',
  band: 'full_day',
  channel_key: 'bank_transfer',
  channel_name: 'Maybank current account',
  claimant_unit_name: 'Finance',
  classification_code: '022',
  code: 'CUST-0042',
  country_code: 'MY',
  currency: 'MYR',
  base_currency: 'MYR',
  original_currency: 'MYR',
  customer_reference: 'PO-2026-0193',
  description: 'Consulting services, January 2026',
  detail: 'must be at least 1',
  display: 'Syarikat Contoh Sdn. Bhd. (CUST-0042)',
  email: 'accounts@contoh.com.my',
  en: 'Travel',
  ms: 'Perjalanan',
  zh: '差旅',
  filename: 'receipt-2026-01-12.pdf',
  from: 'draft',
  to: 'issued',
  fx_rate_reason: 'The rate on the card statement',
  last_error: 'MyInvois did not answer within 30000 ms: POST /api/v1.0/documentsubmissions',
  instance: '/v1/receivables/invoices',
  key: 'project_code',
  legacy_reference: 'INV-2025-0917',
  legal_name: 'Syarikat Contoh Sdn. Bhd.',
  long_id: 'LIJAVF0ATNLAKN4QF1EHNEBK10',
  merchant: 'Grab',
  message: 'Submitted for approval',
  msic: '62010',
  name: 'Aisyah binti Rahman',
  next_cursor: 'eyJrIjoiMjAyNi0wMS0xNSJ9',
  cursor: 'eyJrIjoiMjAyNi0wMS0xNSJ9',
  phone: '+60312345678',
  pointer: '/lines/0/quantity',
  q: 'contoh',
  reason: 'Goods returned by the customer',
  reference: 'OR-2026-0001',
  registration_no: '201901000005',
  registration_type: 'BRN',
  relaxation_reason: 'Receipt lost; the bank statement is attached',
  sst_no: 'W10-1808-32000001',
  sst_registration_no: 'W10-1808-32000001',
  state: 'draft',
  supplier_country: 'MY',
  supplier_name: 'Petronas Dagangan Berhad',
  supplier_tin: 'C2584563200',
  tax_code: 'SV-6',
  tax_exemption_reason: 'Exempt supply under the Service Tax Act 2018',
  tax_pack_kind: 'sst',
  tax_type: '02',
  tin: 'C2584563200',
  title: 'Client visit to Penang, January 2026',
  type: 'invoice',
  unit_code: 'C62',
  uuid: 'F9D425P6DS7D8IU6W2J1B3Z4K8',
  einvoice_uuid: 'F9D425P6DS7D8IU6W2J1B3Z4K8',
  validation_link: 'https://myinvois.hasil.gov.my/F9D425P6DS7D8IU6W2J1B3Z4K8/share/LIJAVF0ATNLAKN4QF1EHNEBK10',
  'address.line1': 'Level 12, Menara Contoh',
  'address.line2': 'Jalan Ampang',
  'address.city': 'Kuala Lumpur',
  'address.postcode': '50450',
  'address.state': 'Wilayah Persekutuan Kuala Lumpur',
  'address.country_code': 'MY',
  'claim.reference': 'EC-2026-0007',
  'claim_decision.from': 'submitted',
  'claim_decision.to': 'approved',
  'claim_decision.reason': 'Within the travel policy',
  'labels.en': 'Submit',
  'labels.ms': 'Hantar',
  'labels.zh': '提交',
  'einvoice_status.key': 'Invoice',
  'custom_fields.key': 'project_code',
  'custom_fields.value': 'PRJ-7',
  'document.key': 'en',
  'document.value': 'Receipt',
  'duplicate_claim_references.item': 'EC-2026-0007',
  'eligible.item': 'receipt',
  'project_names.item': 'Klang Valley rollout',
  'bucket_keys.item': 'days_1_30',
  applied_to: 'INV-2026-0001',
};

/** Integers: [example, minimum, maximum]. Others get the PostgreSQL integer range they are stored in. */
const INTEGERS: Record<string, [number, number, number]> = {
  limit: [25, 1, 100],
  payment_terms_days: [30, 0, 365],
  line_no: [1, 1, 2_147_483_647],
  revision: [1, 1, 2_147_483_647],
  size: [48_213, 0, 2_147_483_647],
  status: [400, 100, 599],
};
const INT_MIN = -2_147_483_648;
const INT_MAX = 2_147_483_647;

const hasExample = (s: Json) => s.example !== undefined || (Array.isArray(s.examples) && s.examples.length > 0) || Array.isArray(s.enum) || s.const !== undefined;
const types = (s: Json): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

function textFor(s: Json, name: string, context: string | undefined): string | undefined {
  const id = name.endsWith('_id') || name === 'id' || name.endsWith('_by');
  if (s.format === 'uuid' || (id && !s.pattern && !(name in TEXTS))) {
    const record = name === 'id' ? (context ?? 'record') : name.replace(/_(id|by)$/, '');
    return exampleUuid(record);
  }
  if (s.format === 'date') return DATES[name] ?? '2026-01-15';
  if (s.format === 'date-time' || /_at$/.test(name)) return DATE_TIME;
  if (s.pattern === '^[0-9a-f]{64}$') return createHash('sha256').update('example').digest('hex');
  if (s.pattern === '^[1-9]\\d{3}-(0[1-9]|1[0-2])$') return '2026-01';
  if (s.pattern === '^\\d{1,4}$') return String(INTEGERS[name]?.[0] ?? 25);
  if (/\\d\+/.test(s.pattern ?? '') || DECIMALS[name]) return DECIMALS[name] ?? '1060.00';
  if (context && TEXTS[`${context}.${name}`]) return TEXTS[`${context}.${name}`];
  return TEXTS[name];
}

const isAddress = (s: Json) => Boolean(s.properties && 'line1' in s.properties && 'postcode' in s.properties);
const isObject = (s: Json | undefined) => Boolean(s && (types(s).includes('object') || s.properties));
/** Customer -> customer, ReceivablesDocumentList -> receivables_document: the record a component describes. */
const componentContext = (name: string) => name.replace(/(List|ListItem|Answer)$/, '').replace(/[A-Z]/g, (c, i) => (i ? '_' : '') + c.toLowerCase());

/**
 * Gives `s` (and everything below it) an example where it has none. Returns the names of values no example
 * could be found for (tests/http/openapi-lint.test.ts requires none).
 */
function fill(s: Json | undefined, name: string, context: string | undefined, missing: string[], where: string) {
  if (!s || typeof s !== 'object' || s.$ref) return;
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) for (const branch of s[key] ?? []) fill(branch, name, context, missing, where);
  const t = types(s).filter((x) => x !== 'null');
  if (t.includes('object') || s.properties) {
    const own = isAddress(s) ? 'address' : (context ?? name);
    for (const [prop, sub] of Object.entries<Json>(s.properties ?? {})) fill(sub, prop, isObject(sub) ? prop : own, missing, `${where}.${prop}`);
    if (s.additionalProperties && typeof s.additionalProperties === 'object') fill(s.additionalProperties, 'value', own, missing, `${where}{}`);
    if (s.propertyNames) fill(s.propertyNames, 'key', own, missing, `${where}<key>`);
    return;
  }
  if (t.includes('array')) {
    const uuids = s.items?.format === 'uuid';
    fill(s.items, uuids ? name.replace(/_ids$|s$/, '') + '_id' : 'item', uuids ? context : name, missing, `${where}[]`);
    return;
  }
  if (t.includes('integer')) {
    const [example, min, max] = INTEGERS[name] ?? [1, INT_MIN, INT_MAX];
    // zod writes the safe-integer range; the real one is the column's or the rule's.
    if (!(s.minimum > Number.MIN_SAFE_INTEGER)) s.minimum = min;
    if (!(s.maximum < Number.MAX_SAFE_INTEGER)) s.maximum = max;
    if (!hasExample(s)) s.examples = [Math.min(Math.max(example, s.minimum), s.maximum)];
    return;
  }
  if (hasExample(s) || t.length === 0 || s.format === 'binary') return;
  if (t.includes('boolean') && !t.includes('string')) {
    s.examples = [name === 'is_active' || name === 'allowed'];
    return;
  }
  if (t.includes('boolean')) {
    s.examples = [true];
    return;
  }
  if (t.includes('number')) {
    s.examples = [1];
    return;
  }
  const text = textFor(s, name, context);
  if (text === undefined) missing.push(where);
  else s.examples = [text];
}

/** Fills examples in every schema of the document; answers the places none could be found for. */
export function addExamples(doc: Json): string[] {
  const missing: string[] = [];
  for (const [name, schema] of Object.entries<Json>(doc.components?.schemas ?? {})) {
    fill(schema, name, componentContext(name), missing, `#/components/schemas/${name}`);
  }
  for (const [name, header] of Object.entries<Json>(doc.components?.headers ?? {})) fill(header.schema, name, undefined, missing, `#/components/headers/${name}`);
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    for (const [method, op] of Object.entries<Json>(item)) {
      const where = `${method.toUpperCase()} ${path}`;
      const segments = path.split('/');
      for (const p of op.parameters ?? []) {
        if (p.$ref || p.example !== undefined) continue;
        // A path id names the record of the segment before it: /receivables/customers/{id} -> customer.
        const record = p.in === 'path' ? segments[segments.indexOf(`{${p.name}}`) - 1]?.replace(/s$/, '') : undefined;
        fill(p.schema, p.name, record, missing, `${where} ${p.in} ${p.name}`);
      }
      for (const media of Object.values<Json>(op.requestBody?.content ?? {})) fill(media.schema, 'body', undefined, missing, `${where} body`);
      for (const [status, res] of Object.entries<Json>(op.responses ?? {})) {
        for (const [h, header] of Object.entries<Json>(res.headers ?? {})) if (!header.$ref) fill(header.schema, h, undefined, missing, `${where} ${status} header ${h}`);
        for (const media of Object.values<Json>(res.content ?? {})) fill(media.schema, 'body', undefined, missing, `${where} ${status} body`);
      }
    }
  }
  return missing;
}

/**
 * A request body built from the schema's own examples, of the properties the schema requires (a body
 * with no required property: its first one), so that the example is one request, not every field at
 * once (a sales invoice with a credit note's `reason` would be refused when pasted).
 */
function bodyExample(s: Json | undefined, doc: Json, depth = 0, extras: string[] = []): unknown {
  if (!s || depth > 8) return undefined;
  if (s.$ref) return bodyExample(doc.components.schemas[String(s.$ref).split('/').pop()!], doc, depth + 1);
  const leaf = s.examples?.[0] ?? s.example ?? s.const ?? s.enum?.[0];
  if (leaf !== undefined) return leaf;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branch = (s[key] ?? []).find((b: Json) => !types(b).every((t) => t === 'null') || b.$ref);
    if (branch) return bodyExample(branch, doc, depth + 1);
  }
  const t = types(s);
  if (t.includes('array')) {
    const item = bodyExample(s.items, doc, depth + 1);
    return item === undefined ? [] : [item];
  }
  if (t.includes('object') || s.properties) {
    const props = Object.keys(s.properties ?? {});
    const chosen = [...(s.required?.length ? (s.required as string[]) : props.slice(0, 1)), ...extras.filter((p) => props.includes(p))];
    const out: Json = {};
    for (const name of chosen) {
      const value = bodyExample(s.properties?.[name], doc, depth + 1);
      if (value !== undefined) out[name] = value;
    }
    return out;
  }
  return undefined;
}

/** Properties a request needs by a rule the schema cannot say (a receipt line needs its amount). */
const BODY_EXTRAS: Record<string, string[]> = { 'expenses-claims-lines-add': ['amount'] };

/** Gives every JSON request body an example of one valid request. */
export function addRequestExamples(doc: Json) {
  for (const item of Object.values<Json>(doc.paths ?? {})) {
    for (const op of Object.values<Json>(item)) {
      const media = op.requestBody?.content?.['application/json'];
      if (media && media.example === undefined && media.examples === undefined) media.example = bodyExample(media.schema, doc, 0, BODY_EXTRAS[op.operationId] ?? []);
    }
  }
}
