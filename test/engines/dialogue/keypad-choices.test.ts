import { describe, expect, it } from 'vitest'
import type { DialogueAgent, DialogueSession } from '../../../src/engines/dialogue/dialogue-engine'
import { createOfflineDialogueEngine } from '../../../src/engines/dialogue/offline-dialogue-engine'
import { collect, said } from './template-agents'

/* On a phone call (keypad), an enum's options are offered by number and a key chooses one; other keys are not options. */

const engine = createOfflineDialogueEngine({ now: () => new Date(2026, 10, 11, 10, 0) })

function deskAgent(lang: 'en' | 'ar', keypad: boolean): DialogueAgent {
  return {
    agentName: 'Desk',
    lang,
    greeting: lang === 'en' ? 'Hello, this is the front desk.' : 'مرحبًا، معك مكتب الاستقبال.',
    preamble: '',
    outcome: '',
    outcomeShape: {
      type: 'object',
      properties: {
        department:
          lang === 'en'
            ? { type: 'string', enum: ['sales', 'support', 'billing'], description: 'The department the caller wants' }
            : { type: 'string', enum: ['مبيعات', 'دعم', 'فواتير'], description: 'القسم' },
        accountNumber: { type: 'string', description: 'The account number' },
      },
      required: ['department', 'accountNumber'],
    },
    smartCallEnd: false,
    keypad,
  }
}

const keys = (session: DialogueSession, pressed: string) => collect(session.respond(pressed, { keys: true }))
const OFFER = 'You can also press 1 for sales, 2 for support or 3 for billing.'

describe('keys that choose an option on a phone call', () => {
  it('numbers the options, refuses keys out of range and the star key, takes a key in range, and digits still fill an account number', async () => {
    const session = engine.startSession(deskAgent('en', true), [])
    const opening = said(await collect(session.open()))
    expect(opening).toContain('sales, support or billing?')
    expect(opening).toMatch(new RegExp(`${OFFER.replace(/[.?]/g, '\\$&')}$`))

    const seven = said(await keys(session, '7'))
    expect(seven).toMatch(/^Sorry, 7 is not one of the options: they go from 1 to 3\. /)
    expect(seven).toContain(OFFER)
    const star = said(await keys(session, '*'))
    expect(star).toMatch(/^Sorry, the star key is not one of the options/)
    expect(said(await keys(session, '0'))).toMatch(/^Sorry, 0 is not one of the options/)
    expect(said(await keys(session, '12'))).toMatch(/^Sorry, 12 is not one of the options/)

    const chosen = said(await keys(session, '2'))
    expect(chosen).toMatch(/account number/)
    expect(chosen).not.toContain('press')
    // The question now is the account number's: its digits are a value, not an option.
    const read = said(await keys(session, '4217'))
    expect(read).toMatch(/Is that right\?$/)
    expect(session.outcomeSoFar?.().result).toMatchObject({ department: 'support', accountNumber: '4217' })
  })

  it('still takes the option said aloud, and a web call (no keypad) neither numbers options nor reads a digit as one', async () => {
    const phone = engine.startSession(deskAgent('en', true), [])
    await collect(phone.open())
    await collect(phone.respond('billing please'))
    expect(phone.outcomeSoFar?.().result).toMatchObject({ department: 'billing' })

    const web = engine.startSession(deskAgent('en', false), [])
    expect(said(await collect(web.open()))).not.toContain('press')
    await collect(web.respond('2', { keys: true }))
    expect(web.outcomeSoFar?.().result).not.toMatchObject({ department: 'support' })
  })

  it('offers and takes keys in Arabic', async () => {
    const session = engine.startSession(deskAgent('ar', true), [])
    const opening = said(await collect(session.open()))
    expect(opening).toMatch(/ويمكنك أن تضغط على رقم الخيار: 1 مبيعات، 2 دعم، 3 فواتير\.$/)
    expect(said(await keys(session, '9'))).toMatch(/^عذرًا، 9 ليس من الخيارات؛ الخيارات من 1 إلى 3\./)
    await keys(session, '3')
    expect(session.outcomeSoFar?.().result).toMatchObject({ department: 'فواتير' })
  })
})
