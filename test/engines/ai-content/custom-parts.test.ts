import { describe, expect, it } from 'vitest'
import { createOfflineAiContentEngine } from '../../../src/engines/ai-content/ai-content-engine'
import { nearestPart, writeCustomPartsOffline } from '../../../src/engines/ai-content/custom-parts'

const TEXT =
  'The clinic opens a new wing on Monday. Dr. Rowe will lead the cardiology team there. Patients can book visits online from next week. ' +
  'Parking is free for the first two hours. The old entrance on Hill Street closes in March.'
const ARABIC =
  'تفتح العيادة جناحا جديدا يوم الاثنين. سيقود الدكتور سعد فريق القلب هناك. يمكن للمرضى حجز المواعيد عبر الإنترنت من الأسبوع القادم.'

const engine = createOfflineAiContentEngine()
const write = async (prompt: string, aiPart = 'Part', text = TEXT, language?: 'ar' | 'en') =>
  (await writeCustomPartsOffline(engine, { text, parts: [{ aiPart, prompt, ...(language ? { language } : {}) }] }))[0]!

describe('nearestPart', () => {
  it('reads the name first, then the instruction, in English and Arabic, and falls back to the summary', () => {
    expect(nearestPart('Tweet', 'anything')).toBe('twitterThread')
    expect(nearestPart('Promo', 'A LinkedIn post for recruiters')).toBe('linkedInPost')
    expect(nearestPart('Blog', 'questions and answers')).toBe('webArticleSEOFriendly')
    expect(nearestPart('عناوين', '')).toBe('titles')
    expect(nearestPart('x', 'اكتب ملخص قصير')).toBe('summary')
    expect(nearestPart('Haiku', 'A poem about the wing')).toBe('summary')
  })
})

describe('writeCustomPartsOffline', () => {
  it('follows sentence, word and character lengths, and says so', async () => {
    const one = await write('Summarise it in one sentence')
    expect(one.content).not.toMatch(/[.!?]\s+\S/)
    expect(one.honoured).toContain('at most 1 sentence')
    const words = await write('A recap of at most 8 words')
    expect(words.content.split(/\s+/).length).toBeLessThanOrEqual(8)
    expect(words.honoured).toContain('at most 8 words')
    const characters = await write('Keep it under 60 characters')
    expect([...characters.content].length).toBeLessThanOrEqual(60)
  })

  it('makes numbered lists and capitals, keeps "Dr. Rowe" in one item, and lists what it could not do', async () => {
    const listed = await write('Key points as a numbered list of 3 items, in capital letters, friendly tone')
    const lines = listed.content.split('\n')
    expect(lines.length).toBeGreaterThan(0)
    expect(lines.length).toBeLessThanOrEqual(3)
    lines.forEach((line, index) => expect(line.startsWith(`${index + 1}. `)).toBe(true))
    expect(listed.content).toBe(listed.content.toUpperCase())
    expect(listed.basedOn).toBe('keyTopicsWithBullets')
    expect(lines.some((line) => line.endsWith('DR.'))).toBe(false)
    expect(listed.notHonoured.join(' ')).toMatch(/follows only lengths, lists, capitals and hashtags/)
  })

  it('writes Arabic sources in Arabic, and says it did not translate when another language was asked', async () => {
    const arabic = await write('ملخص في جملة واحدة', 'ملخص', ARABIC)
    expect(arabic).toMatchObject({ language: 'ar', basedOn: 'summary' })
    expect(arabic.content).toMatch(/[\u0600-\u06FF]/)
    expect(arabic.honoured).toContain('at most 1 sentence')
    const english = await write('Summary', 'Summary', ARABIC, 'en')
    expect(english.language).toBe('ar')
    expect(english.notHonoured[0]).toMatch(/language en: the offline engine does not translate/)
  })
})
