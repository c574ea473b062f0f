import type { ErrorCode } from '../../../shared/api/errors'
import { isOperatorError } from '../api/operator-error'
import { translate, type MessageKey, type MessageVars, type UiLocale } from '../i18n/dictionary'
import { group } from './regex-group'

/**
 * The service's validation messages come from zod (pinned, so its English wording is stable) and
 * from our own schemas. Both are written for developers reading the HTTP API; the operator gets
 * a sentence in the UI's language instead. Each rule recognises one wording and names the
 * dictionary entry that says it for people; the numbers in it are kept.
 */
const RULES: ReadonlyArray<readonly [RegExp, (match: RegExpExecArray) => [MessageKey, MessageVars?]]> = [
  // zod: sizes of strings, lists and numbers.
  [/^Too small: expected string to have >=?1 characters?$/, () => ['errors.required']],
  [/^Too small: expected string to have (>=|>|exactly )(\d+) characters$/, (m) => ['errors.tooShort', { n: atLeast(m) }]],
  [/^Too big: expected string to have (<=|<|exactly )(\d+) characters$/, (m) => ['errors.tooLong', { n: atMost(m) }]],
  [/^Too small: expected array to have (>=|>|exactly )(\d+) items$/, (m) => ['errors.tooFew', { n: atLeast(m) }]],
  [/^Too big: expected array to have (<=|<|exactly )(\d+) items$/, (m) => ['errors.tooMany', { n: atMost(m) }]],
  [/^Too big: expected (?:record|map|object) to have (<=|<|exactly )(\d+) \w+$/, (m) => ['errors.tooMany', { n: atMost(m) }]],
  [
    /^Too small: expected (?:number|int|bigint) to be (>=|>)(-?[\d.]+)$/,
    (m) => (m[1] === '>' ? ['errors.moreThan', { n: group(m, 2) }] : ['errors.atLeast', { n: group(m, 2) }]),
  ],
  [
    /^Too big: expected (?:number|int|bigint) to be (<=|<)(-?[\d.]+)$/,
    (m) => (m[1] === '<' ? ['errors.lessThan', { n: group(m, 2) }] : ['errors.atMost', { n: group(m, 2) }]),
  ],
  // zod: types and choices.
  [/^Invalid input: expected \w+, received undefined$/, () => ['errors.required']],
  [/^Invalid input: expected int, received number$/, () => ['errors.wholeNumber']],
  [/^Invalid input: expected number, received \w+$/, () => ['errors.number']],
  [/^Invalid input: expected boolean, received \w+$/, () => ['errors.yesOrNo']],
  [/^Invalid option: expected one of (.+)$/, (m) => ['errors.oneOf', { options: optionsOf(group(m, 1)) }]],
  [/^Invalid input: expected (".*"|-?[\d.]+|true|false|null)$/, (m) => ['errors.mustBe', { value: optionsOf(group(m, 1)) }]],
  [/^Invalid URL$|^Must be an http or https URL$/, () => ['errors.url']],
  [/^Invalid (?:ISO datetime|ISO date)$/, () => ['errors.dateTime']],
  [/^Invalid email address$/, () => ['errors.email']],
  [/^Invalid string: must match pattern /, () => ['errors.pattern']],
  [/^Invalid number: must be a multiple of/, () => ['errors.invalid']],
  [/^Unrecogni[sz]ed keys?: |^Unknown field "/, () => ['errors.unknownField']],
  [/^Invalid key in record$/, () => ['errors.placeholderName']],
  [/^Invalid (input|key in \w+|value in \w+|discriminator value.*|input: more than one option matched)$/, () => ['errors.invalid']],
  // The service's own wordings (src/shared/api/*, src/service/ops/*).
  [/^Required$|^Must not be empty or only spaces$/, () => ['errors.required']],
  [/^Placeholder names start with a letter|^Must be a placeholder name/, () => ['errors.placeholderName']],
  [/^At most (\d+) params$/, (m) => ['errors.tooManyParams', { n: group(m, 1) }]],
  [/^Preamble is larger than (\d+) kB$/, (m) => ['errors.preambleTooLarge', { n: group(m, 1) }]],
  [/^Must be one of the \d+ voice ids/, () => ['errors.voice']],
  [/^properties and required are only allowed when type is object$/, () => ['errors.shapeObjectOnly']],
  [/^items is only allowed when type is array$/, () => ['errors.shapeArrayOnly']],
  [/^required names "(.*)", which is not in properties$/, (m) => ['errors.shapeRequiredUnknown', { name: group(m, 1) }]],
  [/^Shape is nested deeper than (\d+) levels$/, (m) => ['errors.shapeTooDeep', { n: group(m, 1) }]],
  [/^Shape is larger than (\d+) KiB$/, (m) => ['errors.shapeTooLarge', { n: group(m, 1) }]],
  [/^Each tool name may appear once$/, () => ['errors.toolTwice']],
  [/^Each part may be asked for once$/, () => ['errors.partTwice']],
  [/^Must be 1 to 64 letters, digits, _ or -$/, () => ['errors.toolName']],
  [/^Must be \*, or an origin such as/, () => ['errors.corsOrigin']],
  [/^Must be an E\.164 number/, () => ['errors.e164']],
  [/^Must be a date and time in ISO 8601/, () => ['errors.dateTime']],
  [/^Must not contain the NUL character/, () => ['errors.nul']],
  [/^Is sent in an HTTP header/, () => ['errors.headerValue']],
  [/^Already registered$/, () => ['errors.alreadyRegistered']],
  [/^(\S+) is not a possible number for its country code$/, (m) => ['errors.impossibleNumber', { number: group(m, 1) }]],
  [/^(\S+) is .+; webhooks are not sent there/, (m) => ['errors.webhookHostRefused', { host: group(m, 1) }]],
  [/^Nothing in this text can be spoken$/, () => ['errors.nothingToSpeak']],
  [/^(?:job \S+ is|the text is) already in \w+: ask for the other language/, () => ['errors.alreadyInLanguage']],
  [/^Not a COMPLETED job$/, () => ['errors.notCompleted']],
  [/^Nested deeper than (\d+) levels$/, (m) => ['errors.shapeTooDeep', { n: group(m, 1) }]],
  // JSON.parse, in Chromium's and Node's words.
  [/JSON|Unexpected (token|end|non-whitespace)|Expected .* after/, () => ['errors.notJson']],
]

/** Every string value isolated (choices are isolated one by one already). */
function isolated(vars: MessageVars): MessageVars {
  return Object.fromEntries(
    Object.entries(vars).map(([name, value]) => [name, typeof value === 'string' && !value.includes('\u2066') ? isolate(value) : value]),
  )
}

/** `exactly 5` and `>=5` both read "5"; `>5` reads "6" (sizes are whole numbers). */
function atLeast(match: RegExpExecArray): number {
  return Number(match[2]) + (match[1] === '>' ? 1 : 0)
}
function atMost(match: RegExpExecArray): number {
  return Number(match[2]) - (match[1] === '<' ? 1 : 0)
}

/**
 * Data inside a sentence (a path, a host, a choice, a number) set apart as left-to-right for the
 * bidirectional algorithm (LRI … PDI), so `«a» / «b»` and `+44 20 7946 0958` keep their order
 * inside an Arabic sentence. All such data is Latin script (names, URLs, digits).
 */
export function isolate(text: string): string {
  // Digits alone (+4412, an IP address) already read right in Chromium, and come out reversed
  // when isolated (+4412 shown as 4412+): only data with letters is set apart.
  return /[A-Za-z]/.test(text) ? `\u2066${text}\u2069` : text
}

/** zod lists choices as `"a"|"b"`; people read «a», «b» (quoted as data in either language). */
function optionsOf(list: string): string {
  return list
    .split('|')
    .map((option) => `«${isolate(option.replace(/^"(.*)"$/, '$1'))}»`)
    .join(' / ')
}

/**
 * A sentence for people, in the UI's language, for one validation message of the service (or of
 * the same schemas run in the UI). A message no rule knows is shown as written in English (the
 * service's own sentences are meant for people) and as a general sentence in other languages.
 */
export function readableMessage(message: string, locale: UiLocale): string {
  for (const [pattern, entry] of RULES) {
    const match = pattern.exec(message)
    if (match) {
      const [key, vars] = entry(match)
      return translate(locale, key, vars && isolated(vars))
    }
  }
  return locale === 'en' ? message : translate(locale, 'errors.invalid')
}

/**
 * A message with where it applies inside its field (a param's name, a node of the outcome shape),
 * the place quoted as data: `In «properties.name.type»: …`; a list's entry by its number: `Item 2: …`.
 */
export function readableAt(path: string, message: string, locale: UiLocale): string {
  const readable = readableMessage(message, locale)
  if (!path) return readable
  // A place in a list (the 1st poke message) is counted from 1, as people count.
  if (/^\d+$/.test(path)) return translate(locale, 'errors.item', { n: Number(path) + 1, message: readable })
  return translate(locale, 'errors.at', { path: isolate(path), message: readable })
}

/** What a refusal of each code means, for languages the service does not speak. */
const CODE_KEYS: Partial<Record<ErrorCode, MessageKey>> = {
  VALIDATION_ERROR: 'errors.code.VALIDATION_ERROR',
  UNAUTHORIZED: 'errors.code.UNAUTHORIZED',
  FORBIDDEN: 'errors.code.FORBIDDEN',
  NOT_FOUND: 'errors.code.NOT_FOUND',
  CONFLICT: 'errors.code.CONFLICT',
  PAYLOAD_TOO_LARGE: 'errors.code.PAYLOAD_TOO_LARGE',
  UNAVAILABLE: 'errors.code.UNAVAILABLE',
  INSUFFICIENT_STORAGE: 'errors.code.INSUFFICIENT_STORAGE',
}

/** Whether an operation failed because the service did not answer (down, or its stream broke), not because it refused. */
export function isUnreachable(error: unknown): boolean {
  return isOperatorError(error) && /^Cannot reach the VoiceDesk service|^The stream to the VoiceDesk service broke/.test(error.message)
}

/**
 * One sentence for a failed operation, for a toast or beside a form: a refusal's first field
 * message made readable, "cannot reach the service" when the link is down, and otherwise the
 * service's own sentence in English or what its code means in another language.
 */
export function errorText(error: unknown, locale: UiLocale): string {
  if (isOperatorError(error)) {
    const [first] = error.details
    if (first) return readableMessage(first.message, locale)
    if (isUnreachable(error)) return translate(locale, 'errors.unreachable')
    if (locale === 'en') return error.message
    const key = CODE_KEYS[error.code]
    return key ? translate(locale, key) : translate(locale, 'errors.unexpected')
  }
  const message = error instanceof Error ? error.message : String(error)
  return locale === 'en' ? message : translate(locale, 'errors.unexpected')
}
