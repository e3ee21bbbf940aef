import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { ERROR_CATALOGUE } from '../lib/errors';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '../services/idempotency/idempotency';
import type { RateLimitSettings } from '../services/rate-limit/limits';
import { MAX_URL_LENGTH } from './http-edges';
import { appRouter } from './app';
import { ALLOWED_TYPES } from '../services/documents/file-types';
import { addExamples, addRequestExamples, exampleUuid } from './openapi-examples';
import { addResponseExamples } from './openapi-response-examples';
import { guideSections, PRODUCT_NAME } from './api-guide';
import { uploadedDocumentJsonSchema } from '../contract/documents';
import type { Meta } from './trpc';

type Json = Record<string, any>;

export const API_VERSION = '1.0.0';

/** Which error statuses each operation can answer, beyond the ones every authenticated operation has. */
function errorStatuses(method: string, path: string, meta?: Meta): number[] {
  const statuses = [400, 401, 403, 429, 500, 503];
  if (path.includes('{')) statuses.push(404);
  if (meta?.requiresRevision) statuses.push(409, 428);
  if (method === 'post' || method === 'put' || method === 'patch' || method === 'delete') statuses.push(409, 413, 415, 422);
  else statuses.push(422);
  return [...new Set(statuses)].sort();
}

const STATUS_DESCRIPTIONS: Record<number, string> = {
  400: 'The request is not of the operation\'s shape: malformed JSON, wrong type, malformed id, date or decimal, or a field the operation does not accept.',
  401: 'Not authenticated: missing, malformed, unknown, revoked or expired credentials, or a session no longer valid.',
  403: 'The caller does not hold the permission the operation needs.',
  404: 'No such record in this organization.',
  409: 'Conflict: `idempotency_key_reused` (the Idempotency-Key was used for a different request), `idempotency_in_progress` (the first request with the key is still running; retry after Retry-After seconds), `conflict` (the record is in another state), `document_bound_elsewhere`, or `revision_mismatch` (stale If-Match).',
  413: 'The request body is too large.',
  415: 'The request body is not application/json.',
  428: 'The operation changes an existing record and needs If-Match with the revision the ETag gave (`revision_required`).',
  422: 'Well-formed but refused by a rule; `code` says which (`validation`, `idempotency_key_required` when a write made with an API key has no Idempotency-Key or one longer than 255 characters, ...).',
  429: 'A rate limit was reached (`rate_limited`): the API key\'s, its organization\'s, or the source address\'s after repeated failed authentication. Retry after Retry-After seconds.',
  500: 'A fault of the service; `instance` carries the request id to quote.',
  503: 'The database connection was lost during the request (`unavailable`): retry after Retry-After seconds; a write sent again with its Idempotency-Key is answered once.',
};

type AnyRouter = typeof appRouter;

interface OperationInfo extends Meta {
  /** A mutation is a write: it runs through writeProcedure's idempotency step. */
  isWrite: boolean;
}

function procedureMetas(router: AnyRouter): Map<string, OperationInfo> {
  const out = new Map<string, OperationInfo>();
  for (const procedure of Object.values(router._def.procedures as unknown as Record<string, { _def: { meta?: Meta; type: string } }>)) {
    const meta = procedure._def.meta;
    if (meta?.openapi) out.set(`${meta.openapi.method.toLowerCase()} ${meta.openapi.path}`, { ...meta, isWrite: procedure._def.type === 'mutation' });
  }
  return out;
}

