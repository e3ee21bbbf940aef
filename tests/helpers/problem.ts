import { expect } from 'vitest';

type Injected = { statusCode: number; headers: Record<string, unknown>; json: () => any };

/** Asserts an answer is a problem+json of the status (and code), with every member the contract names. */
export function expectProblem(res: Injected, status: number, code?: string) {
  expect(res.statusCode, JSON.stringify(res.json())).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/problem\+json/);
  const body = res.json();
  expect(body).toMatchObject({ status, type: expect.any(String), title: expect.any(String), instance: expect.any(String) });
  expect(typeof body.detail).toBe('string');
  if (code) {
    expect(body.code).toBe(code);
    expect(body.type).toBe(`/problems/${code}`);
  }
  return body as { status: number; title: string; code?: string; detail: string; instance: string; errors?: { pointer: string; detail: string }[] };
}
