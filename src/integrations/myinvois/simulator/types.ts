/**
 * MyInvois simulator: the shapes it keeps in memory (clients, taxpayers, tokens, submissions,
 * documents) and its options. LHDN's field names are kept where the API answers them.
 */

export interface SimClient {
  clientId: string;
  clientSecret: string;
  /** The taxpayer this ERP client was registered under. */
  tin: string;
  /** TINs an intermediary client may act for through the `onbehalfof` header. */
  onBehalfOf?: string[];
}

export type IdType = 'BRN' | 'NRIC' | 'PASSPORT' | 'ARMY';

export interface SimTaxpayer {
  tin: string;
  idType: IdType;
  idValue: string;
  name: string;
}

export interface SimToken {
  token: string;
  clientId: string;
  /** The taxpayer the token acts as (the client's TIN or the `onbehalfof` TIN). */
  tin: string;
  expiresAt: number;
}

export type DocumentStatus = 'Submitted' | 'Valid' | 'Invalid' | 'Cancelled';

/** LHDN's documented validation error: `{propertyName, propertyPath, errorCode, error, errorMS, innerError}`. */
export interface ValidationError {
  propertyName: string | null;
  propertyPath: string | null;
  errorCode: string;
  error: string;
  errorMS: string;
  innerError: ValidationError[] | null;
}

export interface ValidationStep {
  name: string;
  status: 'Valid' | 'Invalid';
  error?: ValidationError;
}

export interface SimDocument {
  uuid: string;
  submissionUid: string;
  longId: string | null;
  internalId: string;
  raw: string;
  json: unknown;
  typeCode: string;
  typeVersion: string;
  issuerTin: string;
  issuerName: string;
  receiverId: string;
  receiverName: string;
  dateTimeIssued: string;
  dateTimeReceived: number;
  dateTimeValidated: number | null;
  totals: { excludingTax: string; discount: string; netAmount: string; payable: string };
  status: DocumentStatus;
  cancelDateTime: number | null;
  rejectRequestDateTime: number | null;
  documentStatusReason: string | null;
  createdByUserId: string;
  submitterTin: string;
  validationSteps: ValidationStep[];
}

export interface SimSubmission {
  submissionUid: string;
  submitterTin: string;
  clientId: string;
  dateTimeReceived: number;
  documentUuids: string[];
}

export type Endpoint = 'token' | 'submit' | 'submission' | 'raw' | 'details' | 'state' | 'validateTin' | 'search';

/** Requests per minute per client id and endpoint; LHDN's recommended figures by default. */
export type RateLimits = Record<Endpoint, number>;

export const DEFAULT_RATE_LIMITS: RateLimits = {
  token: 12,
  submit: 100,
  submission: 300,
  raw: 60,
  details: 125,
  state: 12,
  validateTin: 60,
  search: 12,
};

/** Answers the signature step for a v1.1 document: ok, or the DS3xx error to report. */
export type SignatureVerifier = (documentJson: unknown) => { ok: true } | { error: ValidationError };

export interface SimulatorOptions {
  clock?: () => Date;
  clients?: SimClient[];
  taxpayers?: SimTaxpayer[];
  rateLimits?: Partial<RateLimits>;
  /** Milliseconds a document stays `Submitted` before the clock lets it be validated (default 1). */
  validationDelayMs?: number;
  verifySignature?: SignatureVerifier;
  logger?: boolean;
}