const problemSchema = {
  type: 'object',
  description: 'RFC 9457 problem details. `code` is the stable refusal code to branch on.',
  required: ['type', 'title', 'status'],
  properties: {
    type: { type: 'string', description: 'URI of the problem type, /problems/<code>', examples: ['/problems/validation'] },
    title: { type: 'string', examples: ['Validation failed'] },
    status: { type: 'integer', minimum: 400, maximum: 599, examples: [422] },
    detail: { type: 'string', examples: ['The request is refused by a rule: see errors'] },
    code: { type: 'string', enum: Object.keys(ERROR_CATALOGUE) },
    instance: { type: 'string', description: 'The request path; for a 500, the request id', examples: ['/v1/receivables/invoices'] },
    request_id: { type: 'string', examples: [exampleUuid('request')] },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['pointer', 'detail'],
        properties: {
          pointer: { type: 'string', description: 'JSON Pointer into the body, or /query/<name>, /path/<name>, /headers/<name>', examples: ['/lines/0/quantity'] },
          detail: { type: 'string', examples: ['must be greater than 0'] },
          code: { type: 'string', description: 'The rule at fault, where the refusal names one (einvoice_not_ready: the preflight code)', examples: ['buyer_tin_missing'] },
        },
      },
    },
  },
};

const INT_MAX = 2_147_483_647;

const headerDefs: Json = {
  ETag: { description: "The record's revision, quoted", schema: { type: 'string', example: '"1"' } },
  Location: { description: 'Address of the created record', schema: { type: 'string', examples: [`/v1/receivables/invoices/${exampleUuid('receivables_document')}`] } },
  'X-Request-Id': { description: 'Id of this request, to quote when reporting a problem', schema: { type: 'string', examples: [exampleUuid('request')] } },
  'RateLimit-Limit': { description: 'Requests allowed in the current window of the tightest limit', schema: { type: 'integer', minimum: 0, maximum: INT_MAX, examples: [600] } },
  'RateLimit-Remaining': { description: 'Requests left in that window', schema: { type: 'integer', minimum: 0, maximum: INT_MAX, examples: [599] } },
  'RateLimit-Reset': { description: 'Seconds until that window resets', schema: { type: 'integer', minimum: 0, maximum: INT_MAX, examples: [60] } },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 0, maximum: INT_MAX, examples: [30] } },
  'Idempotent-Replayed': { description: 'true when the answer is the replay of an earlier request with the same Idempotency-Key', schema: { type: 'string', enum: ['true'] } },
};

const idempotencyKeyParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    `Required for writes made with an API key (missing or longer than ${IDEMPOTENCY_KEY_MAX_LENGTH} characters: 422 \`idempotency_key_required\`); ` +
    'optional with a session, and honoured when sent. 1 to 255 characters, bare or as an RFC 8941 string (`"order-42"`). ' +
    'Scoped to the API key (with a session: to its person) and kept 24 hours from first use. ' +
    'Retrying with the same key and the same request replays the first answer (status, body, ETag, Location) with `Idempotent-Replayed: true`; ' +
    'the same key with a different request is 409 `idempotency_key_reused`; while the first is still running, 409 `idempotency_in_progress` with Retry-After. ' +
    'Only successes are stored: after a refusal the corrected request may reuse the key.',
  schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH },
  example: 'order-42',
};

const ifMatchParameter = {
  name: 'If-Match',
  in: 'header',
  required: true,
  description:
    'The revision the caller read, as the ETag gave it (`"3"`; a bare 3 or W/"3" are read the same). ' +
    'Missing: 428 `revision_required`; not a revision: 400; stale: 409 `revision_mismatch` ' +
    '(RFC 9110 would answer 412; the contract chose 409). Read the record again and re-apply the change.',
  schema: { type: 'string', pattern: '^(W/)?"?[0-9]{1,9}"?$' },
  example: '"1"',
};

