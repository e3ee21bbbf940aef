import { AppError } from '../../lib/errors';
import { isPerson, type Principal } from '../../services/access/principal';
import { middleware } from '../trpc';

/**
 * People's decisions (issue, discard, dispute, cancel; submit, approve, return, reject, pay; member
 * and role changes that grant authority) need a person's session: with an API key they are 403
 * `person_required`, whatever the key's permissions.
 */
export const requirePerson = middleware(async ({ ctx, next }) => {
  const principal = (ctx as { principal?: Principal }).principal;
  if (!principal || !isPerson(principal)) {
    throw new AppError('person_required', { detail: 'This decision must be taken by a person signed in with a session, not with an API key' });
  }
  return next();
});
