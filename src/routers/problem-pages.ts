/**
 * GET /problems/<code>: the page every problem's `type` points at, one per code of the catalogue
 * (lib/errors.ts): its title, status, what it means and what to do about it (the same sentence the
 * errors section of /docs shows). A code that is not the catalogue's own is a 404 problem.
 */
import type { FastifyInstance } from 'fastify';
import { ERROR_CATALOGUE, whatToDo, type ErrorCode } from '../lib/errors';
import { problemForCode } from '../lib/problem';
import { PRODUCT_NAME } from './api-guide';
import { sendProblem } from './problem-reply';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page of one code of the catalogue. */
export function problemPage(code: ErrorCode): string {
  const entry = ERROR_CATALOGUE[code];
  const c = escapeHtml(code);
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(entry.title)} (${c}) · ${escapeHtml(PRODUCT_NAME)}</title></head><body>` +
    `<h1>${escapeHtml(entry.title)}</h1>` +
    `<p>Status ${entry.status}. Code <code>${c}</code>.</p>` +
    `<h2>What to do</h2><p class="what-to-do">${escapeHtml(whatToDo(code))}</p>` +
    `<p>Every error answer is a problem object (<code>application/problem+json</code>) whose <code>type</code> is this page; ` +
    `its <code>detail</code> and <code>errors[]</code> say what was at fault. All codes: <a href="/docs">the API reference</a>, section Errors.</p>` +
    `</body></html>`
  );
}

export function registerProblemPages(app: FastifyInstance) {
  app.get('/problems/:code', async (req, reply) => {
    const code = (req.params as { code: string }).code;
    // Own codes only: `__proto__`, `constructor` and the like are no problem types.
    if (!Object.hasOwn(ERROR_CATALOGUE, code)) return sendProblem(req, reply, problemForCode('not_found', `There is no problem type ${JSON.stringify(code)}`));
    return reply.type('text/html; charset=utf-8').send(problemPage(code as ErrorCode));
  });
}
