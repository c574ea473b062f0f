import { z } from 'zod'

/** Where browser pages may call /v1 from when nothing else is said: this machine's dev servers, any port. */
export const DEFAULT_CORS_ORIGINS: readonly string[] = ['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*']

/** `*`, or an origin (scheme, host, optional port) whose port may be `*` for any port. No path. */
const ORIGIN_PATTERN = /^https?:\/\/(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(:(\d{1,5}|\*))?$/

export const CorsOriginSchema = z
  .string()
  .trim()
  .max(200)
  .refine((value) => value === '*' || ORIGIN_PATTERN.test(value), {
    message: 'Must be *, or an origin such as https://app.example.com or http://localhost:* (scheme, host, optional port; no path)',
  })

/** The allow-list: at most 50 entries. */
export const CorsOriginsSchema = z.array(CorsOriginSchema).max(50)
