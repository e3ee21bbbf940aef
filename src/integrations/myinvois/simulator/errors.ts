/**
 * LHDN's two error shapes. HTTP refusals answer `{error: {code, message, target, details}}` (as seen
 * from the live API); validation results use the documented `{propertyName, propertyPath, errorCode,
 * error, errorMS, innerError}`.
 */
import type { FastifyReply } from 'fastify';
import type { ValidationError } from './types';

export interface HttpErrorDetail {
  code: string;
  message: string;
  target: string | null;
}

export interface HttpError {
  code: string;
  message: string | null;
  target: string | null;
  details: HttpErrorDetail[] | null;
}

export function httpError(code: string, message: string | null, target: string | null = null, details: HttpErrorDetail[] | null = null): HttpError {
  return { code, message, target, details };
}

export function sendError(reply: FastifyReply, status: number, error: HttpError): FastifyReply {
  return reply.code(status).send({ error });
}

export function vError(errorCode: string, error: string, propertyPath: string | null = null, innerError: ValidationError[] | null = null): ValidationError {
  const propertyName = propertyPath ? (propertyPath.split('.').pop() ?? null) : null;
  return { propertyName, propertyPath, errorCode, error, errorMS: `MS-${error}`, innerError };
}
