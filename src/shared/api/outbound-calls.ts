import { z } from 'zod'
import { HttpUrlSchema, UuidSchema } from './common'
import { CallParamsSchema } from './conversations'
import { JobWebhookAuthSchema } from './jobs'

/** Who an outbound call rings: a registered SIP user's number (E.164, the + optional) or a `sip:` URI on the allow-list. */
export const CALL_TARGET = /^(\+?\d{2,15}|sips?:\S{1,250})$/i

/** `POST /v1/voice-agents/call`: the agent calls a softphone registered on the SIP line (docs/api.md, "The SIP line"). */
export const StartCallBodySchema = z
  .object({
    toNumber: z.string().trim().regex(CALL_TARGET, 'Must be a number (E.164, the + optional) or a sip: URI').meta({
      description:
        'The SIP user to ring (its registered softphone): a number such as +15551234567 (the + optional), or a `sip:` URI on the `--sip-allow-outbound` list.',
    }),
    fromNumber: z
      .string()
      .trim()
      .regex(/^\+?[A-Za-z0-9._-]{1,64}$/, 'Must be a number or a name of letters, digits, dots, dashes or underscores')
      .optional()
      .meta({ description: "The caller the softphone shows; the agent's first assigned number by default." }),
    voiceAgentId: UuidSchema,
    params: CallParamsSchema,
    agentDetails: z
      .object({})
      .strict()
      .optional()
      .meta({ description: 'Only `{}` is taken: VoiceDesk calls with a stored agent (voiceAgentId), not an inline one.' }),
    webhookUrl: HttpUrlSchema.optional().meta({ description: "Where this call's events go, instead of the agent's webhookUrl." }),
    webhookAuth: JobWebhookAuthSchema.optional(),
  })
  .strict()
  .meta({ id: 'StartCallBody' })
export type StartCallBody = z.infer<typeof StartCallBodySchema>
