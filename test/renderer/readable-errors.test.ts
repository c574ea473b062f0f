import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import type { ErrorDetail } from '../../src/shared/api/errors'
import { IPC_OPERATIONS } from '../../src/shared/ipc/operations'
import { fieldErrorLinesOf, fieldErrorsOf } from '../../src/renderer/src/lib/field-errors'
import { OperatorError } from '../../src/renderer/src/api/operator-error'
import { errorText, isolate, isUnreachable, readableAt, readableMessage } from '../../src/renderer/src/lib/readable-errors'
import { checkOutcomeShapeText } from '../../src/renderer/src/lib/outcome-shape-text'
import { checkPhoneNumber } from '../../src/renderer/src/lib/phone-number'
import { webhookErrorText } from '../../src/renderer/src/lib/webhook-error-text'
import { validationDetails } from '../../src/service/ops/validation-details'

/** What the service would answer for this input of an operation (the same function builds its details). */
function refusal(operation: keyof typeof IPC_OPERATIONS, input: unknown): ErrorDetail[] {
  const schema = IPC_OPERATIONS[operation].input as z.ZodType
  const parsed = schema.safeParse(input)
  if (parsed.success) throw new Error(`${operation} accepted ${JSON.stringify(input)}`)
  return validationDetails(parsed.error.issues, 'input')
}

// Every form's refusals, from the very schemas the service checks with.
const REFUSALS: ErrorDetail[] = [
  ...refusal('agents.update', {
    id: 'a',
    changes: {
      agentName: '',
      lang: 'fr',
      voiceId: 'nobody',
      greetingMessage: 'x'.repeat(5_000),
      params: { '1bad': 'x' },
      pokeMessages: [' '],
      silenceThreshold: 2.5,
      webhookUrl: 'not a url',
      outcomeResponseShape: { type: 'string', items: { type: 'string' }, required: ['ghost'] },
      webhookAuth: { authKey: 'X-Key', authSecret: 'line\nbreak' },
      tools: { transfer: 'yes' },
    },
  }),
  ...refusal('agents.update', {
    id: 'a',
    changes: { silenceThreshold: 0, outcomeResponseShape: { type: 'object', properties: { '': { type: 'nope' } } } },
  }),
  ...refusal('numbers.add', { type: 'TELEPHONY', phoneNumber: '0044 20', label: '', providerAccountSid: '', providerAuthToken: '' }),
  ...refusal('jobs.createTts', { voiceId: '', text: '' }),
  ...refusal('keys.create', { name: '   ' }),
  ...refusal('settings.setCorsOrigins', { corsOrigins: ['https://ok.example', 'ftp://x/y'] }),
  ...refusal('settings.setAiEngine', { engine: 'openai-compatible', baseUrl: 'localhost', model: '', timeoutMs: 10 }),
  ...refusal('settings.setSttEngine', { engine: 'openai-compatible', baseUrl: 'ftp://x', timeoutMs: 10_000_000 }),
  // The service's own sentences, from its use cases.
  { path: 'phoneNumber', message: '+4412 is not a possible number for its country code' },
  { path: 'phoneNumber', message: 'Already registered' },
  {
    path: 'webhookUrl',
    message: '169.254.169.254 is a link-local address; webhooks are not sent there (allow it with --allow-webhook-host)',
  },
  { path: 'text', message: 'Nothing in this text can be spoken' },
]

/** The text as read: without the bidirectional isolates (U+2066, U+2069) that set data apart. */
const read = (text: string) => text.replace(/[\u2066\u2069]/g, '')

/** zod's own words and the marks of schema text: none of it may reach the operator. */
const SCHEMA_TEXT =
  /Too (small|big)|Invalid (input|option|string|URL|key)|expected \w+|received|>=|<=|must match pattern|\/\^|\bRequired\b|Unrecogni/

