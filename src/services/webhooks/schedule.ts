/**
 * When webhook deliveries are attempted: at once, then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and
 * 10 h (eight attempts over about 28 hours), each wait lengthened by up to a tenth at random so that
 * many deliveries failing together do not come back together. An endpoint whose attempts have all
 * failed for 5 days is disabled.
 */

export const DELIVER_JOB = 'webhook-deliver';

export const RETRY_WAITS_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 36_000] as const;

/** The first attempt and one after each wait. */
export const SCHEDULE_ATTEMPTS = RETRY_WAITS_SECONDS.length + 1;

/** The most a wait is lengthened by, as a fraction of it. */
export const JITTER = 0.1;

/** An answer within this is one; later, the attempt failed. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** How much of an answer an attempt's log keeps. */
export const ANSWER_EXCERPT_BYTES = 1024;

export const DISABLE_AFTER_FAILING_MS = 5 * 86_400_000;

/** How long the previous secret keeps signing after a rotation. */
export const PREVIOUS_SECRET_MS = 24 * 3_600_000;

/** Events and delivery logs are kept this many days. */
export const EVENT_RETENTION_DAYS = 30;

/** The wait after failed attempt `attempt` (1-based), jitter included; `random` in [0, 1). */
export function retryWaitMs(attempt: number, random: number): number {
  const seconds = RETRY_WAITS_SECONDS[Math.min(attempt, RETRY_WAITS_SECONDS.length) - 1]!;
  return Math.round(seconds * 1000 * (1 + JITTER * random));
}

export const deliveryDedupeKey = (deliveryId: string) => `${DELIVER_JOB}:${deliveryId}`;
