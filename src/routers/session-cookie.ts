/**
 * The console's sign-in by cookie, at the HTTP edge: the `fs_session` cookie `auth.login({ cookie:
 * true })` sets, read back as a second source of the session token, and the rule that keeps other
 * sites from using it (cross-site request forgery).
 *
 * The cookie is `HttpOnly; SameSite=Strict; Path=/`, and `Secure` unless the request came over plain
 * HTTP to a loopback host (localhost, 127.0.0.0/8, ::1: a browser does not keep a Secure cookie a
 * plain-HTTP page sets, and a loopback connection does not cross a network). Its Max-Age is the
 * session's longest possible life: the session itself slides and ends on the server, which answers
 * 401 (and clears the cookie) once it has ended.
 *
 * The rule for a request authenticated by the cookie (no Authorization header; a bearer always wins):
 * - an `Origin` header, when sent, names this server's own origin (the request's scheme and Host, or
 *   PUBLIC_BASE_URL's origin), and `Sec-Fetch-Site`, when sent, is `same-origin` or `none`;
 * - a method other than GET and HEAD also carries `X-Requested-With: console` (a header another
 *   site's page cannot send without a CORS preflight this server never grants).
 * Otherwise 403 `csrf_refused`, before the credential is looked at. GET and HEAD need no header, so
 * an `<img>` or `<a>` of the console can open a document's content or an invoice's PDF.
 */
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { AppError } from '../lib/errors';
import { bearerToken, credentialKind } from '../services/access/authenticate';
import { SESSION_MAX_LIFETIME_MS } from '../services/access/authenticate';

export const SESSION_COOKIE = 'fs_session';
export const CONSOLE_HEADER = 'x-requested-with';
export const CONSOLE_HEADER_VALUE = 'console';

/** What the edge read of a request's cookie and origin, carried to authentication and auth.login/logout. */
export interface CookieRequest {
  /** The `fs_session` cookie's value, when the request carries one. */
  sessionCookie?: string;
  /** Why this request may not act through the cookie (the detail of a 403 `csrf_refused`); undefined when it may. */
  csrfRefusal?: string;
  /** Whether a cookie set on this answer is `Secure`. */
  secureCookie: boolean;
}

/** The credential a request authenticates with: its Authorization header, or else its session cookie. */
export interface RequestCredential {
  authorization?: string;
  viaCookie: boolean;
}

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** A cookie's value from a Cookie header (the first of that name), undefined when absent. */
export function cookieValue(cookieHeader: string | undefined, name: string): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
    return value || undefined;
  }
  return undefined;
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1)$/i;

/** The hostname of a Host value (without its port). */
function hostname(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  return host.replace(/:\d+$/, '');
}

/** A cookie is Secure unless the request came over plain HTTP to a loopback host. */
export function cookieIsSecure(req: FastifyRequest): boolean {
  return !(req.protocol === 'http' && LOOPBACK.test(hostname(req.host ?? '')));
}

/** The origins that are this server's own: the request's scheme and Host, and PUBLIC_BASE_URL's origin. */
export function ownOrigins(req: FastifyRequest, config: Pick<Config, 'PUBLIC_BASE_URL'>): string[] {
  const origins: string[] = [];
  const own = req.host ? originOf(`${req.protocol}://${req.host}`) : undefined;
  if (own) origins.push(own);
  const configured = config.PUBLIC_BASE_URL ? originOf(config.PUBLIC_BASE_URL) : undefined;
  if (configured) origins.push(configured);
  return origins;
}