describe('validation messages for people', () => {
  it('turns every refusal of every form into a sentence, in English with no schema text', () => {
    expect(REFUSALS.length).toBeGreaterThan(20)
    for (const detail of REFUSALS) {
      const lines = Object.values(fieldErrorsOf([detail], 'en')).flat()
      expect(lines, JSON.stringify(detail)).toHaveLength(1)
      expect(lines[0], JSON.stringify(detail)).not.toMatch(SCHEMA_TEXT)
      expect(lines[0], JSON.stringify(detail)).toMatch(/[.)]$/)
    }
  })

  it('and in Arabic with no Latin letters outside quoted data («…»)', () => {
    for (const detail of REFUSALS) {
      const [line] = Object.values(fieldErrorsOf([detail], 'ar')).flat()
      expect(line!.replace(/«[^»]*»|JSON/g, ''), JSON.stringify(detail)).not.toMatch(/[A-Za-z]/)
    }
  })

  it('keeps the numbers of limits and says where inside a field the problem is', () => {
    expect(read(readableMessage('Too big: expected string to have <=120 characters', 'en'))).toBe('Keep it to 120 characters or fewer.')
    expect(read(readableMessage('Too small: expected string to have >=1 characters', 'en'))).toBe('This cannot be empty.')
    expect(read(readableMessage('Too small: expected string to have >=1 characters', 'ar'))).toBe('لا يمكن ترك هذا فارغًا.')
    expect(read(readableMessage('Too small: expected number to be >=1', 'en'))).toBe('Enter 1 or more.')
    expect(read(readableMessage('Invalid option: expected one of "ar"|"en"', 'en'))).toBe('Choose one of: «ar» / «en».')
    // A list's entry counted from 1; a place in the outcome shape quoted as written.
    expect(
      read(
        fieldErrorsOf([{ path: 'changes.pokeMessages.0', message: 'Too small: expected string to have >=1 characters' }], 'en')
          .pokeMessages![0]!,
      ),
    ).toBe('Item 1: This cannot be empty.')
    expect(read(readableAt('properties.when.type', 'Invalid option: expected one of "string"|"number"', 'ar'))).toBe(
      'في «properties.when.type»: اختر واحدًا مما يلي: «string» / «number».',
    )
    expect(read(fieldErrorsOf([{ path: 'changes.params.1x', message: 'Invalid key in record' }], 'en').params![0]!)).toBe(
      'In «1x»: A placeholder name starts with a letter or _ and holds only letters, digits and _.',
    )
    expect(
      fieldErrorLinesOf([{ path: 'input.corsOrigins.1', message: 'Must be *, or an origin such as https://a' }], 'en', {
        corsOrigins: 'Origins',
      }).map(read),
    ).toEqual(['Origins: Item 2: Enter *, or an origin such as https://app.example.com or http://localhost:* (no path).'])
  })

  it('words what the UI checks by itself (outcome shape, phone number) the same way', () => {
    const notJson = checkOutcomeShapeText('{ "type": ')
    const wrongType = checkOutcomeShapeText('{ "type": "text" }')
    const phone = checkPhoneNumber('0044 20')
    for (const check of [notJson, wrongType]) {
      if (check.ok) throw new Error('expected a refusal')
      expect(readableAt(check.path, check.message, 'en')).not.toMatch(SCHEMA_TEXT)
      expect(readableAt(check.path, check.message, 'ar').replace(/«[^»]*»|JSON/g, '')).not.toMatch(/[A-Za-z]/)
    }
    if (phone.state !== 'invalid') throw new Error('expected a refusal')
    expect(read(readableMessage(phone.message, 'ar'))).toBe('أدخل الرقم مع + ورمز البلد، مثل «+44 20 7946 0958».')
  })

  it('shows an unknown message as written in English, and a general sentence in Arabic', () => {
    expect(read(readableMessage('The moon is in the way', 'en'))).toBe('The moon is in the way')
    expect(read(readableMessage('The moon is in the way', 'ar'))).toBe('هذه القيمة غير صالحة.')
  })
})

