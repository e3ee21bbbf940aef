import { apiKeySchema, createApiKeyInput, createdApiKeySchema, listApiKeysInput } from '../../../contract/organization/api-keys';
import { idInput, pageOutput } from '../../../contract/fields';
import { createMemberApiKey, listApiKeysOf, revokeApiKeyOf } from '../../../services/access/credentials';
import { svc } from '../../context';
import { decisionProcedure, personReadProcedure } from '../../procedures';
import { router } from '../../trpc';

/**
 * organization.apiKeys.create|list|revoke: integration keys of members, handed out by an owner
 * (organization.members.manage). Session only (an API key is 403 person_required): a key never
 * makes, sees or revokes keys. The one way to make a key is services/access/credentials.ts, as the
 * admin CLI's `key create`.
 */
export const apiKeysRouter = router({
  create: decisionProcedure('organization.members.manage')
    .meta({ successStatus: 201 })
    .input(createApiKeyInput)
    .output(createdApiKeySchema)
    .mutation(async ({ ctx, input }) => {
      const { expires_at, ...rest } = input;
      const key = await createMemberApiKey(svc(ctx), { ...rest, ...(expires_at ? { expires_at: new Date(expires_at) } : {}) });
      ctx.out.status = 201;
      return key;
    }),
  list: personReadProcedure('organization.members.manage')
    .input(listApiKeysInput.optional())
    .output(pageOutput(apiKeySchema))
    .query(({ ctx, input }) => listApiKeysOf(svc(ctx), input ?? {})),
  revoke: decisionProcedure('organization.members.manage')
    .input(idInput)
    .output(apiKeySchema)
    .mutation(({ ctx, input }) => revokeApiKeyOf(svc(ctx), input)),
});
