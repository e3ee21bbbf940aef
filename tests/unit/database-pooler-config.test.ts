/** DATABASE_POOLER and DATABASE_DIRECT_URL: what start-up accepts and the message that refuses the rest. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { databaseOptions } from '../../src/db/client';
import { TEST_PAYOUT_ENCRYPTION_KEY } from '../helpers/keys';

const base = { PAYOUT_ENCRYPTION_KEY: TEST_PAYOUT_ENCRYPTION_KEY, DATABASE_URL: 'postgres://app@pgbouncer:6432/finance' };
const load = (env: Record<string, string>) => loadConfig({ ...base, ...env } as NodeJS.ProcessEnv);

describe('DATABASE_POOLER', () => {
  it('defaults to none: the migrations use DATABASE_URL', () => {
    const c = load({});
    expect(c.DATABASE_POOLER).toBe('none');
    expect(databaseOptions(c)).toMatchObject({ url: base.DATABASE_URL, pooler: 'none', directUrl: undefined });
  });

  it('pgbouncer-transaction with DATABASE_DIRECT_URL: both reach openDatabase', () => {
    const c = load({ DATABASE_POOLER: 'pgbouncer-transaction', DATABASE_DIRECT_URL: 'postgres://app@db:5432/finance' });
    expect(databaseOptions(c)).toMatchObject({ url: base.DATABASE_URL, pooler: 'pgbouncer-transaction', directUrl: 'postgres://app@db:5432/finance' });
  });

  it('pgbouncer-transaction without DATABASE_DIRECT_URL stops start-up, saying why', () => {
    expect(() => load({ DATABASE_POOLER: 'pgbouncer-transaction' })).toThrow(
      /DATABASE_DIRECT_URL: is required with DATABASE_POOLER=pgbouncer-transaction: the migrations at start-up hold a session-level advisory lock/,
    );
  });

  it('an unknown pooler, or a pooler without DATABASE_URL, is refused naming the variable', () => {
    expect(() => load({ DATABASE_POOLER: 'pgbouncer' })).toThrow(/DATABASE_POOLER: .*"none"\|"pgbouncer-transaction"/);
    expect(() => loadConfig({ DATABASE_POOLER: 'pgbouncer-transaction', DATABASE_DIRECT_URL: 'postgres://app@db:5432/finance' } as NodeJS.ProcessEnv)).toThrow(
      /DATABASE_POOLER: pgbouncer-transaction describes DATABASE_URL, which is unset/,
    );
  });
});
