import { ServiceError } from '../ops/service-error'

/**
 * A refusal by the HTTP layer itself, before any use case ran (the body parser): its details
 * already name where in the request the problem is (`body`, `body.x.y`), so the error handler
 * sends them as they are rather than placing them in the request as it does a use case's.
 */
export class RequestError extends ServiceError {}