/** An origin in URL's own form (lower case, no default port), undefined when it is not one. */
function originOf(value: string): string | undefined {
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** Why a cookie-authenticated request is refused, or undefined when it passes the rule above. */
export function csrfRefusal(req: FastifyRequest, config: Pick<Config, 'PUBLIC_BASE_URL'>): string | undefined {
  const origin = header(req, 'origin');
  if (origin !== undefined && !ownOrigins(req, config).includes(originOf(origin.trim()) ?? '')) {
    return `The request comes from another origin (${origin.slice(0, 100)}); the session cookie works only from this server's own pages`;
  }
  const site = header(req, 'sec-fetch-site');
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return `The request comes from another site (Sec-Fetch-Site: ${site.slice(0, 40)}); the session cookie works only from this server's own pages`;
  }
  // HEAD is run as GET by some routes before this is read: the method as the client sent it decides either way.
  if (!SAFE_METHODS.has(req.method) && header(req, CONSOLE_HEADER) !== CONSOLE_HEADER_VALUE) {
    return `A ${req.method} authenticated by the session cookie must carry the header X-Requested-With: console`;
  }
  return undefined;
}

/** What the edge reads of a request for cookie sign-in. */
export function cookieRequest(req: FastifyRequest, config: Pick<Config, 'PUBLIC_BASE_URL'>): CookieRequest {
  return {
    sessionCookie: cookieValue(header(req, 'cookie'), SESSION_COOKIE),
    csrfRefusal: csrfRefusal(req, config),
    secureCookie: cookieIsSecure(req),
  };
}

function attributes(secure: boolean): string {
  return `HttpOnly; SameSite=Strict; Path=/${secure ? '; Secure' : ''}`;
}

/** The cookie's Max-Age: the longest a session can live (it slides on use up to that limit; the server ends it sooner when idle). */
export function sessionCookieMaxAge(idleSeconds: number): number {
  return Math.max(Math.floor(SESSION_MAX_LIFETIME_MS / 1000), idleSeconds);
}

/** The Set-Cookie value that keeps a session's token in the browser. */
export function sessionCookieHeader(token: string, maxAgeSeconds: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${token}; Max-Age=${maxAgeSeconds}; ${attributes(secure)}`;
}

/** The Set-Cookie value that removes the session cookie. */
export function clearedSessionCookieHeader(secure: boolean): string {
  return `${SESSION_COOKIE}=; Max-Age=0; ${attributes(secure)}`;
}

/** 403 `csrf_refused` for a cookie request that breaks the rule. */
export function csrfRefused(detail: string): AppError {
  return new AppError('csrf_refused', { detail });
}

/**
 * The credential of a request: its Authorization header when it has one (the cookie is then
 * ignored), else its session cookie, refused with 403 `csrf_refused` when the request breaks the
 * rule above, and 401 (clearing the cookie) when the cookie does not hold a session token.
 */
export function requestCredential(info: { authorization?: string; cookie?: CookieRequest }): RequestCredential {
  if (info.authorization || !info.cookie?.sessionCookie) return { authorization: info.authorization, viaCookie: false };
  const { sessionCookie, csrfRefusal: refusal } = info.cookie;
  if (refusal) throw csrfRefused(refusal);
  if (credentialKind(sessionCookie) !== 'session' || bearerToken(`Bearer ${sessionCookie}`) !== sessionCookie) {
    throw withClearedCookie(new AppError('unauthenticated', { detail: 'The session cookie is not a session; sign in again' }), info.cookie);
  }
  return { authorization: `Bearer ${sessionCookie}`, viaCookie: true };
}

/**
 * A 401 of a cookie request also removes the cookie (the browser stops sending a session that has
 * ended, and the console sends the person to sign in); any other error is left as it is.
 */
export function withClearedCookie(e: unknown, cookie: CookieRequest | undefined): unknown {
  if (!(e instanceof AppError) || e.appCode !== 'unauthenticated' || !cookie) return e;
  return new AppError(e.appCode, {
    detail: e.detail,
    errors: e.fieldErrors,
    cause: e.cause,
    retryAfterSeconds: e.retryAfterSeconds,
    rateLimit: e.rateLimit,
    extensions: e.extensions,
    headers: { ...(e.headers ?? {}), 'Set-Cookie': clearedSessionCookieHeader(cookie.secureCookie) },
  });
}
