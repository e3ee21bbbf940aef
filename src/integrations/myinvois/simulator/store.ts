/**
 * The simulator's in-memory state: registered clients and taxpayers, issued tokens, submissions and
 * documents, the recent submission payload hashes (10-minute duplicate rule) and the counters tests read.
 */
import type { SimClient, SimDocument, SimSubmission, SimTaxpayer, SimToken } from './types';

/** LHDN's general TINs (Specific Guideline, Appendix 1): always valid as a party's TIN. */
export const GENERAL_TINS = new Set(['EI00000000010', 'EI00000000020', 'EI00000000030', 'EI00000000040']);

export class SimStore {
  readonly clients = new Map<string, SimClient>();
  readonly taxpayers = new Map<string, SimTaxpayer>();
  readonly tokens = new Map<string, SimToken>();
  readonly submissions = new Map<string, SimSubmission>();
  /** Documents in the order they were received. */
  readonly documents = new Map<string, SimDocument>();
  /** Payload hash → time received, per submitter TIN. */
  readonly recentPayloads = new Map<string, number>();
  /** How many times each codeNumber appeared in a submission request. */
  readonly submittedCodeNumbers = new Map<string, number>();
  readonly requestCounts = new Map<string, number>();

  registerClient(client: SimClient): void {
    this.clients.set(client.clientId, { ...client });
  }

  registerTaxpayer(taxpayer: SimTaxpayer): void {
    this.taxpayers.set(taxpayer.tin, { ...taxpayer });
  }

  isKnownTin(tin: string): boolean {
    return GENERAL_TINS.has(tin) || this.taxpayers.has(tin);
  }

  /** Counts a document sent under `codeNumber`, overall and for the client that sent it. */
  countSubmitted(codeNumber: string, clientId?: string): void {
    for (const key of clientId ? [codeNumber, `${clientId}\u0000${codeNumber}`] : [codeNumber]) {
      this.submittedCodeNumbers.set(key, (this.submittedCodeNumbers.get(key) ?? 0) + 1);
    }
  }

  countRequest(endpoint: string): void {
    this.requestCounts.set(endpoint, (this.requestCounts.get(endpoint) ?? 0) + 1);
  }

  /** Documents still `Submitted`, oldest first. */
  pending(): SimDocument[] {
    return [...this.documents.values()].filter((doc) => doc.status === 'Submitted');
  }
}
