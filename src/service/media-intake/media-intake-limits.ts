/** How much media the service takes in, and how long it waits for it (RuntimeConfig.mediaIntake; docs/api.md, "Media intake"). */
export interface MediaIntakeLimits {
  /** The largest upload (the `file` part of a multipart request), in bytes. */
  maxUploadBytes: number
  /** The largest media fetched from a URL, in bytes. */
  maxFetchBytes: number
  /** A remote server silent this long (connecting, answering, or mid-body) ends the fetch. */
  fetchTimeoutMs: number
  /** Redirects followed from a media URL before it is refused. */
  maxRedirects: number
}

export const DEFAULT_MEDIA_INTAKE_LIMITS: MediaIntakeLimits = {
  // Two hours of video at a common bitrate.
  maxUploadBytes: 2 * 1024 ** 3,
  maxFetchBytes: 2 * 1024 ** 3,
  fetchTimeoutMs: 30_000,
  maxRedirects: 5,
}
