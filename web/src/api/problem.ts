import { TRPCClientError } from '@trpc/client';

/**
 * A failed call as the console handles it: the server's problem (RFC 9457, carried by the tRPC error
 * under `data.problem`) reduced to what a screen needs. `pointers` name the input fields at fault as
 * JSON pointers (`/lines/0/amount`; `/query/...`, `/path/...` for a REST location, `/headers/if-match`
 * for a header); forms put them on their fields (forms/server-errors.ts).
 */
export interface FieldProblem {
  pointer: string;
  detail: string;
  code?: string;
}

export interface ConsoleProblem {
  /** The HTTP status; 0 when the service could not be reached. */
  status: number;
  /** The error catalogue's code (`validation`, `conflict`, `transition_refused`, ...), or `network`. */
  code: string;
  /** The server's sentence (English); screens show their own words for the common statuses. */
  detail: string;
  pointers: FieldProblem[];
  requestId?: string;
  /** A refused workflow edge: the descriptor's refusal. */
  refusal?: { code: string; detail: string };
  /** The rest of the problem (e.g. `organizations` on a login that must name one). */
  extensions: Record<string, unknown>;
}

interface WireProblem {
  status?: number;
  code?: string;
  title?: string;
  detail?: string;
  errors?: FieldProblem[];
  request_id?: string;
  refusal?: { code: string; detail: string };
  [key: string]: unknown;
}

const KNOWN = new Set(['type', 'title', 'status', 'detail', 'code', 'instance', 'errors', 'request_id', 'refusal']);

export function problemOf(error: unknown): ConsoleProblem {
  if (error instanceof TRPCClientError) {
    const data = (error.data ?? undefined) as { httpStatus?: number; code?: string; problem?: WireProblem } | undefined;
    const wire = data?.problem;
    const responseStatus = (error.meta as { response?: { status?: number } } | undefined)?.response?.status;
    const status = wire?.status ?? data?.httpStatus ?? responseStatus ?? 0;
    if (!wire && status === 0) return networkProblem(error.message);
    const extensions: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(wire ?? {})) if (!KNOWN.has(k)) extensions[k] = v;
    return {
      status,
      code: wire?.code ?? data?.code ?? 'unknown',
      detail: wire?.detail ?? wire?.title ?? error.message,
      pointers: Array.isArray(wire?.errors) ? wire.errors.filter((e) => typeof e?.pointer === 'string') : [],
      ...(wire?.request_id ? { requestId: wire.request_id } : {}),
      ...(wire?.refusal ? { refusal: wire.refusal } : {}),
      extensions,
    };
  }
  return networkProblem(error instanceof Error ? error.message : String(error));
}

function networkProblem(detail: string): ConsoleProblem {
  return { status: 0, code: 'network', detail, pointers: [], extensions: {} };
}

/**
 * Someone else changed the record (revision_mismatch, 409 conflict on the record as a whole, 428, or
 * a fault at If-Match): reload it. A 409 conflict at a field (a code already in use) is about that
 * field, not a stale record.
 */
export function isStale(problem: ConsoleProblem): boolean {
  if (problem.pointers.some((p) => p.pointer === '/headers/if-match')) return true;
  if (problem.code === 'revision_mismatch' || problem.status === 428) return true;
  return problem.status === 409 && problem.code === 'conflict' && problem.pointers.length === 0;
}
