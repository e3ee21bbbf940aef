import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';

/** Webhook test helpers: a receiving server on 127.0.0.1, and the receiver's signature check. */

export interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

/** A receiving server on 127.0.0.1: records every request; `answer` decides each reply. */
export async function receiver(answer: (req: Received, n: number, res: ServerResponse) => void = (_r, _n, res) => void res.writeHead(200).end('ok')) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += String(c)));
    req.on('end', () => {
      const r = { headers: req.headers, body };
      received.push(r);
      answer(r, received.length, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * The Standard Webhooks check a receiver makes, by the specification's own library (the
 * `standardwebhooks` package, a third party to this service): one of the space-separated `v1,`
 * signatures is the HMAC-SHA256 of `id.timestamp.body` under the key after `whsec_`, and the
 * timestamp is within 5 minutes.
 */
export function verifies(secret: string, r: Received): boolean {
  const headers = {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  };
  try {
    new Webhook(secret).verify(r.body, headers);
    return true;
  } catch {
    return false;
  }
}

