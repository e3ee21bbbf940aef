/**
 * Webhook endpoints over /v1/webhook-endpoints and `organization.webhookEndpoints.*`: a person's
 * session only (an API key is 403 person_required), permission organization.webhooks.manage.
 * Meta, schemas and one service call each; the rules live in services/webhooks/endpoints.ts.
 */
import { z } from 'zod';
import { payoutEncryptionKey } from '../../../config';
import { outboundOf } from '../../../services/einvoicing/build-client';
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  redeliver,
  rotateSecret,
  sendTestEvent,
  updateEndpoint,
  type EndpointDeps,
} from '../../../services/webhooks/endpoints';
import { svc, type Context } from '../../context';
import { expectedRevision, setCreated, setEtag } from '../../http';
import { decisionProcedure, sessionReadProcedure } from '../../procedures';
import { router } from '../../trpc';
import { idInput, pageInputShape } from '../../../contract/fields';
import {
  createEndpointInput,
  deliveryListSchema,
  deliverySchema,
  endpointListSchema,
  endpointSchema,
  endpointWithSecretSchema,
  listDeliveriesInput,
  redeliverInput,
  redeliverSchema,
  updateEndpointInput,
} from '../../../contract/organization/events';

const PERMISSION = 'organization.webhooks.manage';
const TAGS = ['Webhook endpoints'];
const read = () => sessionReadProcedure(PERMISSION);
const write = () => decisionProcedure(PERMISSION);
const deps = (ctx: Context): EndpointDeps => ({ key: payoutEncryptionKey(ctx.deps.config), outbound: outboundOf(ctx.deps) });
const SESSION = 'A person’s session only (an API key is 403 person_required). Permission: organization.webhooks.manage.';

export const webhookEndpointsRouter = router({
  create: write()
    .meta({
      openapi: {
        method: 'POST',
        path: '/webhook-endpoints',
        summary: 'Create a webhook endpoint',
        description:
          'Where the organization’s events are sent (types: a list of event types, or ["*"]). The URL is https (http only to a network the operator allows); ' +
          'its host must not be or resolve to a private, loopback, link-local, carrier-grade NAT, multicast or cloud metadata address (422 at /url). ' +
          'Answers 201 with the signing secret (whsec_…) this once. ' + SESSION,
        tags: TAGS,
        protect: true,
      },
      successStatus: 201,
    })
    .input(createEndpointInput)
    .output(endpointWithSecretSchema)
    .mutation(async ({ ctx, input }) => {
      const endpoint = await createEndpoint(svc(ctx), input, deps(ctx));
      setEtag(ctx, endpoint.revision);
      setCreated(ctx, `/v1/webhook-endpoints/${endpoint.id}`);
      return endpoint;
    }),
  list: read()
    .meta({ openapi: { method: 'GET', path: '/webhook-endpoints', summary: 'List webhook endpoints', description: 'Oldest first, a keyset page. ' + SESSION, tags: TAGS, protect: true } })
    .input(z.strictObject(pageInputShape))
    .output(endpointListSchema)
    .query(({ ctx, input }) => listEndpoints(svc(ctx), input)),
  get: read()
    .meta({ openapi: { method: 'GET', path: '/webhook-endpoints/{id}', summary: 'Read a webhook endpoint', description: 'Never its secret. ' + SESSION, tags: TAGS, protect: true } })
    .input(idInput)
    .output(endpointSchema)
    .query(async ({ ctx, input }) => {
      const endpoint = await getEndpoint(svc(ctx), input);
      setEtag(ctx, endpoint.revision);
      return endpoint;
    }),
  update: write()
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/webhook-endpoints/{id}',
        summary: 'Change a webhook endpoint',
        description: 'Its url (checked as on creation), types or enabled (enabling again clears a disabling for failure). If-Match. ' + SESSION,
        tags: TAGS,
        protect: true,
      },
      requiresRevision: true,
    })
    .input(updateEndpointInput)
    .output(endpointSchema)
    .mutation(async ({ ctx, input }) => {
      const endpoint = await updateEndpoint(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) }, deps(ctx));
      setEtag(ctx, endpoint.revision);
      return endpoint;
    }),
  delete: write()
    .meta({
      openapi: { method: 'DELETE', path: '/webhook-endpoints/{id}', summary: 'Delete a webhook endpoint', description: 'With its deliveries. If-Match. ' + SESSION, tags: TAGS, protect: true },
      requiresRevision: true,
    })
    .input(idInput)
    .output(z.object({ id: z.string(), deleted: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await deleteEndpoint(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) });
      return { id: input.id, deleted: true as const };
    }),
  rotateSecret: write()
    .meta({
      openapi: {
        method: 'POST',
        path: '/webhook-endpoints/{id}/rotate-secret',
        summary: 'Rotate a webhook endpoint’s secret',
        description: 'Answers the new secret this once; the previous one keeps signing for 24 hours (both signatures are sent meanwhile). If-Match. ' + SESSION,
        tags: TAGS,
        protect: true,
      },
      requiresRevision: true,
    })
    .input(idInput)
    .output(endpointWithSecretSchema)
    .mutation(async ({ ctx, input }) => {
      const endpoint = await rotateSecret(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) }, deps(ctx));
      setEtag(ctx, endpoint.revision);
      return endpoint;
    }),
  test: write()
    .meta({
      openapi: {
        method: 'POST',
        path: '/webhook-endpoints/{id}/test',
        summary: 'Send a test event',
        description: 'A webhook.test event to this endpoint only, sent by the delivery job like any other; answers the delivery (202). ' + SESSION,
        tags: TAGS,
        protect: true,
      },
      successStatus: 202,
    })
    .input(idInput)
    .output(deliverySchema)
    .mutation(async ({ ctx, input }) => {
      const delivery = await sendTestEvent(svc(ctx), input);
      ctx.out.status = 202;
      return delivery;
    }),
  deliveries: read()
    .meta({
      openapi: {
        method: 'GET',
        path: '/webhook-endpoints/{id}/deliveries',
        summary: 'List an endpoint’s deliveries',
        description: 'Newest first, each with its attempts (time, duration, status, the first 1 KiB of the answer); kept 30 days. ' + SESSION,
        tags: TAGS,
        protect: true,
      },
    })
    .input(listDeliveriesInput)
    .output(deliveryListSchema)
    .query(({ ctx, input }) => listDeliveries(svc(ctx), input)),
  redeliver: write()
    .meta({
      openapi: {
        method: 'POST',
        path: '/webhook-endpoints/{id}/redeliver',
        summary: 'Send failed deliveries again',
        description: 'One failed delivery (delivery_id) or every one that failed since a moment (since): one more attempt each, at once (202). ' + SESSION,
        tags: TAGS,
        protect: true,
      },
      successStatus: 202,
    })
    .input(redeliverInput)
    .output(redeliverSchema)
    .mutation(async ({ ctx, input }) => {
      const answer = await redeliver(svc(ctx), input);
      ctx.out.status = 202;
      return answer;
    }),
});
