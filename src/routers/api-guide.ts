import { ERROR_CATALOGUE, whatToDo, type ErrorCode } from '../lib/errors';
import { problemType } from '../lib/problem';

/**
 * The prose of the /docs page: the product's name and the sections of the OpenAPI `info.description`
 * that Scalar renders before the operations (each `##` heading is an entry of its sidebar):
 * authentication, errors (every code of the catalogue with its status and what to do, from
 * lib/errors.ts, the source the /problems pages read too) and the MyInvois lifecycle.
 * Only text: no HTTP, no database.
 */

/** The product's name: the page's <title>, its heading (the document's info.title). */
export const PRODUCT_NAME = 'Finance API';

export const AUTHENTICATION_SECTION = `## Authentication

Every operation needs a credential, sent as \`Authorization: Bearer <token>\`. There are two kinds:

- **API keys** (\`fk_<key id>_<secret>\`) for integrations. An administrator makes one for a member with the admin CLI:
  \`npm run admin -- key create --org <org id> --member <member id> --permissions receivables.invoice.read,receivables.invoice.create [--expires-at 2030-01-31T00:00:00Z] --json\`.
  The token is printed once; only a SHA-256 of its secret is stored. A key acts with the permissions it carries that its owner
  still holds (the key's ∩ the member's current ones). \`key list\` shows the keys (never a secret); \`key revoke --org <org id> --id <key id>\`
  revokes one, and its next request is 401 on every process. Deactivating a member revokes all their keys and sessions at once.
  There is no API operation that makes or revokes keys: it is an administrator's act on the server.
- **Sessions** (\`fs_…\`) for people. \`POST /trpc/auth.login\` with \`{"email", "password", "organization_id"?}\` (no credential needed)
  answers \`session_token\` and \`expires_at\`; a session lives \`SESSION_HOURS\` (12) after its last use, at most 30 days from the login.
  \`POST /trpc/auth.logout\` ends it; \`GET /trpc/auth.me\` answers the member, the organization and the effective permissions.
  An administrator can also make one (\`npm run admin -- session create --org <org id> --member <member id> --hours 8\`) and revoke it
  (\`session revoke --org <org id> --id <session id>\`).

People's decisions (issuing, discarding, disputing and cancelling a receivables document; submitting, returning, rejecting, signing
and paying a claim; managing members and roles) need a session: the same call with an API key is 403 \`person_required\`, whatever its
permissions. Data entry (drafts, lines, uploads, receipts, reference data) works with either.

Headers: \`Authorization\` on every call; \`Idempotency-Key\` on every write made with an API key (see Idempotency); \`If-Match\` with the
revision the \`ETag\` gave on every write to an existing record (428 \`revision_required\` without it, 409 \`revision_mismatch\` when stale).
Every answer carries \`X-Request-Id\`; answers to API-key requests carry \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`.
Missing, malformed, unknown, revoked or expired credentials are 401 \`unauthenticated\`; too many failures from one address are 429 \`rate_limited\`
(failed logins are limited per address and per account). A credential without the operation's permission is 403 \`forbidden\`; a record of
another organization is 404, exactly like one that does not exist.`;

/** One row per code of the catalogue, in its order: status, code (linked to its page), title, what to do. */
export function errorsSection(): string {
  const rows = (Object.keys(ERROR_CATALOGUE) as ErrorCode[]).map((code) => {
    const entry = ERROR_CATALOGUE[code];
    return `| ${entry.status} | [\`${code}\`](${problemType(code)}) | ${entry.title} | ${whatToDo(code).replace(/\|/g, '\\|')} |`;
  });
  return `## Errors

Every error on \`/v1\` is \`application/problem+json\` (RFC 9457): \`type\` (\`/problems/<code>\`, a page explaining the code), \`title\`,
\`status\`, \`detail\`, \`code\` (the stable value to branch on), \`instance\` (the request path; for a 500, the request id), \`request_id\`,
and \`errors: [{pointer, detail}]\` where fields are at fault (a JSON Pointer into the body, or \`/query/<name>\`, \`/path/<name>\`,
\`/headers/<name>\`). tRPC callers get the same problem in \`error.data.problem\`. A stale \`If-Match\` is 409 \`revision_mismatch\`
(RFC 9110 would say 412: the contract's choice).

| Status | Code | Title | What to do |
|---|---|---|---|
${rows.join('\n')}`;
}

export const MYINVOIS_SECTION = `## The MyInvois lifecycle

Receivables documents (invoices, credit notes, debit notes) are e-invoiced through LHDN MyInvois when the organization turns
e-invoicing on (\`settings.einvoicing.update\`). The document's \`state\` and \`semantic\`, its \`timeline\`, its \`available_transitions\`
and \`GET /v1/receivables/invoices/{id}/einvoice\` (\`status\`) tell an integrator where it stands:

| Step | Document \`state\` (semantic) | E-invoice \`status\` | What the integrator sees and does |
|---|---|---|---|
| Draft | \`draft\` (draft) | \`not_submitted\` | No number, no \`issued_at\`. \`preflight\` lists every reason LHDN would refuse it (\`{pointer, code, detail}\`); fix them before issuing. |
| Issue (a person) | \`submitted\` (pending) | \`submitted\` | Numbered (\`reference\`), \`issued_at\` set, buyer and seller frozen. With a preflight problem the issue is 422 \`einvoice_not_ready\` instead. Submission runs in the background, never in the request. |
| LHDN valid | \`issued\` (accrual) | \`valid\` | \`uuid\`, \`long_id\`, \`validated_at\` and \`validation_link\` (LHDN's public page of the document, the QR code on the PDF). Receipts and credit notes can be allocated. |
| LHDN invalid | \`draft\` (draft) | \`invalid\` | Back to draft, keeping its number; \`errors\` holds LHDN's reasons. Correct the draft and issue it again (a new submission). |
| Cancel (a person, reason ≤ 300 characters) | \`cancel_requested\` (pending) → \`cancelled\` | \`cancelled\` | Only within **72 hours** of \`validated_at\` and while no valid credit or debit note refers to it; after that the edge is refused (409 \`conflict\`, \`allowed: false\` beforehand): issue a credit note. If LHDN refuses, the document returns to \`issued\` with LHDN's reason. |
| Buyer's rejection request | \`rejection_requested\` (dispute) | \`rejection_requested\` | The buyer may ask LHDN to reject it within the same **72 hours**; the reason is on the timeline. A person cancels it (within the window) or keeps it (\`keep\`, reason required → \`issued\`). |

System steps (LHDN's verdicts, cancellation confirmed or refused, a rejection found) are never in \`available_transitions\` and
cannot be taken through the API. A credit or debit note can be submitted only once its original invoice is validated
(preflight \`original_not_validated\`). With e-invoicing off, \`issue\` goes straight from \`draft\` to \`issued\`.`;

/** The sections, in the order the page shows them, after the product's one-paragraph introduction. */
export function guideSections(): string {
  return [AUTHENTICATION_SECTION, errorsSection(), MYINVOIS_SECTION].join('\n\n');
}
