import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import type { Config } from '../config';
import { projectPath } from '../lib/project-root';

/**
 * The people's console: the built web app (`npm run build` writes it to dist/web, WEB_DIST_DIR
 * names another folder) served by the same process at `/`, the API beside it unchanged.
 * - `/` and any other GET that asks for HTML (`Accept: text/html`) and is not a path of the API
 *   (/v1, /trpc, /docs, /openapi…, /healthz, /readyz, /metrics, /problems, /assets) answers the app's
 *   index.html, so a deep link (`/claims/…`) opens the console at that screen;
 * - `/assets/*` are Vite's content-hashed files, cached for a year as immutable;
 * - other files at the folder's top (favicon, manifest) are served as they are, revalidated;
 * - index.html is never cached without revalidation and carries a strict Content-Security-Policy
 *   (the app's own scripts, styles, images and API only; no framing), nosniff and Referrer-Policy.
 * Anything else stays the API's 404 problem. Without a built console (tests, `npm run dev`) nothing is
 * registered and `/` answers as before.
 */

export const CONSOLE_CSP = [
  "default-src 'self'",
  "img-src 'self' blob: data:",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Paths that belong to the API and its pages: never the console's HTML. */
const API_PATHS = /^\/(v1|trpc|docs|openapi|healthz|readyz|health|metrics|problems|assets)(\/|\.|$)/i;

/** The folder of the built console: WEB_DIST_DIR, or dist/web under the project folder. */
export function consoleDir(config: Pick<Config, 'WEB_DIST_DIR'>): string {
  return resolve(config.WEB_DIST_DIR ?? projectPath('dist', 'web'));
}

function securityHeaders(reply: FastifyReply) {
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('Referrer-Policy', 'same-origin');
}

/** Whether `path` (relative) names a file inside `root`, never outside it. */
function isFileIn(root: string, path: string): boolean {
  const full = resolve(root, path);
  if (!full.startsWith(root + sep)) return false;
  try {
    return statSync(full).isFile();
  } catch {
    return false;
  }
}

function asksForHtml(req: FastifyRequest): boolean {
  const accept = req.headers.accept;
  return typeof accept === 'string' && /(^|,)\s*text\/html/i.test(accept);
}

/**
 * Registers the console when its folder holds an index.html; answers whether it did. `notFound` is
 * the API's own 404/405 answer, for what the console does not serve.
 */
export async function registerConsole(
  app: FastifyInstance,
  config: Pick<Config, 'WEB_DIST_DIR'>,
  notFound: (req: FastifyRequest, reply: FastifyReply) => unknown,
  served: { fallback?: (req: FastifyRequest, reply: FastifyReply) => boolean },
): Promise<boolean> {
  const root = consoleDir(config);
  if (!existsSync(join(root, 'index.html'))) return false;
  // The files at the folder's top, read once (the build does not change under a running process).
  const topFiles = new Set(readdirSync(root).filter((name) => name !== 'index.html' && statSync(join(root, name)).isFile()));

  await app.register(fastifyStatic, { root, serve: false, index: false, dotfiles: 'deny', etag: true, lastModified: true });

  const sendIndex = (reply: FastifyReply) => {
    securityHeaders(reply);
    reply.header('Content-Security-Policy', CONSOLE_CSP).header('Cache-Control', 'no-cache');
    return reply.sendFile('index.html', { cacheControl: false });
  };

  app.get('/', (req, reply) => (asksForHtml(req) ? sendIndex(reply) : notFound(req, reply)));

  app.get('/assets/*', (req, reply) => {
    const path = join('assets', (req.params as { '*': string })['*']);
    if (!isFileIn(root, path)) return notFound(req, reply);
    securityHeaders(reply);
    reply.header('Cache-Control', IMMUTABLE);
    return reply.sendFile(path, { cacheControl: false });
  });

  // The top files by name; every other path a browser asks for as HTML is a deep link, answered by
  // the not-found fallback (no `/*` route: the router's refusals and the API's 404s stay as they are).
  for (const name of topFiles) {
    app.get(`/${name}`, (_req, reply) => {
      securityHeaders(reply);
      reply.header('Cache-Control', 'no-cache');
      return reply.sendFile(name, { cacheControl: false });
    });
  }
  served.fallback = (req, reply) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const path = req.url.split('?')[0] ?? '/';
    if (API_PATHS.test(path) || !asksForHtml(req)) return false;
    void sendIndex(reply);
    return true;
  };
  return true;
}
