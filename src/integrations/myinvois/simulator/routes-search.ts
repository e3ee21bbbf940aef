/**
 * `GET /api/v1.0/documents/search` (LHDN's Search Documents): a submission-date or issue-date window
 * (one pair required, from ≤ to, at most 31 days), optional uuid, invoiceDirection (Sent | Received),
 * status, documentType and a free-text searchQuery; newest submitted first, at most 10,000 results, paged
 * (pageSize ≤ 100). Visibility as LHDN's: a document is Sent by its submitter and Received by its
 * receiver, who never sees it while Submitted or Invalid. Refusals are 400 BadArgument.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SimContext } from './context';
import { httpError, sendError } from './errors';
import { documentSummary } from './present';
import type { DocumentStatus, SimDocument } from './types';

const DAY_MS = 24 * 3600 * 1000;
const MAX_WINDOW_MS = 31 * DAY_MS;
const MAX_RESULTS = 10_000;
const STATUSES: DocumentStatus[] = ['Submitted', 'Valid', 'Invalid', 'Cancelled'];
const DOCUMENT_TYPES = ['01', '02', '03', '04', '11', '12', '13', '14'];

type Query = Record<string, string | undefined>;
type Window = { field: 'submission' | 'issue'; from: number; to: number };

function badArgument(reply: FastifyReply, message: string, target: string) {
  return sendError(reply, 400, httpError('BadArgument', message, target, [{ code: 'BadArgument', message, target }]));
}

function present(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '';
}

/** The date windows asked for (each given pair narrows the result), or the refusal's message and target. */
function dateWindows(query: Query): Window[] | { message: string; target: string } {
  const pairs = [
    { field: 'submission' as const, from: 'submissionDateFrom', to: 'submissionDateTo' },
    { field: 'issue' as const, from: 'issueDateFrom', to: 'issueDateTo' },
  ];
  const given = pairs.filter((pair) => present(query[pair.from]) || present(query[pair.to]));
  if (given.length === 0) return { message: 'submissionDateFrom and submissionDateTo, or issueDateFrom and issueDateTo, are mandatory', target: 'submissionDateFrom' };
  const windows: Window[] = [];
  for (const pair of given) {
    const [fromText, toText] = [query[pair.from], query[pair.to]];
    if (!present(fromText)) return { message: `${pair.from} is mandatory when ${pair.to} is provided`, target: pair.from };
    if (!present(toText)) return { message: `${pair.to} is mandatory when ${pair.from} is provided`, target: pair.to };
    const from = Date.parse(fromText);
    const to = Date.parse(toText);
    if (Number.isNaN(from)) return { message: `${pair.from} is not a valid date and time`, target: pair.from };
    if (Number.isNaN(to)) return { message: `${pair.to} is not a valid date and time`, target: pair.to };
    if (from > to) return { message: `${pair.from} must be before ${pair.to}`, target: pair.from };
    if (to - from > MAX_WINDOW_MS) return { message: 'The date range must not exceed 31 days', target: pair.to };
    windows.push({ field: pair.field, from, to });
  }
  return windows;
}

function positiveInt(value: string | undefined, fallback: number): number | null {
  if (!present(value)) return fallback;
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : null;
}

function matchesText(doc: SimDocument, query: string): boolean {
  const q = query.trim().toLowerCase();
  const fields = [doc.uuid, doc.internalId, doc.issuerTin, doc.issuerName, doc.receiverId, doc.receiverName];
  if (fields.some((field) => field.toLowerCase().includes(q))) return true;
  // `total` is among LHDN's searchable fields: an amount matches the payable total.
  const amount = Number(q);
  return q !== '' && Number.isFinite(amount) && amount === Number(doc.totals.payable);
}

/** Search Documents answers a few fields beyond the submission summary, under its own names. */
function searchResult(doc: SimDocument) {
  const summary = documentSummary(doc);
  return {
    ...summary,
    submissionUID: summary.submissionUid,
    totalSales: summary.totalExcludingTax,
    netAmount: summary.totalNetAmount,
    total: summary.totalPayableAmount,
    supplierTIN: doc.issuerTin,
    supplierName: doc.issuerName,
    buyerTIN: doc.receiverId,
    buyerName: doc.receiverName,
    submissionChannel: 'ERP',
  };
}

export function registerSearchRoute(app: FastifyInstance, ctx: SimContext): void {
  app.get<{ Querystring: Query }>('/api/v1.0/documents/search', { config: { endpoint: 'search', auth: true } }, async (request, reply) => {
    const query = request.query;
    const windows = dateWindows(query);
    if (!Array.isArray(windows)) return badArgument(reply, windows.message, windows.target);
    const pageNo = positiveInt(query['pageNo'], 1);
    const pageSize = positiveInt(query['pageSize'], 100);
    if (pageNo === null) return badArgument(reply, 'pageNo must be a positive integer', 'pageNo');
    if (pageSize === null || pageSize > 100) return badArgument(reply, 'pageSize must be an integer from 1 to 100', 'pageSize');
    const direction = query['invoiceDirection'];
    if (present(direction) && direction !== 'Sent' && direction !== 'Received') return badArgument(reply, 'invoiceDirection must be Sent or Received', 'invoiceDirection');
    const status = query['status'];
    if (present(status) && !STATUSES.includes(status as DocumentStatus)) return badArgument(reply, 'status must be Valid, Invalid, Cancelled or Submitted', 'status');
    const documentType = query['documentType'];
    if (present(documentType) && !DOCUMENT_TYPES.includes(documentType)) return badArgument(reply, 'documentType must be one of 01, 02, 03, 04, 11, 12, 13, 14', 'documentType');
    const { uuid, searchQuery } = query;

    const tin = request.caller!.tin;
    const sent = (doc: SimDocument) => doc.submitterTin === tin;
    const received = (doc: SimDocument) => doc.receiverId === tin && (doc.status === 'Valid' || doc.status === 'Cancelled');
    const inWindow = (doc: SimDocument) => windows.every((w) => {
      const at = w.field === 'submission' ? doc.dateTimeReceived : Date.parse(doc.dateTimeIssued);
      return at >= w.from && at <= w.to;
    });
    const found = [...ctx.store.documents.values()]
      .filter((doc) => (direction === 'Sent' ? sent(doc) : direction === 'Received' ? received(doc) : sent(doc) || received(doc)))
      .filter(inWindow)
      .filter((doc) => !present(uuid) || doc.uuid === uuid.trim())
      .filter((doc) => !present(status) || doc.status === status)
      .filter((doc) => !present(documentType) || doc.typeCode === documentType)
      .filter((doc) => !present(searchQuery) || matchesText(doc, searchQuery))
      // Newest submitted first; the store keeps arrival order, so reverse it before a stable sort.
      .reverse()
      .sort((a, b) => b.dateTimeReceived - a.dateTimeReceived)
      .slice(0, MAX_RESULTS);
    const page = found.slice((pageNo - 1) * pageSize, pageNo * pageSize);
    return reply.send({
      result: page.map(searchResult),
      metadata: { totalPages: Math.ceil(found.length / pageSize), totalCount: found.length },
    });
  });
}