function policyDescription(limits: RateLimitSettings | undefined): string {
  const idempotency =
    '\n\n**Idempotency.** Every write made with an API key needs an `Idempotency-Key` header (1 to 255 characters). ' +
    'Keys are scoped to the API key and kept 24 hours from first use; after that a key is new again. ' +
    'A retry with the same key replays the first answer with `Idempotent-Replayed: true` and nothing runs twice. ' +
    'The request is identified by its method, route, path parameters and canonical JSON body.';
  const rate = limits
    ? `\n\n**Rate limits.** Per API key: ${limits.perKey} requests per ${limits.windowSeconds} s. ` +
      `Per person, across their sessions: ${limits.perMember ?? limits.perKey} per ${limits.windowSeconds} s. ` +
      `Per organization, across its keys and sessions: ${limits.perOrganization} per ${limits.windowSeconds} s. ` +
      `Per member, with any credential: ${limits.pdfRendersPerMinute ?? 'any number of'} PDF renders and ${limits.uploadsPerMinute ?? 'any number of'} uploads a minute. ` +
      `Per source address: ${limits.authFailures} failed authentications (keys or sessions) per ${limits.authFailureWindowSeconds} s, after which the address is refused until the window resets. `
    : '\n\n**Rate limits.** Per API key, per person across their sessions, per organization across its keys and sessions, PDF renders and uploads per member, and per source address for failed authentication (keys and sessions). ';
  const sizes =
    '\n\n**Size limits.** A JSON request body of at most 1 MiB (larger: 413 `payload_too_large`); an uploaded file up to the limit ' +
    '`POST /documents` states (10 MiB by default, 413 beyond), within the organization\'s storage quota (413 `storage_quota_exceeded`); a URL of at most ' +
    `${MAX_URL_LENGTH} characters (longer: 414 \`uri_too_long\`). ` +
    'Answers of 1 KiB or more are compressed as `Accept-Encoding` asks (gzip, deflate, br); request bodies are never decompressed.';
  return (
    idempotency +
    rate +
    'Every answer to an API-key request carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds) of the tightest limit; ' +
    'a refusal is 429 `rate_limited` with `Retry-After` (whole seconds, never earlier than the reset).' +
    sizes
  );
}

/** The document's tags, in the order the /docs page lists them, with what each groups (tests/http/openapi-lint.test.ts: every tag used is here). */
const TAGS = [
  { name: 'Customers', description: 'The organization\'s customers: who receivables documents are issued to, with the identifiers LHDN MyInvois needs (TIN, registration, SST number).' },
  {
    name: 'Receivables documents',
    description: 'Invoices, credit notes and debit notes: drafts, issue, the e-invoice status at LHDN MyInvois, attachments and the PDF.',
  },
  { name: 'Receipts', description: 'Money received from customers and its allocation to their open documents.' },
  { name: 'Bank statements', description: "Bank statement CSVs read with each bank account's column mapping, their lines stored once, and each credit matched to the invoices it pays." },
  { name: 'Receivables reports', description: 'Aged receivables and collection figures as at any day, rebuilt from the documents and allocations of that day.' },
  { name: 'Expense claims', description: 'Claims of what members spent for the organization: lines, approval, settlement and sign-off.' },
  { name: 'Documents', description: 'Uploaded files (receipts, supporting documents) that records bind as attachments.' },
  { name: 'Settings', description: "The organization's reference data an integrator prepares documents with: accounts and tax codes (read only here)." },
  { name: 'Events', description: 'What happened in the organization in the last 30 days: thin events naming the record and its revision.' },
  { name: 'Webhook endpoints', description: 'Where events are sent, signed as Standard Webhooks; each endpoint’s deliveries and their attempts.' },
  {
    name: 'Journal',
    description: "Balanced journal entries of every invoice, receipt and claim, exported in numbered batches in the layouts SQL Account, AutoCount and Xero import; the control accounts they post to and the trial balance.",
  },
];

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/**
 * The document trpc-to-openapi generates, corrected to tell the truth: real success statuses,
 * problem+json for every error status, bearer security, and the response headers we send.
 */
