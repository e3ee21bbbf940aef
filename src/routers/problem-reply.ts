/**
 * One way to answer an error over HTTP: the problem object (docs/design.md §6) with the request id,
 * as application/problem+json. Used by the /v1 facade and by the edges every other path shares
 * (fastify's router errors, 404, 405, 414, /problems pages).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CATALOGUE, type ErrorCode } from '../lib/errors';
import { problemForCode, SERVER_FAULT_DETAIL, type Problem } from '../lib/problem';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

export function codeForStatus(status: number): ErrorCode {
  const found = (Object.entries(ERROR_CATALOGUE) as [ErrorCode, { status: number }][]).find(([, e]) => e.status === status);
  return found?.[0] ?? 'internal';
}

export function problemBody(req: FastifyRequest, status: number, problem: Problem | undefined): Problem {
  // A refusal the adapter answered on its own (an unknown path) still gets a detail.
  const base = problem ?? problemForCode(codeForStatus(status), status === 404 ? 'No such resource' : ERROR_CATALOGUE[codeForStatus(status)].title);
  if (status >= 500) {
    // Nothing internal in a fault's answer: the generic detail and the request id the log is filed under.
    const { errors: _errors, ...rest } = base;
    return { ...rest, status: base.status ?? status, detail: SERVER_FAULT_DETAIL, instance: `urn:request:${req.id}`, request_id: String(req.id) };
  }
  return { ...base, status: base.status ?? status, instance: req.originalPath ?? req.url.split('?')[0], request_id: String(req.id) };
}

export function sendProblem(req: FastifyRequest, reply: FastifyReply, problem: Problem) {
  return reply
    .code(problem.status)
    .header('content-type', PROBLEM_CONTENT_TYPE)
    .header('x-request-id', String(req.id))
    .send(problemBody(req, problem.status, problem));
}
