import { expect } from 'vitest';
import { createInProcessClient } from '../../src/client';
import type { AppDeps } from '../../src/deps';

/**
 * In-process callers of the set-up procedures (settings.*, organization.*), through the same
 * authentication, permission, transaction and If-Match steps as /trpc callers. Typed loosely so one
 * table of entities can drive every settings.<entity> family.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type LooseCaller = any;

export function callerFor(t: { deps: AppDeps }, token: string, ifMatch?: number | string): LooseCaller {
  return createInProcessClient(t.deps, { token, ifMatch: ifMatch === undefined ? undefined : typeof ifMatch === 'number' ? `"${ifMatch}"` : ifMatch });
}

export interface Refused {
  status: number;
  appCode: string;
  detail?: string;
  fieldErrors?: { pointer: string; detail: string }[];
}

/** The error a call was refused with (fails the test when it succeeded). */
export async function refusedBy(call: Promise<unknown>): Promise<Refused> {
  let answer: unknown;
  try {
    answer = await call;
  } catch (e) {
    return e as Refused;
  }
  throw new Error(`expected a refusal, got ${JSON.stringify(answer)}`);
}

/** Expects a refusal with this status and code, naming `pointer` among its field errors when given. */
export async function expectRefused(call: Promise<unknown>, status: number, code: string, pointer?: string): Promise<Refused> {
  const e = await refusedBy(call);
  expect({ status: e.status, code: e.appCode }, `${e.detail ?? ''} ${JSON.stringify(e.fieldErrors ?? [])}`).toEqual({ status, code });
  if (pointer !== undefined) expect((e.fieldErrors ?? []).map((f) => f.pointer)).toContain(pointer);
  return e;
}
