/**
 * E-mail to people through a real SMTP server on 127.0.0.1 (smtp-server): the messages of a claim's
 * sign-offs (the superior in their language, then each account approver), a kind switched off,
 * invitations and password resets with their one-time links, and the mail job's once-only delivery
 * and retries (PostgreSQL).
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, memberTokens, sessions } from '../../src/db/schema';
import { smtpTransport } from '../../src/integrations/mail';
import { buildJobRegistry } from '../../src/jobs/standard-jobs';
import { JobRunner } from '../../src/jobs/runner';
import { appRouter } from '../../src/routers/app';
import { createInProcessContext } from '../../src/routers/context';
import { createCallerFactory } from '../../src/routers/trpc';
import { decide, insertAssignment, insertGrant, retireGrants } from '../factories/approvals';
import { fileTestClaim } from '../factories/claim-filing';
import { addClaimLine, createClaimReferenceData, createTestPayoutChannel } from '../factories/claims';
import { createTestMember, createTestOrganization, uniqueEmail } from '../factories/organization';
import { assignPosition, createOrgUnit, createPosition } from '../factories/setup';
import { onPostgres, useTestApp } from '../helpers/app';
import { callerFor, expectRefused, refusal } from '../helpers/settings';
import { registryOf } from '../helpers/jobs';
import { startSmtpServer } from '../helpers/smtp';

const t = useTestApp({ PUBLIC_BASE_URL: 'https://finance.example.test', PASSWORD_RESETS_PER_ACCOUNT: '3' });
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => smtp?.close());

const BASE = 'https://finance.example.test';
const PASSWORD = 'a password long enough';

/** A runner of the standard jobs sending through the test's SMTP server (periodic purges left out). */
function mailRunner() {
  const config = { ...t.deps.config, IDEMPOTENCY_PURGE_INTERVAL_SECONDS: 0, LOGIN_FAILURE_PURGE_INTERVAL_SECONDS: 0, UNBOUND_FILE_PURGE_INTERVAL_SECONDS: 0, ESCALATION_INTERVAL_SECONDS: 0, MYINVOIS_SWEEP_INTERVAL_SECONDS: 0 };
  const registry = registryOf(buildJobRegistry(config, { mail: smtpTransport(smtp.url) }), (kind) => kind.startsWith('mail.'));
  return new JobRunner({ db: t.db, registry, random: () => 0, backoffSeconds: 30, batchSize: 50 });
}

/**
 * Runs due e-mail jobs until none is left (each message's job, and the jobs they enqueue). On
 * PostgreSQL that includes the messages other test files left queued: they go to this test's SMTP
 * server too, to their own addresses, and each is sent once.
 */
async function drain(runner = mailRunner(), at = new Date(Date.now() + 1000)) {
  for (let i = 0; i < 100; i++) if ((await runner.runOnce(at)).claimed === 0) return;
  throw new Error('e-mail jobs still due after 100 batches');
}

