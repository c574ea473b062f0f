import { translate, type MessageKey, type UiLocale } from '../i18n/dictionary'
import { formatCount } from './format'
import { isolate } from './readable-errors'
import { group } from './regex-group'

/** The network failures the webhook sender names (src/webhooks/webhook-sender.ts), by their code. */
const NETWORK_KEYS: Record<string, MessageKey> = {
  ECONNREFUSED: 'webhookError.ECONNREFUSED',
  ECONNRESET: 'webhookError.ECONNRESET',
  ENOTFOUND: 'webhookError.ENOTFOUND',
  EAI_AGAIN: 'webhookError.EAI_AGAIN',
  EHOSTUNREACH: 'webhookError.EHOSTUNREACH',
  ENETUNREACH: 'webhookError.ENETUNREACH',
  UND_ERR_SOCKET: 'webhookError.UND_ERR_SOCKET',
  UND_ERR_CONNECT_TIMEOUT: 'webhookError.UND_ERR_CONNECT_TIMEOUT',
  UND_ERR_HEADERS_TIMEOUT: 'webhookError.UND_ERR_HEADERS_TIMEOUT',
  UND_ERR_BODY_TIMEOUT: 'webhookError.UND_ERR_BODY_TIMEOUT',
}

/**
 * Why a webhook attempt failed, in the UI's language. The journal stores the sender's English
 * sentence (the API returns it as is); its few forms are recognised here. One not recognised is
 * shown as written, after a general sentence in languages other than English.
 */
export function webhookErrorText(error: string, locale: UiLocale): string {
  const say = (key: MessageKey, vars?: Record<string, string | number>) => translate(locale, key, vars)
  let match = /^The receiver answered (\d+)$/.exec(error)
  if (match) return say('webhookError.answered', { status: group(match, 1) })
  match = /^Redirects are not followed \((\d+)/.exec(error)
  if (match) return say('webhookError.redirect', { status: group(match, 1) })
  match = /^No answer within ([\d.]+) s$/.exec(error)
  if (match) return say('webhookError.timeout', { seconds: formatCount(Number(match[1]), locale) })
  match = /^Refused to connect to (\S+)/.exec(error)
  if (match) return say('webhookError.refusedAddress', { host: isolate(group(match, 1)) })
  // Fault injection (runtime.ts words it): the rule's id is data.
  match = /^Failed by fault (flt_[0-9a-z]+)(?: \(recorded as a (\d+) answer\))?/.exec(error)
  if (match)
    return match[2]
      ? say('webhookError.faultStatus', { id: isolate(group(match, 1)), status: match[2] })
      : say('webhookError.fault', { id: isolate(group(match, 1)) })
  match = /^VoiceDesk stopped during each of the last (\d+) tries/.exec(error)
  if (match) return say('webhookError.crashed', { n: group(match, 1) })
  match = /\((\w+)\)$/.exec(error)
  const known = match ? NETWORK_KEYS[group(match, 1)] : undefined
  if (known) return say(known)
  return locale === 'en' ? error : `${say('webhookError.other')} ${error}`
}
