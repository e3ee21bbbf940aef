/**
 * The MyInvois simulator: a fastify app answering LHDN's e-invoicing API (token, submit, get
 * submission, raw, details, search, cancel/reject, TIN validation) from memory, plus a control API for tests
 * (register clients and taxpayers, move the clock, validate pending documents now, read counters,
 * switch a failure on). See the README section "MyInvois simulator".
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { settleDue, type Fault, type FaultMode, type SimContext } from './context';
import { registerHooks, registerParsers } from './hooks';
import { newSecret } from './ids';
import { registerDocumentRoutes } from './routes-documents';
import { registerPortalRoute } from './routes-portal';
import { registerSearchRoute } from './routes-search';
import { registerStateRoute } from './routes-state';
import { registerSubmitRoute } from './routes-submit';
import { registerTaxpayerRoute } from './routes-taxpayer';
import { registerTokenRoute } from './routes-token';
import { digestSignatureVerifier } from './signature';
import { SimStore } from './store';
import { DEFAULT_RATE_LIMITS, type Endpoint, type SimClient, type SimDocument, type SimTaxpayer, type SimulatorOptions } from './types';

export type { SignatureVerifier, SignatureVerifier as VerifySignature, SimClient, SimTaxpayer, SimulatorOptions, ValidationError } from './types';
export { digestSignatureVerifier, structuralSignatureVerifier } from './signature';

export interface SimulatorControl {
  registerClient(client: SimClient): void;
  registerTaxpayer(taxpayer: SimTaxpayer): void;
  /** Moves the simulator's clock forward (on top of the injected clock). */
  advance(ms: number): void;
  /** The simulator's current time. */
  now(): Date;
  /** Validates every `Submitted` document now, whatever the clock says. */
  validatePending(): void;
  /** How many times a document with this codeNumber was sent in a submission request (by this client, when named). */
  submissionCount(codeNumber: string, clientId?: string): number;
  /** How many requests reached an endpoint (including refused ones). */
  requestCount(endpoint: Endpoint): number;
  /** A document as the simulator holds it (for assertions), or undefined. */
  document(uuid: string): SimDocument | undefined;
  /** Forgets every submission and document, as a restarted simulator has (clients and taxpayers stay). */
  forgetDocuments(): void;
  /** Answer 500 (`error`) or never answer (`hang`, released with 503 when the app closes). */
  fail(mode: FaultMode, endpoints?: Endpoint[]): void;
  recover(): void;
}

export interface Simulator {
  app: FastifyInstance;
  control: SimulatorControl;
}

export function createSimulator(options: SimulatorOptions = {}): Simulator {
  const clock = options.clock ?? (() => new Date());
  const ctx: SimContext = {
    store: new SimStore(),
    now: () => clock().getTime() + ctx.offsetMs,
    offsetMs: 0,
    limits: { ...DEFAULT_RATE_LIMITS, ...options.rateLimits },
    verify: options.verifySignature ?? digestSignatureVerifier,
    delayMs: options.validationDelayMs ?? 1,
    fault: null,
    tokenSecret: newSecret(),
    hanging: new Set(),
  };
  for (const client of options.clients ?? []) ctx.store.registerClient(client);
  for (const taxpayer of options.taxpayers ?? []) ctx.store.registerTaxpayer(taxpayer);

  const app = Fastify({ logger: options.logger ?? false });
  registerParsers(app);
  registerHooks(app, ctx);
  registerTokenRoute(app, ctx);
  registerSubmitRoute(app, ctx);
  registerDocumentRoutes(app, ctx);
  registerSearchRoute(app, ctx);
  registerStateRoute(app, ctx);
  registerTaxpayerRoute(app, ctx);
  registerPortalRoute(app, ctx);
  app.addHook('onClose', async () => {
    ctx.fault = null;
    for (const release of ctx.hanging) release();
    ctx.hanging.clear();
  });

  const control: SimulatorControl = {
    registerClient: (client) => ctx.store.registerClient(client),
    registerTaxpayer: (taxpayer) => ctx.store.registerTaxpayer(taxpayer),
    advance: (ms) => {
      ctx.offsetMs += ms;
    },
    now: () => new Date(ctx.now()),
    validatePending: () => settleDue(ctx, true),
    submissionCount: (codeNumber, clientId) => ctx.store.submittedCodeNumbers.get(clientId ? `${clientId}\u0000${codeNumber}` : codeNumber) ?? 0,
    requestCount: (endpoint) => ctx.store.requestCounts.get(endpoint) ?? 0,
    document: (uuid) => ctx.store.documents.get(uuid),
    forgetDocuments: () => {
      ctx.store.documents.clear();
      ctx.store.submissions.clear();
      ctx.store.recentPayloads.clear();
    },
    fail: (mode, endpoints) => {
      const fault: Fault = { mode };
      if (endpoints) fault.endpoints = endpoints;
      ctx.fault = fault;
    },
    recover: () => {
      ctx.fault = null;
      for (const release of ctx.hanging) release();
      ctx.hanging.clear();
    },
  };
  return { app, control };
}
