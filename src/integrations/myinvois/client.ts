/**
 * The HTTP client of LHDN's MyInvois API, as the e-invoicing jobs use it: token (client credentials,
 * `onbehalfof` for intermediaries, cached per client across calls), submit, get submission (every
 * page), document raw and details, search (every page), cancel, reject and TIN validation, answered
 * under LHDN's field names. Every failure is one MyInvoisError saying whether it is transient and
 * how long LHDN asked to wait; retrying is the job layer's decision, so the only retry here is the
 * single one after a 401 with a fresh token. No database here, and never a secret or token in an
 * error or a log line. Every request goes through the outbound guard (src/integrations/outbound:
 * no internal address unless allowed, checked at connect time), is never redirected (a 3xx is a
 * MyInvoisError), and reads at most 512 KiB of an answer. A MyInvoisError's message is built from
 * LHDN's own error fields only (never the raw body), so it is safe to show an invoice's readers.
 */
import { batchDocuments, envelopeBody, type DocumentToSubmit } from './client-batch';
import { MyInvoisError, parseRetryAfter, readLhdnError } from './client-errors';
import { defaultTokenCache, TokenCache, type CachedToken } from './client-tokens';
import { AnswerTooLarge, DEFAULT_MAX_ANSWER_BYTES, outboundFetch, OutboundRefused, readBounded, STRICT_POLICY, type FetchLike, type OutboundPolicy } from '../outbound';
import type {
  DocumentDetails,
  DocumentRaw,
  DocumentSummary,
  SearchPage,
  SearchParams,
  SearchResult,
  StateAnswer,
  SubmissionAnswer,
  SubmissionStatus,
  SubmitAnswer,
  TinIdType,
} from './client-types';

export { batchDocuments, MyInvoisError, TokenCache, defaultTokenCache };
export type { Batches, DocumentToSubmit } from './client-batch';
export type { CachedToken } from './client-tokens';
export type * from './client-types';

export interface MyInvoisClientOptions {
  /** Whose credentials these are (the organization id): tokens are cached per tenant and per secret. */
  tenant: string;
  /** E.g. https://preprod-api.myinvois.hasil.gov.my; the identity service (/connect/token) is on the same host. */
  apiBaseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The represented taxpayer's TIN (or `TIN:ROB`) when the client is an intermediary. */
  onBehalfOf?: string;
  /** Per request, answer body included (default 30 s). */
  timeoutMs?: number;
  /** Which internal addresses may be reached (none by default); used unless `fetch` is given. */
  outbound?: OutboundPolicy;
  /** A test seam replacing the guarded HTTP function. */
  fetch?: FetchLike;
  /** The largest answer read (512 KiB by default); a longer one is a transient MyInvoisError. */
  maxAnswerBytes?: number;
  tokens?: TokenCache;
  /** The clock for token expiry and Retry-After dates. */
  now?: () => Date;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const PAGE_SIZE = 100;
const MAX_PAGES = 100;
const DEFAULT_TOKEN_LIFETIME_S = 3600;

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  operation: string;
}

type Query = Record<string, string | number | Date | undefined>;