export function buildOpenApiDocument(opts: { serverUrl?: string; rateLimits?: RateLimitSettings; router?: AnyRouter } = {}): OpenAPIObject {
  const router = opts.router ?? appRouter;
  const doc = generateOpenApiDocument(router, {
    title: PRODUCT_NAME,
    version: API_VERSION,
    description:
      'Multi-tenant finance API for Malaysian organizations: receivables shaped for LHDN MyInvois, and expense claims. ' +
      'Amounts travel as decimal strings. Errors are application/problem+json. Writes made with an API key need an Idempotency-Key.\n\n' +
      guideSections() +
      '\n\n## Idempotency, rate limits and sizes' +
      policyDescription(opts.rateLimits),
    baseUrl: opts.serverUrl ?? '/v1',
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', description: 'An API key (fk_...) or a session token (fs_...)' },
    },
  }) as Json;

  doc.info.license = { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' };
  doc.info.contact = { name: 'The operator of this service' };
  doc.components ??= {};
  doc.components.schemas ??= {};
  doc.components.schemas.Problem = problemSchema;
  doc.components.headers = headerDefs;
  doc.components.parameters = { ...(doc.components.parameters ?? {}), IdempotencyKey: idempotencyKeyParameter, IfMatch: ifMatchParameter };
  doc.components.responses = Object.fromEntries(
    Object.entries(STATUS_DESCRIPTIONS).map(([status, description]) => [
      `Problem${status}`,
      {
        description,
        headers: {
          'X-Request-Id': ref('headers', 'X-Request-Id'),
          // Refusals of an API-key request carry the limits too (a 401 for a bad key: the address limit).
          'RateLimit-Limit': ref('headers', 'RateLimit-Limit'),
          'RateLimit-Remaining': ref('headers', 'RateLimit-Remaining'),
          'RateLimit-Reset': ref('headers', 'RateLimit-Reset'),
          ...(status === '429' ? { 'Retry-After': ref('headers', 'Retry-After') } : {}),
          ...(status === '409' ? { 'Retry-After': ref('headers', 'Retry-After') } : {}),
        },
        content: { 'application/problem+json': { schema: ref('schemas', 'Problem') } },
      },
    ]),
  );

  const metas = procedureMetas(router);
  for (const [path, item] of Object.entries(doc.paths ?? {}) as [string, Json][]) {
    for (const [method, op] of Object.entries(item) as [string, Json][]) {
      const meta = metas.get(`${method} ${path}`);
      const status = String(meta?.successStatus ?? 200);
      const success = op.responses?.['200'] ?? { description: 'Success' };
      const headers: Json = { 'X-Request-Id': ref('headers', 'X-Request-Id') };
      if (op.security) {
        headers['RateLimit-Limit'] = ref('headers', 'RateLimit-Limit');
        headers['RateLimit-Remaining'] = ref('headers', 'RateLimit-Remaining');
        headers['RateLimit-Reset'] = ref('headers', 'RateLimit-Reset');
      }
      const schemaRef = success.content?.['application/json']?.schema;
      const returnsRecord = Boolean(schemaRef?.$ref) && !/List/i.test(String(schemaRef?.$ref));
      // Uploaded documents carry no revision (they never change): no ETag.
      if ((returnsRecord || path.includes('{')) && !path.startsWith('/documents')) headers.ETag = ref('headers', 'ETag');
      if (status === '201') headers.Location = ref('headers', 'Location');
      // Every POST is a write; so is any other mutation (a PUT, PATCH or DELETE served by writeProcedure).
      if (method === 'post' || meta?.isWrite) {
        headers['Idempotent-Replayed'] = ref('headers', 'Idempotent-Replayed');
        op.parameters = [...(op.parameters ?? []).filter((p: Json) => p.name !== 'Idempotency-Key'), ref('parameters', 'IdempotencyKey')];
      }
      if (meta?.requiresRevision) {
        op.parameters = [...(op.parameters ?? []).filter((p: Json) => p.name !== 'If-Match'), ref('parameters', 'IfMatch')];
      }
      // The REST adapter reads a JSON body on every write, even one whose input is all in the path: without
      // one the answer is 400 invalid_request. Say so, so that the example request works when pasted.
      if (method !== 'get' && !op.requestBody) {
        op.requestBody = {
          required: true,
          description: 'An empty JSON object: the operation takes its input from the path',
          content: { 'application/json': { schema: { type: 'object', additionalProperties: false }, example: {} } },
        };
      }
      const responses: Json = { [status]: { ...success, description: status === '201' ? 'Created' : 'Success', headers } };
      for (const s of errorStatuses(method, path, meta)) responses[String(s)] = ref('responses', `Problem${s}`);
      op.responses = responses;
      if (!op.operationId) op.operationId = `${method}${path.replace(/[^a-zA-Z0-9]+/g, '_')}`;
    }
  }
  addUploadOperation(doc);
  addContentOperation(doc);
  addInvoicePdfOperation(doc);
  addStatementAndReceiptPdfOperations(doc);
  addCsvAnswer(doc, '/receivables/reports/ageing');

  // Every operation needs a credential: say it once for the document (operations repeat it).
  doc.security = [{ bearer: [] }];
  const used = new Set(Object.values<Json>(doc.paths).flatMap((item) => Object.values<Json>(item).flatMap((op) => op.tags ?? [])));
  doc.tags = [...TAGS.filter((tag) => used.has(tag.name)), ...[...used].filter((name) => !TAGS.some((tag) => tag.name === name)).map((name) => ({ name }))];
  // trpc-to-openapi adds a schema per tRPC error code; no operation answers them (errors are Problem).
  for (const name of Object.keys(doc.components.schemas)) if (name.startsWith('error.')) delete doc.components.schemas[name];
  addExamples(doc);
  addRequestExamples(doc);
  addResponseExamples(doc);
  return doc as OpenAPIObject;
}

