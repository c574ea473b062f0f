import type { MessageKey } from '../i18n/dictionary'
import type { Translate } from '../i18n/use-t'

/** The service describes its voices in English; these are the operator's words for them. */
const ACCENT_KEYS: Record<string, MessageKey> = {
  American: 'voice.accent.american',
  British: 'voice.accent.british',
  Scottish: 'voice.accent.scottish',
  Caribbean: 'voice.accent.caribbean',
  'Modern Standard Arabic': 'voice.accent.msa',
}

const DESCRIPTION_KEYS: Record<string, MessageKey> = {
  'Warm and clear; a friendly front-desk voice.': 'voice.about.warm',
  'Steady and confident; suits sales and support.': 'voice.about.steady',
  'Calm and precise; suits bookings and reminders.': 'voice.about.calm',
  'Measured and formal; suits surveys and notices.': 'voice.about.measured',
  'Bright and lively; suits outreach.': 'voice.about.bright',
  'Relaxed and deep; suits concierge and hospitality.': 'voice.about.relaxed',
  'Quick and upbeat; suits short confirmations.': 'voice.about.quick',
  'Deep and reassuring; suits collections and healthcare.': 'voice.about.deep',
}

/** A voice's accent in the UI's language (as the service wrote it when it is a new one). */
export const voiceAccent = (accent: string, t: Translate) => textOrOwn(ACCENT_KEYS, accent, t)

export const voiceDescription = (description: string, t: Translate) => textOrOwn(DESCRIPTION_KEYS, description, t)

/** The dictionary's words for a text the table knows (its own keys only: not `constructor`), else the text itself. */
function textOrOwn(keys: Record<string, MessageKey>, text: string, t: Translate): string {
  const key = Object.hasOwn(keys, text) ? keys[text] : undefined
  return key === undefined ? text : t(key)
}

/** The short tag of an agent's language (EN / AR; in Arabic: إنج / عرب). */
export const langTag = (lang: 'ar' | 'en', t: Translate) => t(lang === 'ar' ? 'lang.tag.ar' : 'lang.tag.en')
