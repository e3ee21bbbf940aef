import { queryOptions } from '@tanstack/react-query';
import { trpc } from './trpc';

/**
 * Who is signed in, signing in and out, and the To do counts. Signing in asks for the session as an
 * HttpOnly cookie (`cookie: true`): the token never reaches the page.
 */

export type SignInInput = Omit<Parameters<typeof trpc.auth.login.mutate>[0], 'cookie'>;
export type SignInAnswer = Awaited<ReturnType<typeof trpc.auth.login.mutate>>;
/** Each count, or null where the person lacks the permission to act on it. */
export type TodoCounts = Awaited<ReturnType<typeof trpc.me.todo.query>>;

export function signIn(input: SignInInput): Promise<SignInAnswer> {
  return trpc.auth.login.mutate({ ...input, cookie: true });
}

export async function signOut(): Promise<void> {
  await trpc.auth.logout.mutate();
}

export const meQuery = queryOptions({
  queryKey: ['auth.me'],
  queryFn: () => trpc.auth.me.query(),
  staleTime: 5 * 60_000,
});

export type Me = Awaited<ReturnType<typeof trpc.auth.me.query>>;

export const todoQuery = queryOptions({
  queryKey: ['me.todo'],
  queryFn: () => trpc.me.todo.query(),
  staleTime: 30_000,
});