/**
 * POST /documents is a fastify route (multipart is outside what the REST adapter speaks); it is
 * described here by hand, in the same shape as the generated operations.
 */
function addUploadOperation(doc: Json) {
  doc.components.schemas.UploadedDocument = uploadedDocumentJsonSchema();
  const responses: Json = {
    '201': {
      description: 'Created',
      headers: {
        'X-Request-Id': ref('headers', 'X-Request-Id'),
        'RateLimit-Limit': ref('headers', 'RateLimit-Limit'),
        'RateLimit-Remaining': ref('headers', 'RateLimit-Remaining'),
        'RateLimit-Reset': ref('headers', 'RateLimit-Reset'),
        'Idempotent-Replayed': ref('headers', 'Idempotent-Replayed'),
      },
      content: { 'application/json': { schema: ref('schemas', 'UploadedDocument') } },
    },
  };
  for (const s of [400, 401, 403, 409, 413, 415, 422, 429, 500, 503]) responses[String(s)] = ref('responses', `Problem${s}`);
  doc.paths ??= {};
  doc.paths['/documents'] = {
    post: {
      operationId: 'uploadDocument',
      summary: 'Upload a document (file)',
      description:
        'Uploads one file as multipart/form-data, part `file`. Accepted: PDF, PNG, JPEG, WebP, HEIC, TIFF, XML, recognised by content; ' +
        'another type, or content that disagrees with the declared type, is 415; larger than the limit (10 MiB by default) is 413; an empty file is 422. ' +
        'The uploader owns the document until a record binds it (attachment_ids). Permission: documents.create.',
      tags: ['Documents'],
      security: [{ bearer: [] }],
      // The upload is a write like the others: the same Idempotency-Key rules (route-guard.ts).
      parameters: [ref('parameters', 'IdempotencyKey')],
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['file'],
              properties: { file: { type: 'string', format: 'binary', description: 'The file' } },
            },
          },
        },
      },
      responses,
    },
  };
}

interface BinaryOperation {
  path: string;
  operationId: string;
  summary: string;
  description: string;
  tag: string;
  idDescription: string;
  answer: string;
  contentDisposition: string;
  contentDispositionExample: string;
  headers?: Json;
  content: Json;
  problems: number[];
  /** Query parameters beside the path's id. */
  query?: Json[];
}

