import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { ok } from '../../../../shared/api/common'
import { sourceMediaName } from '../../../ops/media-names'
import type { OpsContext } from '../../../ops/ops-context'
import { ServiceError } from '../../../ops/service-error'
import { createTranscriptionJobFromUrl, titleOfUpload } from '../../../ops/transcription-jobs'
import type { OperatorLinks } from '../../../ops/operator-links'
import { readMediaUpload } from '../../media-upload'
import { LinkParamsSchema } from './state'

export interface TranscriptionLinkRouteOptions {
  context: OpsContext
  links: OperatorLinks
}

/** The link carries every field (jobs.transcriptionUploadLink): the form brings the file alone. */
const NoTextParts = z.object({}).strict()

/**
 * The operator UI's transcription upload (jobs.transcriptionUploadLink), outside the key check:
 * POST /_voicedesk/links/transcribe/{token} with multipart/form-data, the media in a `file` part.
 * The upload is read and stored as POST /v1/jobs/transcribe's is (readMediaUpload, the same
 * limits and refusals), and the job is made by the same use case, as the link's caller.
 */
export function registerTranscriptionLinkRoute(app: FastifyInstance, options: TranscriptionLinkRouteOptions): void {
  const { context, links } = options
  // A page of another origin (the desktop window's file://) asks first once it listens to the upload's progress.
  app.options('/transcribe/:token', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .status(204)
      .header('access-control-allow-methods', 'POST')
      .header('access-control-allow-headers', 'content-type')
      .header('access-control-max-age', '600')
      .send(),
  )
  app
    .withTypeProvider<ZodTypeProvider>()
    .post(
      '/transcribe/:token',
      { config: { mediaUpload: true }, schema: { hide: true, params: LinkParamsSchema } },
      async (request, reply) => {
        // Taken before the body is read: a refused upload (413, not a form) used the link too.
        const link = links.take(request.params.token, 'transcribe')
        if (!link)
          throw new ServiceError(
            'NOT_FOUND',
            'This link is unknown, used already or expired (links work once, for 5 minutes): ask for a new one',
          )
        const upload = await readMediaUpload(request, reply, {
          fields: NoTextParts,
          media: context.media,
          name: (fileName) => sourceMediaName(fileName),
          maxBytes: context.mediaIntake.maxUploadBytes,
          pace: context.mediaIntake,
        })
        const body = {
          ...link.fields,
          title: link.fields.title ?? titleOfUpload(upload.file.filename),
          mediaUrl: `${context.baseUrl()}/media/${upload.file.name}`,
        }
        return ok(await createTranscriptionJobFromUrl(context, link.caller, body, upload.file.name))
      },
    )
}
