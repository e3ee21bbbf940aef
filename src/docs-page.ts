import type { ApiReferenceConfiguration } from '@scalar/fastify-api-reference';

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
  title: 'Receivables and Expense Claims API',
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  hideClientButton: true,
  withDefaultFonts: false,
  telemetry: false,
  persistAuth: false,
  isEditable: false,
} satisfies Partial<ApiReferenceConfiguration>;