/** LHDN's date-time parameter format: `YYYY-MM-DDThh:mm:ssZ`. */
function lhdnDateTime(value: Date): string {
  return value.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function queryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === '') continue;
    params.set(key, value instanceof Date ? lhdnDateTime(value) : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

const segment = (value: string) => encodeURIComponent(value);

/** LHDN documents `in progress`, `partially valid`…; the live API answers `InProgress`, `PartiallyValid`… */
function normaliseOverallStatus(value: unknown): SubmissionStatus {
  const key = String(value ?? '').replace(/[\s_-]/g, '').toLowerCase();
  if (key === 'valid') return 'Valid';
  if (key === 'invalid') return 'Invalid';
  if (key === 'partiallyvalid') return 'PartiallyValid';
  // Anything else (in progress, or a status LHDN adds later) means: not settled, ask again.
  return 'InProgress';
}

export class MyInvoisClient {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly fetchFn: FetchLike;
  private readonly maxAnswerBytes: number;
  private readonly tokens: TokenCache;
  private readonly tokenKey: string;
  private readonly now: () => Date;

  constructor(private readonly options: MyInvoisClientOptions) {
    this.baseUrl = options.apiBaseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.fetchFn = options.fetch ?? outboundFetch(options.outbound ?? STRICT_POLICY);
    this.maxAnswerBytes = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
    this.tokens = options.tokens ?? defaultTokenCache;
    this.tokenKey = TokenCache.key({ tenant: options.tenant, apiBaseUrl: this.baseUrl, clientId: options.clientId, clientSecret: options.clientSecret, onBehalfOf: options.onBehalfOf });
    this.now = options.now ?? (() => new Date());
  }

  /** One submission (see batchDocuments for LHDN's limits): 202 with the accepted and rejected documents. */
  async submitDocuments(docs: DocumentToSubmit[]): Promise<SubmitAnswer> {
    const answer = await this.api('POST', '/api/v1.0/documentsubmissions', { body: envelopeBody(docs) });
    const body = this.object(answer) as Partial<SubmitAnswer>;
    return {
      submissionUid: body.submissionUid ?? null,
      acceptedDocuments: body.acceptedDocuments ?? [],
      rejectedDocuments: body.rejectedDocuments ?? [],
    };
  }

  /** The submission with every page of its documents. */
  async getSubmission(submissionUid: string): Promise<SubmissionAnswer> {
    const documents: DocumentSummary[] = [];
    let first: Record<string, unknown> | undefined;
    for (let pageNo = 1; ; pageNo++) {
      const answer = await this.api('GET', `/api/v1.0/documentsubmissions/${segment(submissionUid)}`, { query: { pageNo, pageSize: PAGE_SIZE } });
      const page = this.object(answer);
      first ??= page;
      const summaries = Array.isArray(page['documentSummary']) ? (page['documentSummary'] as DocumentSummary[]) : [];
      documents.push(...summaries);
      const count = typeof page['documentCount'] === 'number' ? page['documentCount'] : documents.length;
      // A submission holds at most 100 documents; the page cap only guards against an answer that never ends.
      if (summaries.length < PAGE_SIZE || documents.length >= count || pageNo >= MAX_PAGES) break;
    }
    return {
      submissionUid: String(first['submissionUid'] ?? submissionUid),
      documentCount: typeof first['documentCount'] === 'number' ? first['documentCount'] : documents.length,
      dateTimeReceived: String(first['dateTimeReceived'] ?? ''),
      overallStatus: normaliseOverallStatus(first['overallStatus']),
      documentSummary: documents,
    };
  }

  /** The document as submitted plus its metadata (LHDN never answers an Invalid one: 404). */
  async getDocumentRaw(uuid: string): Promise<DocumentRaw> {
    return this.object(await this.api('GET', `/api/v1.0/documents/${segment(uuid)}/raw`)) as unknown as DocumentRaw;
  }

  /** The document's metadata with its validation results (the errors of an Invalid document). */
  async getDocumentDetails(uuid: string): Promise<DocumentDetails> {
    return this.object(await this.api('GET', `/api/v1.0/documents/${segment(uuid)}/details`)) as unknown as DocumentDetails;
  }

  /** The issuer cancels (within 72 hours of validation; reason at most 300 characters). */
  async cancelDocument(uuid: string, reason: string): Promise<StateAnswer> {
    return this.setState(uuid, 'cancelled', reason);
  }

  /** The receiver asks for rejection (within 72 hours of validation); the document stays Valid. */
  async rejectDocument(uuid: string, reason: string): Promise<StateAnswer> {
    return this.setState(uuid, 'rejected', reason);
  }

  /** One page of Search Documents (pageNo from 1). */
  async searchDocumentsPage(params: SearchParams, pageNo = 1): Promise<SearchPage> {
    const { pageSize = PAGE_SIZE, ...filters } = params;
    const answer = await this.api('GET', '/api/v1.0/documents/search', { query: { ...filters, pageNo, pageSize } });
    const body = this.object(answer);
    const result = (Array.isArray(body['result']) ? body['result'] : []) as SearchResult[];
    const metadata = (body['metadata'] ?? {}) as Partial<SearchPage['metadata']>;
    return {
      // LHDN's search page spells it `submissionUID`; every other answer `submissionUid`.
      result: result.map((doc) => ({ ...doc, submissionUid: doc.submissionUid ?? doc.submissionUID ?? '' })),
      metadata: { totalPages: metadata.totalPages ?? 0, totalCount: metadata.totalCount ?? result.length },
    };
  }

  /**
   * Every page of Search Documents. LHDN allows 12 searches a minute and means the endpoint for
   * troubleshooting, not reconciliation: narrow the window and the query.
   */
  async searchDocuments(params: SearchParams): Promise<SearchResult[]> {
    const found: SearchResult[] = [];
    for (let pageNo = 1; ; pageNo++) {
      const page = await this.searchDocumentsPage(params, pageNo);
      found.push(...page.result);
      if (pageNo >= page.metadata.totalPages || page.result.length === 0 || pageNo >= MAX_PAGES) return found;
    }
  }

  /** Whether LHDN knows this TIN with this ID (200) or not (404). */
  async validateTin(tin: string, idType: TinIdType, idValue: string): Promise<boolean> {
    const answer = await this.api('GET', `/api/v1.0/taxpayer/validate/${segment(tin)}`, { query: { idType, idValue }, accept: [404] });
    return answer.status !== 404;
  }

  /**
   * Asks LHDN for a new token with these credentials (never a cached one): whether MyInvois accepts
   * them now. Throws the MyInvoisError of a refusal or of no answer.
   */
  async checkCredentials(): Promise<void> {
    const token = await this.fetchToken();
    // A good token is as good as one fetched by the next job: keep it for this tenant and secret.
    await this.tokens.get(this.tokenKey, this.now(), async () => token);
  }

  private async setState(uuid: string, status: 'cancelled' | 'rejected', reason: string): Promise<StateAnswer> {
    const answer = await this.api('PUT', `/api/v1.0/documents/state/${segment(uuid)}/state`, { body: JSON.stringify({ status, reason }) });
    return this.object(answer) as unknown as StateAnswer;
  }

  // ---------------------------------------------------------------------------------------------

  /** An API call with the cached token; a 401 drops it and the call is sent once more with a new one. */
  private async api(method: string, path: string, init: { query?: Query; body?: string; accept?: number[] } = {}): Promise<Answer> {
    const headers = (token: string): Record<string, string> => ({
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      'accept-language': 'en',
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
    });
    const url = `${path}${queryString(init.query)}`;
    const token = await this.token();
    let answer = await this.send(method, url, path, headers(token), init.body);
    if (answer.status === 401) {
      this.tokens.drop(this.tokenKey, token);
      answer = await this.send(method, url, path, headers(await this.token()), init.body);
    }
    if ((answer.status >= 200 && answer.status < 300) || init.accept?.includes(answer.status)) return answer;
    throw this.failure(answer);
  }

  private token(): Promise<string> {
    return this.tokens.get(this.tokenKey, this.now(), () => this.fetchToken());
  }

  private async fetchToken(): Promise<CachedToken> {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: this.options.clientId,
      client_secret: this.options.clientSecret,
      scope: 'InvoicingAPI',
    });
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    if (this.options.onBehalfOf) headers['onbehalfof'] = this.options.onBehalfOf;
    const answer = await this.send('POST', '/connect/token', '/connect/token', headers, form.toString());
    if (answer.status !== 200) throw this.failure(answer);
    const body = this.object(answer);
    const accessToken = body['access_token'];
    if (typeof accessToken !== 'string' || accessToken === '') {
      throw new MyInvoisError('MyInvois answered the token request without an access_token', {
        status: answer.status, code: null, details: null, retryAfterSeconds: null, transient: true, operation: answer.operation,
      });
    }
    const expiresIn = typeof body['expires_in'] === 'number' && body['expires_in'] > 0 ? body['expires_in'] : DEFAULT_TOKEN_LIFETIME_S;
    return { accessToken, expiresAt: this.now().getTime() + expiresIn * 1000 };
  }

  /** One HTTP exchange within the time limit; no answer at all is a transient MyInvoisError. */
  private async send(method: string, url: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
    const operation = `${method} ${path}`;
    const signal = AbortSignal.timeout(this.timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await this.fetchFn(`${this.baseUrl}${url}`, { method, headers, body: body ?? null, signal, redirect: 'manual' });
      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel().catch(() => undefined);
        // Never followed: a redirect could take the secret or the token anywhere. Transient: the fault is
        // the address's, not the document's, so the job retries (its error shown) and never marks it invalid.
        throw new MyInvoisError(`MyInvois answered a redirect (${response.status}) to ${operation}; redirects are not followed (check api_base_url)`, {
          status: response.status, code: null, details: null, retryAfterSeconds: null, transient: true, operation,
        });
      }
      text = await readBounded(response, this.maxAnswerBytes);
    } catch (error) {
      if (error instanceof MyInvoisError) throw error;
      const reason = signal.aborted
        ? `did not answer within ${this.timeoutMs} ms`
        : error instanceof AnswerTooLarge
          ? `answered more than ${Math.round(this.maxAnswerBytes / 1024)} KiB (not read further)`
          : error instanceof OutboundRefused
            ? `may not be reached at this address: ${error.reason}`
            : `could not be reached (${error instanceof Error ? error.message : 'unknown error'})`;
      throw new MyInvoisError(`MyInvois ${reason}: ${operation}`, {
        status: null, code: null, details: null, retryAfterSeconds: null, transient: true, operation, cause: error,
      });
    }
    let parsed: unknown = null;
    if (text.trim() !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status: response.status, headers: response.headers, body: parsed, operation };
  }

  private failure(answer: Answer): MyInvoisError {
    const { code, message, details } = readLhdnError(answer.body);
    const what = [answer.status, code].filter((part) => part !== null).join(' ');
    return new MyInvoisError(`MyInvois answered ${what} to ${answer.operation}${message ? `: ${message}` : ''}`, {
      status: answer.status,
      code,
      details,
      retryAfterSeconds: parseRetryAfter(answer.headers.get('retry-after'), this.now()),
      operation: answer.operation,
    });
  }

  /** A success answer's JSON object. Anything else leaves the outcome unknown: transient. */
  private object(answer: Answer): Record<string, unknown> {
    if (typeof answer.body === 'object' && answer.body !== null && !Array.isArray(answer.body)) return answer.body as Record<string, unknown>;
    throw new MyInvoisError(`MyInvois answered ${answer.status} to ${answer.operation} without a JSON object`, {
      status: answer.status, code: null, details: null,
      retryAfterSeconds: null, transient: true, operation: answer.operation,
    });
  }
}
