/**
 * The MyInvois API's answers as the client returns them, under LHDN's own field names (SDK pages
 * "Submit Documents", "Get Submission", "Get Document", "Get Document Details", "Search Documents",
 * "Cancel Document", "Reject Document"). Times are LHDN's ISO 8601 UTC strings; amounts are the
 * numbers LHDN answers (callers turn them into decimals, never compute with them).
 */

export type DocumentStatus = 'Submitted' | 'Valid' | 'Invalid' | 'Cancelled';

/** `{code, message, target, details}`: LHDN's HTTP error shape, also each rejected document's `error`. */
export interface LhdnHttpError {
  code: string;
  message: string | null;
  target: string | null;
  details: { code: string; message: string; target: string | null }[] | null;
}

/** LHDN's documented validation error (Get Document Details' validation steps). */
export interface LhdnValidationError {
  propertyName: string | null;
  propertyPath: string | null;
  errorCode: string;
  error: string;
  errorMS: string | null;
  innerError: LhdnValidationError[] | null;
}

export interface SubmitAnswer {
  /** Null when every document was rejected. */
  submissionUid: string | null;
  acceptedDocuments: { uuid: string; invoiceCodeNumber: string }[];
  rejectedDocuments: { invoiceCodeNumber: string; error: LhdnHttpError }[];
}

/** One document of Get Submission's `documentSummary` (also the metadata of raw, details and search). */
export interface DocumentSummary {
  uuid: string;
  submissionUid: string;
  longId: string | null;
  internalId: string;
  typeName: string;
  typeVersionName: string;
  issuerTin: string;
  issuerName: string;
  receiverId: string | null;
  receiverName: string | null;
  dateTimeIssued: string;
  dateTimeReceived: string;
  dateTimeValidated: string | null;
  totalExcludingTax: number;
  totalDiscount: number;
  totalNetAmount: number;
  totalPayableAmount: number;
  status: DocumentStatus;
  cancelDateTime: string | null;
  rejectRequestDateTime: string | null;
  documentStatusReason: string | null;
  createdByUserId: string | null;
}

export type SubmissionStatus = 'InProgress' | 'Valid' | 'PartiallyValid' | 'Invalid';

export interface SubmissionAnswer {
  submissionUid: string;
  documentCount: number;
  dateTimeReceived: string;
  /** Normalised: LHDN documents `in progress`, `partially valid`…; the live API answers `InProgress`… */
  overallStatus: SubmissionStatus;
  /** Every page's documents, in LHDN's order. */
  documentSummary: DocumentSummary[];
}

export interface DocumentRaw extends DocumentSummary {
  /** The document exactly as submitted (a string). */
  document: string;
}

export interface ValidationStep {
  name: string;
  status: 'Valid' | 'Invalid' | string;
  error?: LhdnValidationError | null;
}

export interface DocumentDetails extends DocumentSummary {
  validationResults?: { status: string; validationSteps: ValidationStep[] } | null;
}

export interface StateAnswer {
  uuid: string;
  /** `Cancelled`, or `Requested for Rejection` for a buyer's rejection. */
  status: string;
}

/** Search Documents adds these to the summary (with `submissionUID` spelled as LHDN documents it). */
export interface SearchResult extends DocumentSummary {
  submissionUID?: string;
  totalSales?: number;
  netAmount?: number;
  total?: number;
  supplierTIN?: string;
  supplierName?: string;
  buyerTIN?: string;
  buyerName?: string;
  submissionChannel?: string;
}

/** Dates as `Date` (sent as `YYYY-MM-DDThh:mm:ssZ`) or already formatted strings. */
export interface SearchParams {
  uuid?: string;
  submissionDateFrom?: Date | string;
  submissionDateTo?: Date | string;
  issueDateFrom?: Date | string;
  issueDateTo?: Date | string;
  invoiceDirection?: 'Sent' | 'Received';
  status?: DocumentStatus;
  documentType?: string;
  searchQuery?: string;
  /** 100 (LHDN's maximum) unless told. */
  pageSize?: number;
}

export interface SearchPage {
  result: SearchResult[];
  metadata: { totalPages: number; totalCount: number };
}

export type TinIdType = 'BRN' | 'NRIC' | 'PASSPORT' | 'ARMY';
