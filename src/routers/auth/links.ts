import type { MemberTokenPurpose } from '../../db/schema';
import { loginSettings } from '../../services/access/login';
import { readLink, requestPasswordReset, useLink } from '../../services/access/member-links';
import { publicProcedure } from '../trpc';
import type { Context } from '../context';
import { csrfRefused, sessionCookieHeader, sessionCookieMaxAge } from '../session-cookie';
import { readLinkInput, readLinkOutput, requestPasswordResetInput, requestPasswordResetOutput, useLinkInput, useLinkOutput } from '../../contract/auth';

/**
 * auth.requestPasswordReset (no authentication): the same answer for every address, known or not;
 * 429 with Retry-After past the limits per source address and per e-mail address. The link goes by
 * e-mail (valid 1 hour).
 */
export const requestPasswordResetProcedure = publicProcedure
  .input(requestPasswordResetInput)
  .output(requestPasswordResetOutput)
  .mutation(({ ctx, input }) => {
    ctx.out.headers['Cache-Control'] = 'no-store';
    return requestPasswordReset({ db: ctx.deps.db, now: ctx.deps.now(), ip: ctx.ip, rateLimits: ctx.deps.rateLimits }, input);
  });

/** auth.readLink (no authentication): whose invitation or reset link this is; 404 unknown, 410 `link_expired`. */
export const readLinkProcedure = publicProcedure
  .input(readLinkInput)
  .output(readLinkOutput)
  .query(({ ctx, input }) => {
    ctx.out.headers['Cache-Control'] = 'no-store';
    return readLink({ db: ctx.deps.db, now: ctx.deps.now() }, input.token);
  });

/** A link used: the password set, every session ended, a new session (the cookie's when asked, as auth.login's). */
function useLinkProcedure(purpose: MemberTokenPurpose) {
  return publicProcedure
    .input(useLinkInput)
    .output(useLinkOutput)
    .mutation(async ({ ctx, input }: { ctx: Context; input: { token: string; password: string; cookie?: boolean } }) => {
      ctx.out.headers['Cache-Control'] = 'no-store';
      if (input.cookie && ctx.cookie?.csrfRefusal) throw csrfRefused(ctx.cookie.csrfRefusal);
      const settings = loginSettings(ctx.deps.config);
      const answer = await useLink({ db: ctx.deps.db, now: ctx.deps.now(), settings }, purpose, input);
      if (!input.cookie) return answer;
      const { session_token: token, ...rest } = answer;
      ctx.out.headers['Set-Cookie'] = sessionCookieHeader(token!, sessionCookieMaxAge(settings.sessionSeconds), ctx.cookie?.secureCookie ?? true);
      return rest;
    });
}

/** auth.acceptInvitation: the invited person's password, from the invitation's link (7 days, once). */
export const acceptInvitationProcedure = useLinkProcedure('invitation');
/** auth.resetPassword: a new password from a reset link (1 hour, once); every session of the member ends. */
export const resetPasswordProcedure = useLinkProcedure('password_reset');
