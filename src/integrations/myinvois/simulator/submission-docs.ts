/**
 * The synchronous checks of one document in a submission (LHDN's Submit Documents): format, base64,
 * 300 KB, the hex SHA-256 `documentHash` over the decoded bytes, JSON, and the issuer's TIN against the
 * token's. Answers the accepted document's record or the error for `rejectedDocuments`.
 */
import { createHash } from 'node:crypto';
import { httpError, type HttpError } from './errors';
import { newUid } from './ids';
import type { SimDocument } from './types';
import { customerParty, invoiceRoot, isSelfBilled, node, partyId, supplierParty, text } from './ubl';

export const MAX_DOCUMENT_BYTES = 300 * 1024;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export interface EnvelopeDocument {
  format: string;
  document: string;
  documentHash: string;
  codeNumber: string;
}

function validationError(message: string, target: string, detailCode: string): HttpError {
  return httpError('ValidationError', message, target, [{ code: detailCode, message, target }]);
}

export function acceptDocument(entry: EnvelopeDocument, submitterTin: string, clientId: string, submissionUid: string, now: number): SimDocument | HttpError {
  if (entry.format !== 'JSON') {
    return validationError('The simulator accepts JSON documents only (format JSON)', 'format', 'BadStructure');
  }
  if (entry.document.length % 4 !== 0 || !BASE64.test(entry.document)) {
    return validationError('Invalid structured submission: document is not base64', 'document', 'BadStructure');
  }
  const bytes = Buffer.from(entry.document, 'base64');
  if (bytes.length > MAX_DOCUMENT_BYTES) {
    return httpError('MaximumSizeExceeded', `Document size ${bytes.length} bytes exceeds the maximum of ${MAX_DOCUMENT_BYTES} bytes (300 KB)`, entry.codeNumber, [
      { code: 'MaximumSizeExceeded', message: 'The maximum size of a document is 300 KB', target: 'document' },
    ]);
  }
  const hash = createHash('sha256').update(bytes).digest('hex');
  if (entry.documentHash.toLowerCase() !== hash) {
    return validationError('Document hash is not valid.', 'documentHash', 'documentHash');
  }
  const raw = bytes.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return validationError('JSON is not valid', 'document', 'BadStructure');
  }
  const invoice = invoiceRoot(json);
  const typeCode = text(invoice, 'InvoiceTypeCode') ?? '';
  const supplier = invoice ? supplierParty(invoice) : undefined;
  const buyer = invoice ? customerParty(invoice) : undefined;
  const [issuer, receiver] = isSelfBilled(typeCode) ? [buyer, supplier] : [supplier, buyer];
  const issuerTin = partyId(issuer, 'TIN') ?? '';
  if (issuerTin !== submitterTin) {
    return httpError('ValidationError', null, null, [{ code: 'submission', target: 'submission', message: 'The authenticated TIN and documents TIN is not matching' }]);
  }
  const totals = node(invoice, 'LegalMonetaryTotal');
  const issueDate = text(invoice, 'IssueDate') ?? '';
  const issueTime = text(invoice, 'IssueTime') ?? '';
  return {
    uuid: newUid(),
    submissionUid,
    longId: null,
    internalId: text(invoice, 'ID') ?? entry.codeNumber,
    raw,
    json,
    typeCode,
    typeVersion: String(node(invoice, 'InvoiceTypeCode')?.['listVersionID'] ?? ''),
    issuerTin,
    issuerName: text(issuer, 'PartyLegalEntity', 'RegistrationName') ?? '',
    receiverId: partyId(receiver, 'TIN') ?? '',
    receiverName: text(receiver, 'PartyLegalEntity', 'RegistrationName') ?? '',
    dateTimeIssued: `${issueDate}T${issueTime}`,
    dateTimeReceived: now,
    dateTimeValidated: null,
    totals: {
      excludingTax: text(totals, 'TaxExclusiveAmount') ?? '0',
      discount: text(totals, 'AllowanceTotalAmount') ?? '0',
      netAmount: text(totals, 'LineExtensionAmount') ?? '0',
      payable: text(totals, 'PayableAmount') ?? '0',
    },
    status: 'Submitted',
    cancelDateTime: null,
    rejectRequestDateTime: null,
    documentStatusReason: null,
    createdByUserId: clientId,
    submitterTin,
    validationSteps: [],
  };
}
