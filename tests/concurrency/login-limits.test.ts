import { describe, expect, it } from 'vitest';
import { createTestMember, createTestOrganization, uniqueEmail } from '../factories/organization';
import { onPostgres, useTestApp } from '../helpers/app';

/**
 * Failed logins under a burst (issue 25): a unit of each limit is reserved before any password is
 * verified, so concurrent wrong passwords are verified at most as many times as the limits allow,
 * and a right password sent inside the burst, once the limit is spent, gets no session.
 */
describe.skipIf(!onPostgres)('failed-login limits under concurrency', () => {
  const t = useTestApp();
  const PASSWORD = 'correct horse battery';
  const ip = () => `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
  const send = (address: string, email: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/trpc/auth.login', remoteAddress: address, payload: { email, password } });

  it('59 concurrent wrong passwords from one address (59 accounts): 20 are verified (401), 39 refused (429); a right one inside the burst is 429', async () => {
    const org = await createTestOrganization(t.db);
    const email = uniqueEmail('burst');
    await createTestMember(t.db, org.id, { role: 'viewer', email, password: PASSWORD });
    const address = ip();
    const wrong = Array.from({ length: 59 }, (_, i) => send(address, uniqueEmail(`guess${i}`), 'not the password'));
    // The right password once the burst is under way (every wrong attempt has reserved by the time the first is answered).
    await Promise.race(wrong);
    const right = await send(address, email, PASSWORD);
    const statuses = (await Promise.all(wrong)).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(39);
    expect(right.statusCode, right.body).toBe(429);
    expect(right.json().error.data.problem.code).toBe('rate_limited');
    // The refusals counted nothing: the address is refused for the rest of its window only because of the 20.
    expect((await send(address, email, PASSWORD)).statusCode).toBe(429);
    // Another address logs the person in.
    expect((await send(ip(), email, PASSWORD)).statusCode).toBe(200);
  });

  it('59 concurrent wrong passwords for one account from one address: 5 are verified (the pair limit), the rest 429; the owner elsewhere logs in', async () => {
    const org = await createTestOrganization(t.db);
    const email = uniqueEmail('pair');
    await createTestMember(t.db, org.id, { role: 'viewer', email, password: PASSWORD });
    const address = ip();
    const statuses = (await Promise.all(Array.from({ length: 59 }, () => send(address, email, 'not the password')))).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(54);
    expect((await send(address, email, PASSWORD)).statusCode).toBe(429);
    expect((await send(ip(), email, PASSWORD)).statusCode).toBe(200);
  });
});