describe('webhook errors for people', () => {
  // The sender's sentences (src/webhooks/webhook-sender.ts, guarded-connector.ts), as the journal stores them.
  const SENT = [
    'The receiver answered 503',
    'Redirects are not followed (302 to https://elsewhere.example/)',
    'No answer within 10 s',
    'Refused to connect to 169.254.169.254: a link-local address (where cloud metadata services answer); allow it with --allow-webhook-host 169.254.169.254',
    'VoiceDesk stopped during each of the last 3 tries (a crash or a kill) before an answer was journaled; no more tries',
    'Connection refused (ECONNREFUSED)',
    'The connection was reset (ECONNRESET)',
    'Host not found (ENOTFOUND)',
    'The connection closed before an answer (UND_ERR_SOCKET)',
    'No answer in time (UND_ERR_HEADERS_TIMEOUT)',
    // Fault injection's (src/service/runtime.ts).
    'Failed by fault flt_0123456789abcdef; nothing was sent',
    'Failed by fault flt_0123456789abcdef (recorded as a 503 answer); nothing was sent',
  ]

  it('words every error the sender stores, in Arabic with no English of ours', () => {
    for (const error of SENT) {
      expect(webhookErrorText(error, 'ar').replace(/«[^»]*»|VoiceDesk/g, ''), error).not.toMatch(/[A-Za-z]/)
      expect(webhookErrorText(error, 'en'), error).toMatch(/\.$/)
    }
    expect(read(webhookErrorText('Connection refused (ECONNREFUSED)', 'en'))).toBe(
      'The connection was refused: nothing listens at that address.',
    )
    expect(read(webhookErrorText('No answer within 2.5 s', 'ar'))).toBe('لا رد خلال 2.5 ث.')
  })

  it('keeps an unknown error as written, after a sentence in Arabic', () => {
    expect(read(webhookErrorText('self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)', 'en'))).toBe(
      'self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)',
    )
    expect(read(webhookErrorText('self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)', 'ar'))).toBe(
      'فشلت المحاولة: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)',
    )
  })
})

describe('a failed operation in one sentence', () => {
  const unreachable = new OperatorError({ code: 'INTERNAL', message: 'Cannot reach the VoiceDesk service (Failed to fetch)' })
  const conflict = new OperatorError({
    code: 'CONFLICT',
    message: '+14155550123 is already registered in this project',
    details: [{ path: 'phoneNumber', message: 'Already registered' }],
  })
  const gone = new OperatorError({ code: 'NOT_FOUND', message: 'No voice agent with id 42' })

  it('says the service cannot be reached, in either language, without the browser’s words', () => {
    expect(errorText(unreachable, 'en')).toBe('The VoiceDesk service cannot be reached. It keeps being tried.')
    expect(errorText(unreachable, 'ar')).toBe('لا يمكن الوصول إلى خدمة VoiceDesk. تستمر المحاولة.')
    // What the agent editor tells apart to say "not saved, kept here" instead: a refusal is not a dead service.
    expect([isUnreachable(unreachable), isUnreachable(gone), isUnreachable(new Error('Cannot reach the VoiceDesk service'))]).toEqual([
      true,
      false,
      false,
    ])
  })

  it('words a refusal by its first field, and otherwise keeps the service’s English or says what the code means', () => {
    expect(read(errorText(conflict, 'ar'))).toBe('هذا الرقم مسجَّل من قبل.')
    expect(errorText(gone, 'en')).toBe('No voice agent with id 42')
    expect(errorText(gone, 'ar')).toBe('لم يعد هذا موجودًا: ربما حُذف.')
    expect(errorText(new Error('boom'), 'ar')).toBe('حدث خطأ؛ قد يذكر سجل الخدمة المزيد.')
  })
})

describe('data in a sentence', () => {
  it('sets apart data with letters as left to right, and leaves digits alone (Chromium reverses an isolated +4412)', () => {
    expect(isolate('properties.when.type')).toBe('\u2066properties.when.type\u2069')
    expect(isolate('+4412')).toBe('+4412')
    expect(isolate('169.254.169.254')).toBe('169.254.169.254')
  })
})