/**
 * An operation answering bytes, not JSON (a fastify route beside the generated ones), described by
 * hand in the same shape as the generated operations: rate-limit and request-id headers, problems.
 */
function addBinaryOperation(doc: Json, op: BinaryOperation) {
  const responses: Json = {
    '200': {
      description: op.answer,
      headers: {
        'X-Request-Id': ref('headers', 'X-Request-Id'),
        'RateLimit-Limit': ref('headers', 'RateLimit-Limit'),
        'RateLimit-Remaining': ref('headers', 'RateLimit-Remaining'),
        'RateLimit-Reset': ref('headers', 'RateLimit-Reset'),
        'Content-Disposition': { description: op.contentDisposition, schema: { type: 'string', examples: [op.contentDispositionExample] } },
        'Content-Length': { description: 'Bytes', schema: { type: 'integer', minimum: 0, maximum: INT_MAX, examples: [48_213] } },
        ...op.headers,
      },
      content: op.content,
    },
  };
  for (const s of op.problems) responses[String(s)] = ref('responses', `Problem${s}`);
  doc.paths ??= {};
  doc.paths[op.path] = {
    get: {
      operationId: op.operationId,
      summary: op.summary,
      description: op.description,
      tags: [op.tag],
      security: [{ bearer: [] }],
      parameters: [{ name: 'id', in: 'path', required: true, description: op.idDescription, schema: { type: 'string', format: 'uuid' } }, ...(op.query ?? [])],
      responses,
    },
  };
}

