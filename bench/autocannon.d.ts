// The part of autocannon's API the benchmarks use (the package ships no types).
declare module 'autocannon' {
  export interface Options {
    url: string;
    headers?: Record<string, string>;
    connections?: number;
    duration?: number;
    amount?: number;
    method?: string;
    body?: string;
    /** Called before each request; what it answers is sent (bench/floor.ts: a fresh Idempotency-Key). */
    requests?: { setupRequest?: (req: { method?: string; path?: string; headers?: Record<string, string>; body?: string }) => {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
    } }[];
  }
  interface Histogram {
    average: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
  }
  interface Result {
    latency: Histogram;
    requests: Histogram & { total: number };
    non2xx: number;
    errors: number;
    /** Responses per status code. */
    statusCodeStats?: Record<string, { count: number }>;
  }
  function autocannon(opts: Options): Promise<Result>;
  export default autocannon;
}
