/**
 * How the simulator answers a document: LHDN's summary fields (Get Submission's documentSummary,
 * and the metadata of Get Document and Get Document Details), and who may read it (the issuer, or the
 * receiver once it is Valid or Cancelled).
 */
import { isoTime } from './context';
import type { SimDocument } from './types';

const TYPE_NAMES: Record<string, string> = {
  '01': 'Invoice', '02': 'Credit Note', '03': 'Debit Note', '04': 'Refund Note',
  '11': 'Self-billed Invoice', '12': 'Self-billed Credit Note', '13': 'Self-billed Debit Note', '14': 'Self-billed Refund Note',
};

export function documentSummary(doc: SimDocument) {
  return {
    uuid: doc.uuid,
    submissionUid: doc.submissionUid,
    longId: doc.status === 'Valid' || doc.status === 'Cancelled' ? doc.longId : null,
    internalId: doc.internalId,
    typeName: TYPE_NAMES[doc.typeCode] ?? doc.typeCode,
    typeVersionName: doc.typeVersion,
    issuerTin: doc.issuerTin,
    issuerName: doc.issuerName,
    receiverId: doc.receiverId,
    receiverName: doc.receiverName,
    dateTimeIssued: doc.dateTimeIssued,
    dateTimeReceived: isoTime(doc.dateTimeReceived),
    dateTimeValidated: isoTime(doc.dateTimeValidated),
    totalExcludingTax: Number(doc.totals.excludingTax),
    totalDiscount: Number(doc.totals.discount),
    totalNetAmount: Number(doc.totals.netAmount),
    totalPayableAmount: Number(doc.totals.payable),
    status: doc.status,
    cancelDateTime: isoTime(doc.cancelDateTime),
    rejectRequestDateTime: isoTime(doc.rejectRequestDateTime),
    documentStatusReason: doc.documentStatusReason,
    createdByUserId: doc.createdByUserId,
  };
}

/** The issuer side (the submitter) reads every status; the receiver only Valid and Cancelled documents. */
export function canRead(doc: SimDocument, tin: string): boolean {
  if (doc.submitterTin === tin) return true;
  return doc.receiverId === tin && (doc.status === 'Valid' || doc.status === 'Cancelled');
}