/** GET /documents/{id}/content (content-route.ts): an uploaded document's bytes. */
function addContentOperation(doc: Json) {
  addBinaryOperation(doc, {
    path: '/documents/{id}/content',
    operationId: 'getDocumentContent',
    summary: 'Download an uploaded document (bytes)',
    description:
      'Answers the bytes of the document as an attachment. Readable by its uploader and by whoever may read the record it is bound to ' +
      '(a receivables document: receivables.invoice.read; a claim: whoever may read the claim); anyone else gets 404, as for a document that does not exist.',
    tag: 'Documents',
    idDescription: 'The document id',
    answer: 'The bytes of the document, with the content type it was recognised as',
    contentDisposition: "Always `attachment`, with the filename as RFC 6266 says: an ASCII `filename` and the exact one in `filename*=UTF-8''...` (RFC 5987)",
    contentDispositionExample: `attachment; filename="receipt-2026-01-12.pdf"; filename*=UTF-8''receipt-2026-01-12.pdf`,
    headers: { 'X-Content-Type-Options': { description: 'Always `nosniff`', schema: { type: 'string', enum: ['nosniff'] } } },
    content: Object.fromEntries(ALLOWED_TYPES.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
    problems: [400, 401, 404, 429, 500, 503],
  });
}

/** A report that also answers text/csv with format=csv (the procedure sets the body; rest-adapter.ts). */
function addCsvAnswer(doc: Json, path: string) {
  const ok = doc.paths?.[path]?.get?.responses?.['200'];
  if (!ok) return;
  const csv =
    'customer_code,legal_name,is_group_company,currency,current,days_1_30,days_31_60,days_61_90,days_91_120,over_120,total,total_base,base_currency\r\n' +
    'CUST-0042,Syarikat Contoh Sdn. Bhd.,false,MYR,1060.00,0.00,0.00,0.00,0.00,0.00,1060.00,1060.00,MYR\r\n' +
    'TOTAL,,,,,,,,,,,1060.00,MYR\r\n';
  ok.content = {
    ...ok.content,
    'text/csv': { schema: { type: 'string', description: 'With format=csv: a header line, one line per customer and currency, a TOTAL line', examples: [csv] } },
  };
  ok.headers = {
    ...ok.headers,
    'Content-Disposition': { description: 'With format=csv: `attachment; filename="ageing-<as_of>.csv"`', schema: { type: 'string', examples: ['attachment; filename="ageing-2026-03-31.csv"'] } },
  };
}

/** GET /receivables/invoices/{id}/pdf (receivables/invoices/pdf-route.ts): the document as a PDF. */
function addInvoicePdfOperation(doc: Json) {
  addBinaryOperation(doc, {
    path: '/receivables/invoices/{id}/pdf',
    operationId: 'getReceivablesDocumentPdf',
    summary: 'Read a document as a PDF',
    description:
      'The invoice, credit note or debit note as its customer receives it: seller and buyer with TIN, registration and SST numbers, ' +
      'the lines with classification code, tax type and rate, the totals and an SST summary per tax type. Once LHDN MyInvois has validated it: ' +
      'the LHDN UUID, the validation time and the validation link, as text and as a QR code. A draft is stamped DRAFT and carries no QR code. ' +
      'Permission: receivables.invoice.read.',
    tag: 'Receivables documents',
    idDescription: 'The receivables document',
    answer: 'The document as a PDF',
    contentDisposition: '`inline; filename="<reference>.pdf"`; a draft, which has no number yet, is named by its id',
    contentDispositionExample: 'inline; filename="INV-2026-0001.pdf"',
    content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
    problems: [400, 401, 403, 404, 429, 500, 503],
  });
}

/** GET /receivables/customers/{id}/statement/pdf and /receivables/receipts/{id}/pdf (receivables/invoices/pdf-route.ts). */
function addStatementAndReceiptPdfOperations(doc: Json) {
  const day = (description: string) => ({ type: 'string', format: 'date', description });
  addBinaryOperation(doc, {
    path: '/receivables/customers/{id}/statement/pdf',
    operationId: 'getCustomerStatementPdf',
    summary: "A customer's statement as a PDF",
    description:
      'The statement GET /receivables/customers/{id}/statement answers, as a bilingual (English / Bahasa Malaysia) PDF: open items as at `to` ' +
      'with days overdue, the overdue part and the closing balance, or the activity from `from` to `to` with opening, running and closing balance; ' +
      'names in Chinese and Tamil print as written. The same query, the same refusals. Permission: receivables.invoice.read.',
    tag: 'Customers',
    idDescription: 'The customer',
    answer: 'The statement as a PDF',
    contentDisposition: '`inline; filename="statement-<customer code>-<to>.pdf"`',
    contentDispositionExample: 'inline; filename="statement-CUST-0042-2026-03-31.pdf"',
    content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
    problems: [400, 401, 403, 404, 422, 429, 500, 503],
    query: [
      { name: 'type', in: 'query', required: false, description: 'open_items (default) or activity', schema: { type: 'string', enum: ['open_items', 'activity'] } },
      { name: 'from', in: 'query', required: false, description: 'activity only: the first day; the first of the month of `to` by default', schema: day('YYYY-MM-DD') },
      { name: 'to', in: 'query', required: false, description: "The last day; the organization's today by default, never after it", schema: day('YYYY-MM-DD') },
    ],
  });
  addBinaryOperation(doc, {
    path: '/receivables/receipts/{id}/pdf',
    operationId: 'getReceiptPdf',
    summary: 'The official receipt as a PDF',
    description:
      'The official receipt (Resit Rasmi) for a receipt, in English and Bahasa Malaysia: the organization, the customer, the amount, the day ' +
      'received and the method, each document it settled (the allocations that count, neither reversed nor a reversal) and what it left on account. ' +
      'Permission: receivables.receipt.read.',
    tag: 'Receipts',
    idDescription: 'The receipt',
    answer: 'The official receipt as a PDF',
    contentDisposition: '`inline; filename="receipt-<reference>.pdf"`',
    contentDispositionExample: 'inline; filename="receipt-OR-2026-0001.pdf"',
    content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
    problems: [400, 401, 403, 404, 429, 500, 503],
  });
}