let ipCounter = 0;
const freshIp = () => `10.29.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;
const anonymous = (ip = freshIp()) => createCallerFactory(appRouter)(createInProcessContext(t.deps, { ip }));
const linkIn = (text: string, path: string) => new RegExp(`${BASE.replace(/\./g, '\\.')}${path}/([A-Za-z0-9_-]+)`).exec(text)?.[1];

/** An employee whose superior heads their unit, two account approvers and a finance controller (the fallback). */
async function world() {
  const org = await createTestOrganization(t.db);
  const ref = await createClaimReferenceData(t.db, org.id);
  const member = async (name: string, role: 'employee' | 'accountant' = 'employee') => {
    const email = uniqueEmail(name.toLowerCase());
    return { ...(await createTestMember(t.db, org.id, { role, name, email })), email };
  };
  const [employee, head, pm2, controller] = [await member('Aisyah'), await member('Hakim'), await member('Priya'), await member('Wong', 'accountant')];
  const dept = await createOrgUnit(t.db, { organizationId: org.id, code: 'DEPT', name: 'Structures' });
  const headPos = await createPosition(t.db, { organizationId: org.id, orgUnitId: dept.id, title: 'Head', isUnitHead: true });
  const engineer = await createPosition(t.db, { organizationId: org.id, orgUnitId: dept.id, title: 'Engineer' });
  await assignPosition(t.db, { organizationId: org.id, memberId: head.id, positionId: headPos.id, validFrom: '2020-01-01' });
  await assignPosition(t.db, { organizationId: org.id, memberId: employee.id, positionId: engineer.id, validFrom: '2020-01-01' });
  await retireGrants(t.db, org.id);
  const fc = await insertGrant(t.db, org.id, { name: 'Finance controller', kind: 'default', step: 'finance', holderMemberId: controller.id });
  await insertGrant(t.db, org.id, { name: 'Line manager', kind: 'superior', step: 'review' });
  await insertGrant(t.db, org.id, { name: 'Project approvers', kind: 'account_approver', step: 'finance', fallbackGrantId: fc.id });
  await insertAssignment(t.db, org.id, { analyticAccountId: ref.zeta.id, memberId: controller.id });
  await insertAssignment(t.db, org.id, { analyticAccountId: ref.alpha.id, memberId: pm2.id });
  const channel = await createTestPayoutChannel(t.db, org.id, employee.id);
  const claim = await fileTestClaim(t, employee, { title: 'Site visits', payout_channel_id: channel.id });
  const now = new Date();
  await addClaimLine(t.db, { organizationId: org.id, claimId: claim.id, now, type: 'receipt', expenseDate: '2026-01-10', categoryId: ref.meals.id, description: 'Lunch', amount: '300.00', documentBasis: 'relaxation_receipt', relaxationReason: 'Stall', shares: [{ analyticAccountId: ref.zeta.id, percentage: '100' }] });
  await addClaimLine(t.db, { organizationId: org.id, claimId: claim.id, now, type: 'receipt', expenseDate: '2026-01-11', categoryId: ref.travel.id, description: 'Flight', amount: '200.00', documentBasis: 'relaxation_receipt', relaxationReason: 'Airline', shares: [{ analyticAccountId: ref.alpha.id, percentage: '100' }] });
  return { org, employee, head, pm2, controller, claim };
}

describe('notifications of a claim', () => {
  it('a claim submitted sends the superior a message in their language linking to the claim; after their signature each account approver gets theirs', async () => {
    const w = await world();
    await callerFor(t, w.head.session).me.notifications.update({ language: 'ms' });
    await drain();
    const submitted = await decide(t, w.employee.session, w.claim.id, 'submit');
    // The decision's transaction appended the message's job; nothing was sent while answering it.
    expect(submitted.claim.state).toBe('review');
    expect(smtp.to(w.head.email)).toEqual([]);
    await drain();
    const [toHead, ...more] = smtp.to(w.head.email);
    expect(more).toEqual([]);
    expect(toHead!.subject).toBe(`Tuntutan ${w.claim.reference} menunggu kelulusan anda`);
    expect(toHead!.headers['content-language']).toBe('ms');
    expect(toHead!.text).toContain('Salam Hakim,');
    expect(toHead!.text).toContain(`Buka tuntutan: ${BASE}/inbox?claim=${w.claim.id}`);
    expect(smtp.to(w.pm2.email)).toEqual([]);
    expect(smtp.to(w.employee.email)).toEqual([]);

    await decide(t, w.head.session, w.claim.id, 'approve');
    await drain();
    for (const approver of [w.pm2, w.controller]) {
      const got = smtp.to(approver.email);
      expect(got.map((m) => m.subject)).toEqual([`Claim ${w.claim.reference} waits for your approval`]);
      expect(got[0]!.headers['content-language']).toBe('en');
      expect(got[0]!.text).toContain(`Open the claim: ${BASE}/inbox?claim=${w.claim.id}`);
      expect(got[0]!.text).toContain('Site visits');
    }
    expect(smtp.to(w.head.email)).toHaveLength(1);
  });

  it('a kind switched off in Me is not sent; the other approver still gets theirs; a return tells the claimant', async () => {
    const w = await world();
    const settings = await callerFor(t, w.pm2.session).me.notifications.update({ kinds: [{ kind: 'signoff_requested', enabled: false }] });
    expect(settings.kinds.find((k: { kind: string }) => k.kind === 'signoff_requested')).toEqual({ kind: 'signoff_requested', enabled: false });
    expect(settings.kinds.filter((k: { enabled: boolean }) => !k.enabled).map((k: { kind: string }) => k.kind)).toEqual(['signoff_requested']);
    expect(settings.kinds.filter((k: { enabled: boolean }) => k.enabled).map((k: { kind: string }) => k.kind)).toEqual(['claim_returned', 'claim_rejected', 'claim_paid', 'einvoice_invalid', 'einvoice_rejection_requested', 'webhook_disabled']);
    await decide(t, w.employee.session, w.claim.id, 'submit');
    await decide(t, w.head.session, w.claim.id, 'approve');
    await drain();
    expect(smtp.to(w.pm2.email)).toEqual([]);
    expect(smtp.to(w.controller.email)).toHaveLength(1);
    // Read back as stored.
    expect((await callerFor(t, w.pm2.session).me.notifications.get()).kinds[0]).toEqual({ kind: 'signoff_requested', enabled: false });

    await decide(t, w.controller.session, w.claim.id, 'return', 'Attach the flight receipt');
    await drain();
    const [returned] = smtp.to(w.employee.email);
    expect(returned!.subject).toBe(`Your claim ${w.claim.reference} was returned to you`);
    expect(returned!.text).toContain('“Attach the flight receipt”');
    expect(returned!.text).toContain(`${BASE}/claims/${w.claim.id}`);
  });
});

describe('invitations', () => {
  it('an invited member gets a link in their language, sets a password with it, is signed in and can log in; the link opens once', async () => {
    const org = await createTestOrganization(t.db);
    const email = uniqueEmail('invited');
    const invited = await callerFor(t, org.owner.session).organization.members.invite({ name: 'Siti Rahman', email, roles: ['employee'], language: 'ms' });
    expect(invited).toMatchObject({ name: 'Siti Rahman', email, active: true, roles: ['employee'] });
    expect(Date.parse(invited.invitation_expires_at) - Date.now()).toBeGreaterThan(7 * 86_400_000 - 60_000);
    const [token] = await t.db.select().from(memberTokens).where(and(eq(memberTokens.organizationId, org.id), eq(memberTokens.memberId, invited.id)));
    await drain();
    const [mail] = smtp.to(email);
    expect(mail!.subject).toMatch(/^Anda dijemput ke /);
    const secret = linkIn(mail!.text, '/invitation')!;
    // Only the token's hash is kept.
    expect(token!.tokenHash).not.toContain(secret);
    expect(JSON.stringify(await t.db.select({ payload: jobs.payload }).from(jobs).where(eq(jobs.organizationId, org.id)))).not.toContain(secret);

    expect(await anonymous().auth.readLink({ token: secret })).toMatchObject({ purpose: 'invitation', member: { name: 'Siti Rahman', email } });
    expectRefused(await refusal(anonymous().auth.acceptInvitation({ token: secret, password: 'short' })), 422, 'validation', '/password');
    const accepted = await anonymous().auth.acceptInvitation({ token: secret, password: PASSWORD });
    expect(accepted).toMatchObject({ member: { id: invited.id, name: 'Siti Rahman' }, organization: { id: org.id }, sessions_ended: 0 });
    expect((await callerFor(t, accepted.session_token!).auth.me()).member.id).toBe(invited.id);
    expect((await anonymous().auth.login({ email, password: PASSWORD })).member.id).toBe(invited.id);

    expectRefused(await refusal(anonymous().auth.acceptInvitation({ token: secret, password: PASSWORD })), 410, 'link_expired');
    expectRefused(await refusal(anonymous().auth.readLink({ token: secret })), 410, 'link_expired');
    expectRefused(await refusal(anonymous().auth.readLink({ token: 'no-such-token' })), 404, 'not_found');
    // An invitation's link is no password reset's.
    expectRefused(await refusal(anonymous().auth.resetPassword({ token: secret, password: PASSWORD })), 404, 'not_found');
  });

  it('an expired invitation says so; an API key cannot invite (a decision); an e-mail in use is 409', async () => {
    const org = await createTestOrganization(t.db);
    const email = uniqueEmail('late');
    await callerFor(t, org.owner.session).organization.members.invite({ name: 'Late Comer', email, roles: ['employee'] });
    await drain();
    const secret = linkIn(smtp.to(email)[0]!.text, '/invitation')!;
    t.setNow(new Date(Date.now() + 7 * 86_400_000 + 60_000));
    try {
      const e = expectRefused(await refusal(anonymous().auth.acceptInvitation({ token: secret, password: PASSWORD })), 410, 'link_expired');
      expect(e.detail).toMatch(/expired/);
    } finally {
      t.setNow(undefined);
    }
    expectRefused(await refusal(callerFor(t, org.owner.apiKey).organization.members.invite({ name: 'X', email: uniqueEmail(), roles: ['employee'] })), 403, 'person_required');
    expectRefused(await refusal(callerFor(t, org.owner.session).organization.members.invite({ name: 'Again', email, roles: ['employee'] })), 409, 'conflict', '/email');
    const employee = await createTestMember(t.db, org.id, { role: 'employee' });
    expectRefused(await refusal(callerFor(t, employee.session).organization.members.invite({ name: 'Y', email: uniqueEmail(), roles: ['employee'] })), 403, 'forbidden');
  });
});

describe('password resets', () => {
  it('an unknown address is answered exactly as a known one and sends nothing; the known one gets a link that resets the password once and ends every session', async () => {
    const org = await createTestOrganization(t.db);
    const email = uniqueEmail('forgetful');
    const member = await createTestMember(t.db, org.id, { role: 'employee', email, password: PASSWORD, name: 'Forgetful' });
    const unknown = uniqueEmail('nobody');
    const ask = (address: string) => t.app.inject({ method: 'POST', url: '/trpc/auth.requestPasswordReset', remoteAddress: freshIp(), payload: { email: address } });
    const [known, none] = [await ask(email), await ask(unknown)];
    const shown = (r: typeof known) => ({ status: r.statusCode, body: r.body, headers: Object.keys(r.headers).filter((h) => !['date', 'x-request-id', 'content-length'].includes(h)).sort() });
    expect(shown(none)).toEqual(shown(known));
    expect(known.statusCode).toBe(200);
    await drain();
    expect(smtp.to(unknown)).toEqual([]);
    const [mail] = smtp.to(email);
    expect(mail!.subject).toBe('Reset your password');
    const secret = linkIn(mail!.text, '/reset-password')!;

    const newPassword = 'another password entirely';
    const reset = await anonymous().auth.resetPassword({ token: secret, password: newPassword });
    expect(reset.sessions_ended).toBe(1);
    expectRefused(await refusal(callerFor(t, member.session).auth.me()), 401, 'unauthenticated');
    expect((await callerFor(t, reset.session_token!).auth.me()).member.id).toBe(member.id);
    expect((await anonymous().auth.login({ email, password: newPassword })).member.id).toBe(member.id);
    expectRefused(await refusal(anonymous().auth.resetPassword({ token: secret, password: PASSWORD })), 410, 'link_expired');
    const open = await t.db.select().from(sessions).where(and(eq(sessions.organizationId, org.id), eq(sessions.memberId, member.id)));
    expect(open.filter((s) => !s.revokedAt)).toHaveLength(2);
  });

  it('is limited per e-mail address, known or not, alike: the fourth request in the window is 429 with Retry-After', async () => {
    const org = await createTestOrganization(t.db);
    const email = uniqueEmail('limited');
    await createTestMember(t.db, org.id, { role: 'employee', email, password: PASSWORD });
    const unknown = uniqueEmail('limitednobody');
    for (const address of [email, unknown]) {
      const ask = () => t.app.inject({ method: 'POST', url: '/trpc/auth.requestPasswordReset', remoteAddress: freshIp(), payload: { email: address } });
      for (let i = 0; i < 3; i++) expect((await ask()).statusCode).toBe(200);
      const refused = await ask();
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.data.problem.code).toBe('rate_limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    await drain();
    expect(smtp.to(email)).toHaveLength(3);
    expect(smtp.to(unknown)).toEqual([]);
    // A blank address is a validation error, not a request.
    expectRefused(await refusal(anonymous().auth.requestPasswordReset({ email: ' ' })), 422, 'validation', '/email');
  });
});

describe.skipIf(!onPostgres)('the mail job (PostgreSQL)', () => {
  it('two processes running the same backlog send each message once', async () => {
    const org = await createTestOrganization(t.db);
    const emails = Array.from({ length: 6 }, (_, i) => uniqueEmail(`batch${i}`));
    for (const email of emails) await callerFor(t, org.owner.session).organization.members.invite({ name: 'Batch', email, roles: ['employee'] });
    const at = new Date(Date.now() + 1000);
    await Promise.all([drain(mailRunner(), at), drain(mailRunner(), at)]);
    for (const email of emails) expect(smtp.to(email)).toHaveLength(1);
    const done = await t.db.select({ state: jobs.state }).from(jobs).where(and(eq(jobs.organizationId, org.id), eq(jobs.kind, 'mail.send')));
    expect(done.map((j) => j.state)).toEqual(Array(6).fill('done'));
  });

  it('a server refusing for now (451) is tried again after the backoff and the message arrives once', async () => {
    const org = await createTestOrganization(t.db);
    const email = uniqueEmail('retry');
    await callerFor(t, org.owner.session).organization.members.invite({ name: 'Retry', email, roles: ['employee'] });
    smtp.failNext(1);
    const runner = mailRunner();
    const first = new Date(Date.now() + 1000);
    await runner.runOnce(first);
    expect(smtp.to(email)).toEqual([]);
    const [job] = await t.db.select().from(jobs).where(and(eq(jobs.organizationId, org.id), eq(jobs.kind, 'mail.send')));
    expect(job).toMatchObject({ state: 'failed', attempts: 1 });
    expect(job!.runAt.getTime() - first.getTime()).toBe(30_000);
    await drain(runner, new Date(first.getTime() + 29_000));
    expect(smtp.to(email)).toEqual([]);
    await drain(runner, new Date(first.getTime() + 31_000));
    expect(smtp.to(email)).toHaveLength(1);
  });
});
