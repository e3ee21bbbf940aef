/**
 * What bench/floor.ts hands to bench/floor-server.ts: for each route, the statements the service ran
 * for one warm request (captured through the driver's debug hook), with each parameter marked as a
 * constant or as a value the floor must derive from its own request (the path id, the API key's
 * hash, the Idempotency-Key, a fresh id, the clock).
 */

/** A JSON-safe parameter value (Dates, bigints and byte arrays tagged). */
export type Encoded = null | boolean | number | string | Encoded[] | { $date: string } | { $bigint: string } | { $bytes: string } | { [k: string]: Encoded };

export type ParamRole =
  | { kind: 'const'; value: Encoded }
  /** The request's path id (the captured value was the seeded record's id). */
  | { kind: 'path_id' }
  /** sha256 hex of the bearer token the request carries. */
  | { kind: 'token_hash' }
  /** The request's Idempotency-Key header. */
  | { kind: 'idempotency_key' }
  /**
   * A value that differed between two captured requests and is none of the above: generated per
   * request by the service (ids, request hashes, stored answers, timestamps). The floor derives it
   * from the captured value: ids replaced by fresh ones (the same fresh id wherever the service
   * used the same id within the request), timestamps moved to now.
   */
  | { kind: 'per_request'; value: Encoded };

export interface PlannedStatement {
  text: string;
  params: ParamRole[];
}

export interface RoutePlan {
  method: 'GET' | 'POST';
  /** fastify route pattern, e.g. /v1/receivables/customers/:id */
  route: string;
  status: number;
  statements: PlannedStatement[];
  /** Captured values the floor maps: the seeded id of the path, the captured Idempotency-Key. */
  capturedPathId?: string;
  capturedIdempotencyKey?: string;
  /** When the statements were captured (timestamps in per-request values are shifted from here). */
  capturedAt: string;
}

export interface FloorPlan {
  databaseUrl: string;
  /** The bearer token the benchmark sends; requests without it are refused 401. */
  apiKey: string;
  routes: Record<string, RoutePlan>;
}

export function encode(value: unknown): Encoded {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return { $date: value.toISOString() };
  if (typeof value === 'bigint') return { $bigint: value.toString() };
  if (value instanceof Uint8Array) return { $bytes: Buffer.from(value).toString('base64') };
  if (Array.isArray(value)) return value.map(encode);
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, encode(v)]));
  return value as Encoded;
}

export function decode(value: Encoded): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(decode);
  if ('$date' in value && typeof value.$date === 'string') return new Date(value.$date);
  if ('$bigint' in value && typeof value.$bigint === 'string') return BigInt(value.$bigint);
  if ('$bytes' in value && typeof value.$bytes === 'string') return Buffer.from(value.$bytes, 'base64');
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decode(v as Encoded)]));
}
