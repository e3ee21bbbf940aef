import { describe, expect, it } from 'vitest';
import { cliError } from '../../src/cli/output';
import { AppError } from '../../src/lib/errors';

describe('what the admin CLI prints for a failure', () => {
  it('a refusal as the API would answer it', () => {
    const e = new AppError('validation', { detail: 'email: must be an e-mail address', errors: [{ pointer: '/email', detail: 'must be an e-mail address' }] });
    expect(cliError(e, 'command')).toEqual({ code: 'validation', detail: 'email: must be an e-mail address', errors: [{ pointer: '/email', detail: 'must be an e-mail address' }] });
  });

  it('a database fault as a generic internal error, never its SQL or stack', () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "x"'), { code: '23505' });
    const fault = Object.assign(new Error('Failed query: insert into "members" ("name") values ($1)'), { query: 'insert into "members"', params: ['secret'], cause });
    const printed = JSON.stringify(cliError(fault, 'command'));
    expect(JSON.parse(printed).code).toBe('internal');
    expect(printed).not.toMatch(/insert|members|secret|23505|at /);
  });

  it('a database that cannot be reached: the cause when it carries no SQL', () => {
    expect(cliError(new Error('connect ECONNREFUSED 127.0.0.1:5432'), 'database')).toEqual({
      code: 'unavailable',
      detail: 'The database is not available: connect ECONNREFUSED 127.0.0.1:5432',
    });
    const migration = Object.assign(new Error('Failed query: CREATE TABLE "x" ()'), { query: 'CREATE TABLE "x" ()' });
    expect(cliError(migration, 'database')).toEqual({ code: 'unavailable', detail: 'The database is not available' });
  });

  it('bad arguments and configuration', () => {
    expect(cliError(new Error("Unknown option '--colour'"), 'arguments').code).toBe('invalid_request');
    expect(cliError(new Error('Invalid configuration:\n  PORT: too big'), 'arguments')).toEqual({ code: 'invalid_configuration', detail: 'Invalid configuration:\n  PORT: too big' });
  });
});
