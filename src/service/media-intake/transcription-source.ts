import { JobError } from '../../jobs/job-error'
import type { MediaStore } from '../../store/ports'
import type { JobRecord } from '../../store/records'
import type { WebhookAddressPolicy } from '../../webhooks/webhook-address-policy'
import { fetchRemoteMedia } from './fetch-remote-media'
import { MediaFetchError } from './media-fetch-error'
import type { MediaIntakeLimits } from './media-intake-limits'

export interface TranscriptionSourceOptions {
  media: MediaStore
  limits: () => MediaIntakeLimits
  addressPolicy: WebhookAddressPolicy
  baseUrl: () => string
}

/**
 * Puts a transcription job's media in the store when it is still at its URL: fetched once
 * (a retry, or a second try after a crash, finds it there). A fetch that fails is the job's
 * failure, worth another try when it may pass (the network, the server's 5xx).
 */
export function transcriptionSource(options: TranscriptionSourceOptions) {
  return async (job: JobRecord, signal: AbortSignal): Promise<void> => {
    if (!job.mediaFile) throw new JobError('INVALID_JOB', 'The transcription job has no media name')
    if ((await options.media.size(job.mediaFile)) !== undefined) return
    if (!job.sourceUrl)
      throw new JobError(
        'INVALID_JOB',
        `The transcription job's media ${job.mediaFile} is not in the media store, and it has no URL to fetch it from`,
      )
    const limits = options.limits()
    try {
      await fetchRemoteMedia(
        job.sourceUrl,
        { media: options.media, name: job.mediaFile },
        {
          maxBytes: limits.maxFetchBytes,
          timeoutMs: limits.fetchTimeoutMs,
          deadlineMs: limits.fetchDeadlineMs,
          minRate: { bytesPerSecond: limits.minFetchBytesPerSecond, windowMs: limits.fetchRateWindowMs },
          maxRedirects: limits.maxRedirects,
          signal,
          addressPolicy: options.addressPolicy,
          own: { baseUrl: options.baseUrl(), media: options.media },
        },
      )
    } catch (error) {
      if (error instanceof MediaFetchError) throw new JobError(error.code, error.message, error.transient)
      throw error
    }
  }
}
