import type { ApiReferenceConfiguration } from '@scalar/fastify-api-reference';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { PRODUCT_NAME } from './routers/api-guide';

/**
 * The /docs page (Scalar, served by @scalar/fastify-api-reference with its JavaScript bundled in the
 * package and served from /docs/js/scalar.js): a reference and a request client that talks only to this
 * service, nothing else. Scalar turns several features on by default, most of them only when the page is
 * opened from localhost (its "developer" mode), and each sends the OpenAPI document or the visitor to
 * one of its own hosts; a finance product's page has none of them:
 * - `agent`: "Ask AI" uploads the OpenAPI document to Scalar's agent service;
 * - `mcp`: "Generate MCP" registers the document with Scalar's dashboard;
 * - `showDeveloperTools`: the toolbar offering "Share" (uploads the document to Scalar's registry) and "Deploy";
 * - `hideClientButton`: the button that opens the operation in Scalar's hosted client;
 * - `withDefaultFonts`: Inter and JetBrains Mono fetched from Scalar's font host (the page uses system fonts);
 * - `telemetry`, `persistAuth` (no credentials in local storage), `isEditable`: off;
 * - no `proxyUrl`: "Test request" goes straight from the browser to this service, never through Scalar's proxy.
 * tests/http/docs-page-browser.test.ts loads the page in Chromium and checks every request stays on this host.
 */
export const DOCS_PAGE_CONFIGURATION = {
  url: '/v1/openapi.json',
  // The browser tab (<title>); the page's heading is the document's info.title, the same name.
  pageTitle: PRODUCT_NAME,
  title: PRODUCT_NAME,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  hideClientButton: true,
  withDefaultFonts: false,
  telemetry: false,
  persistAuth: false,
  isEditable: false,
} satisfies Partial<ApiReferenceConfiguration>;

/**
 * GET /docs and everything under it: Scalar's page, built on the first request in an inner fastify
 * instance of its own and answered through it. Scalar (its bundled page and client, about 50 MB of the
 * process's memory) is loaded only when someone opens the docs, not by every process that serves the
 * API. What the inner instance does not serve is the service's own 404 problem.
 */
export function registerDocsPage(app: FastifyInstance, notFound: (req: FastifyRequest, reply: FastifyReply) => unknown) {
  let inner: Promise<FastifyInstance> | undefined;
  const load = () =>
    (inner ??= (async () => {
      const { default: scalar } = await import('@scalar/fastify-api-reference');
      const docs = Fastify({ logger: false });
      await docs.register(scalar, { routePrefix: '/docs', configuration: DOCS_PAGE_CONFIGURATION });
      await docs.ready();
      return docs;
    })().catch((error: unknown) => {
      inner = undefined;
      throw error;
    }));
  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    const docs = await load();
    const answer = await docs.inject({ method: 'GET', url: req.url, headers: { accept: req.headers.accept ?? '*/*' } });
    if (answer.statusCode === 404) return notFound(req, reply);
    for (const name of ['content-type', 'cache-control', 'etag', 'last-modified', 'location']) {
      const value = answer.headers[name];
      if (value !== undefined) reply.header(name, value);
    }
    return reply.code(answer.statusCode).send(answer.rawPayload.length > 0 ? answer.rawPayload : undefined);
  };
  app.get('/docs', handler);
  app.get('/docs/*', handler);
}
