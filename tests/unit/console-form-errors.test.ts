import { TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import { problemOf, isStale, type ConsoleProblem } from '../../web/src/api/problem';
import { fieldNameOf, placeProblem } from '../../web/src/forms/pointers';

/** A problem as the console's tRPC client receives it: the server's error shape with the problem under data. */
function clientError(problem: Record<string, unknown>, httpStatus = Number(problem.status)): TRPCClientError<never> {
  return TRPCClientError.from({ error: { message: String(problem.detail ?? ''), code: -32600, data: { code: 'BAD_REQUEST', httpStatus, path: 'x', problem } } } as never);
}

describe('the console reads a server problem', () => {
  it('takes status, code, detail, pointers and request id from the problem', () => {
    const p = problemOf(
      clientError({
        type: '/problems/validation',
        title: 'Validation failed',
        status: 422,
        code: 'validation',
        detail: 'lines.0.amount must be more than 0',
        errors: [{ pointer: '/lines/0/amount', detail: 'must be more than 0' }],
        request_id: 'req-1',
        organizations: [{ id: 'o1', name: 'Acme' }],
      }),
    );
    expect(p).toEqual({
      status: 422,
      code: 'validation',
      detail: 'lines.0.amount must be more than 0',
      pointers: [{ pointer: '/lines/0/amount', detail: 'must be more than 0' }],
      requestId: 'req-1',
      extensions: { organizations: [{ id: 'o1', name: 'Acme' }] },
    });
  });

  it('says a failed fetch is the network, and a stale revision is stale', () => {
    expect(problemOf(new TypeError('Failed to fetch'))).toMatchObject({ status: 0, code: 'network' });
    expect(isStale(problemOf(clientError({ status: 409, code: 'conflict', detail: 'The revision is stale' })))).toBe(true);
    expect(isStale(problemOf(clientError({ status: 428, code: 'precondition_required', detail: 'Send If-Match', errors: [{ pointer: '/headers/if-match', detail: 'is required' }] })))).toBe(true);
    expect(isStale(problemOf(clientError({ status: 409, code: 'transition_refused', detail: 'no' })))).toBe(false);
    expect(isStale(problemOf(clientError({ status: 409, code: 'revision_mismatch', detail: 'The record has changed since you read it' })))).toBe(true);
    // A code already in use is about that field, not a record someone else changed.
    expect(isStale(problemOf(clientError({ status: 409, code: 'conflict', detail: 'The code is already in use', errors: [{ pointer: '/code', detail: 'is already in use' }] })))).toBe(false);
  });
});

describe('pointers onto form fields', () => {
  it('turns a JSON pointer into the dotted field name, dropping REST locations', () => {
    expect(fieldNameOf('/lines/0/amount')).toBe('lines.0.amount');
    expect(fieldNameOf('/query/limit')).toBe('limit');
    expect(fieldNameOf('/path/id')).toBe('id');
    expect(fieldNameOf('/a~1b/c~0d')).toBe('a/b.c~d');
    expect(fieldNameOf('/headers/if-match')).toBeUndefined();
    expect(fieldNameOf('')).toBeUndefined();
  });

  const problem = (pointers: ConsoleProblem['pointers']): ConsoleProblem => ({ status: 422, code: 'validation', detail: 'Some fields are wrong', pointers, extensions: {} });
  const fields = new Set(['title', 'lines.0.amount', 'address']);
  const has = (name: string) => fields.has(name);

  it('puts each pointer on its field, or the nearest field above it', () => {
    expect(placeProblem(problem([{ pointer: '/lines/0/amount', detail: 'must be more than 0' }, { pointer: '/address/city', detail: 'is required' }]), has)).toEqual({
      fields: [
        { name: 'lines.0.amount', message: 'must be more than 0' },
        { name: 'address', message: 'is required' },
      ],
      formMessages: [],
    });
  });

  it('keeps what no field shows as form-level messages, the detail first', () => {
    expect(placeProblem(problem([{ pointer: '/title', detail: 'is too long' }, { pointer: '/currency', detail: 'is not a currency' }]), has)).toEqual({
      fields: [{ name: 'title', message: 'is too long' }],
      formMessages: ['Some fields are wrong', 'is not a currency'],
    });
    expect(placeProblem(problem([]), has)).toEqual({ fields: [], formMessages: ['Some fields are wrong'] });
  });
});
