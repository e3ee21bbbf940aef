import { getEvent, listEvents } from '../../services/events/read';
import { svc } from '../context';
import { readProcedure } from '../procedures';
import { router } from '../trpc';
import { idInput } from '../../contract/fields';
import { eventListSchema, eventSchema, listEventsInput } from '../../contract/organization/events';

/** GET /v1/events and `organization.events.list`; GET /v1/events/{id} and `organization.events.get`. */
export const eventsRouter = router({
  list: readProcedure('organization.events.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/events',
        summary: 'List events',
        description:
          'What happened in the organization in the last 30 days, newest first: each event names its type, the record (subject) with its revision after the change, ' +
          'and a few fields. Filters: type (comma-separated), subject_id, since. Keyset pagination: pass next_cursor back as cursor with the same filters. ' +
          'Permission: organization.events.read.',
        tags: ['Events'],
        protect: true,
      },
    })
    .input(listEventsInput)
    .output(eventListSchema)
    .query(({ ctx, input }) => listEvents(svc(ctx), input)),
  get: readProcedure('organization.events.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/events/{id}',
        summary: 'Read an event',
        description: 'One event of the last 30 days (older ones are 404). Permission: organization.events.read.',
        tags: ['Events'],
        protect: true,
      },
    })
    .input(idInput)
    .output(eventSchema)
    .query(({ ctx, input }) => getEvent(svc(ctx), input)),
});
