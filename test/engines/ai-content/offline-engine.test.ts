import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createOfflineAiContentEngine, detectLanguage, type AiContentResult } from '../../../src/engines/ai-content/ai-content-engine'
import { AI_PART_LIMITS, AI_PARTS } from '../../../src/shared/api/ai-parts'

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')
const ENGLISH = fixture('english-podcast.txt')
const ARABIC = fixture('arabic-report.txt')

const engine = createOfflineAiContentEngine()
const length = (text: string) => [...text].length
const flatten = (text: string) => text.replace(/\s+/g, ' ').trim()
const sentencesOf = (text: string) =>
  flatten(text)
    .split(/(?<=[.!?؟])\s+/)
    .filter(Boolean)

/** Share of Arabic letters among Arabic and Latin letters (independent of the engine's own detector). */
function arabicShare(text: string): number {
  const arabic = text.match(/[\u0621-\u064A]/g)?.length ?? 0
  const latin = text.match(/[A-Za-z]/g)?.length ?? 0
  return arabic / Math.max(1, arabic + latin)
}

/** True when `sentence` quotes the source; the engine may drop a leading filler or conjunction and capitalise, so the first character is not compared. */
function quotesSource(sentence: string, source: string): boolean {
  return flatten(source).includes(sentence.slice(1))
}

/** A labelled line of the call card the summary leads with ("Amounts: sixty dollars."). */
const CARD_LINE = /^(Caller|When|With|Amounts|Reference|Figures|المتصل|الموعد|مع|المبالغ|الرقم المرجعي|أرقام): (.+)\.$/u

const keywordList = (keywords: string) =>
  keywords
    .split(/[,،]\s*|\n/)
    .map((keyword) => keyword.trim())
    .filter(Boolean)

const cases = [
  {
    name: 'an English podcast transcript',
    text: ENGLISH,
    lang: 'en' as const,
    characteristic: ['heat pump', 'insulation'],
    stopWords: ['the', 'and', 'of', 'to', 'is', 'it', 'that', 'you', 'we', 'so', 'really'],
    faqLabel: 'Q',
  },
  {
    name: 'an Arabic radio report',
    text: ARABIC,
    lang: 'ar' as const,
    characteristic: ['الري بالتنقيط', 'المياه'],
    stopWords: ['في', 'من', 'على', 'إلى', 'أن', 'هذه', 'التي', 'الذي'],
    faqLabel: 'س',
  },
]

describe.each(cases)('the offline engine on $name', ({ text, lang, characteristic, stopWords, faqLabel }) => {
  let cached: AiContentResult | undefined
  const all = async () => (cached ??= await engine.generate({ text, parts: [...AI_PARTS] }))

  it('writes every one of the 12 parts, non-empty', async () => {
    const result = await all()
    expect(Object.keys(result).sort()).toEqual([...AI_PARTS].sort())
    for (const part of AI_PARTS) expect(result[part]?.trim().length, part).toBeGreaterThan(0)
  })

  it('writes every part in the language of the source', async () => {
    const result = await all()
    for (const part of AI_PARTS) {
      const share = arabicShare(result[part]!)
      if (lang === 'ar') expect(share, part).toBeGreaterThan(0.9)
      else expect(share, part).toBeLessThan(0.05)
    }
  })

  it('summarises with fewer sentences, each taken from the source, after the call card whose values the source holds', async () => {
    const summary = sentencesOf((await all()).summary!)
    const card = summary.filter((sentence) => CARD_LINE.test(sentence))
    const quoted = summary.filter((sentence) => !CARD_LINE.test(sentence))
    expect(quoted.length).toBeGreaterThan(0)
    expect(quoted.length).toBeLessThan(sentencesOf(text).length)
    expect(summary.slice(0, card.length)).toEqual(card)
    for (const sentence of quoted) expect(quotesSource(sentence, text), sentence).toBe(true)
    for (const line of card) for (const value of CARD_LINE.exec(line)![2]!.split(/[,،] /)) expect(flatten(text), line).toContain(value)
  })

  it('finds keywords that characterise the text and no stop words', async () => {
    const keywords = keywordList((await all()).keywords!)
    expect(keywords.length).toBeGreaterThanOrEqual(8)
    expect(keywords.length).toBeLessThanOrEqual(12)
    for (const term of characteristic)
      expect(
        keywords.some((keyword) => keyword.toLowerCase().includes(term)),
        term,
      ).toBe(true)
    for (const keyword of keywords) expect(stopWords).not.toContain(keyword.toLowerCase())
    expect(new Set(keywords).size).toBe(keywords.length)
  })

  it('keeps every post within its platform limit', async () => {
    const result = await all()
    const tweets = result.twitterThread!.split('\n\n')
    expect(tweets.length).toBeGreaterThanOrEqual(3)
    tweets.forEach((tweet, i) => {
      expect(tweet.startsWith(`${i + 1}/${tweets.length} `), tweet).toBe(true)
      expect(length(tweet)).toBeLessThanOrEqual(AI_PART_LIMITS.tweet)
    })
    expect(tweets.at(-1)).toMatch(/#\S+/u)
    expect(length(result.threadsByInstagram!)).toBeLessThanOrEqual(AI_PART_LIMITS.threadsPost)
    expect(length(result.linkedInPost!)).toBeLessThanOrEqual(AI_PART_LIMITS.linkedInPost)
    expect(length(result.facebookPost!)).toBeLessThanOrEqual(AI_PART_LIMITS.facebookPost)
    expect(length(result.youtubeDescription!)).toBeLessThanOrEqual(AI_PART_LIMITS.youtubeDescription)
    expect(result.facebookPost).toMatch(/[?؟]/)
  })

  it('writes an SEO article with an H1 carrying the top keyword and H2 sections in the source language', async () => {
    const result = await all()
    const article = result.webArticleSEOFriendly!
    const h1 = article.match(/^# (.+)$/gm) ?? []
    const h2 = article.match(/^## (.+)$/gm) ?? []
    expect(h1).toHaveLength(1)
    expect(article.startsWith('# ')).toBe(true)
    expect(h2.length).toBeGreaterThanOrEqual(2)
    const topKeyword = keywordList(result.keywords!)[0]!.toLowerCase()
    expect(h1[0]!.toLowerCase()).toContain(topKeyword)
    for (const heading of [...h1, ...h2]) {
      if (lang === 'ar') expect(arabicShare(heading), heading).toBeGreaterThan(0.9)
    }
  })

  it('gives 3 to 5 distinct titles, topics with 2 to 4 bullets, and 3 to 6 FAQ pairs answered from the text', async () => {
    const result = await all()
    const titles = result.titles!.split('\n')
    expect(titles.length).toBeGreaterThanOrEqual(3)
    expect(titles.length).toBeLessThanOrEqual(5)
    expect(new Set(titles.map((title) => title.replace(/^\d+\.\s*/, '').toLowerCase())).size).toBe(titles.length)

    const topics = result.keyTopicsWithBullets!.split('\n\n')
    expect(topics.length).toBeGreaterThanOrEqual(1)
    for (const topic of topics) {
      const bullets = topic.split('\n').filter((line) => line.startsWith('- '))
      expect(bullets.length, topic).toBeGreaterThanOrEqual(2)
      expect(bullets.length, topic).toBeLessThanOrEqual(4)
      for (const bullet of bullets) expect(quotesSource(bullet.slice(2), text), bullet).toBe(true)
    }

    const pairs = result.faq!.split('\n\n')
    expect(pairs.length).toBeGreaterThanOrEqual(3)
    expect(pairs.length).toBeLessThanOrEqual(6)
    for (const pair of pairs) {
      const [question, answer] = pair.split('\n')
      expect(question).toMatch(new RegExp(`^${faqLabel}: .+[?؟]$`, 'u'))
      expect(answer).toMatch(/^\S+: /u)
      for (const sentence of sentencesOf(answer!.replace(/^\S+: /u, ''))) expect(quotesSource(sentence, text), sentence).toBe(true)
    }
  })

  it('returns only the parts asked for', async () => {
    const result = await engine.generate({ text, parts: ['summary', 'keywords'] })
    expect(Object.keys(result).sort()).toEqual(['keywords', 'summary'])
  })

  it('is deterministic', async () => {
    const again = await engine.generate({ text, parts: [...AI_PARTS] })
    expect(again).toEqual(await all())
  })

  it('detects the language of the text', () => {
    expect(detectLanguage(text)).toBe(lang)
  })
})

describe('the offline engine on unusual input', () => {
  it('detects Arabic with some Latin terms, and English with an Arabic word', () => {
    expect(detectLanguage('نستخدم نظام CRM جديدًا لمتابعة طلبات العملاء عبر API الخاص بالشركة.')).toBe('ar')
    expect(detectLanguage('The word for water in Arabic is ماء, and it is short.')).toBe('en')
    expect(detectLanguage('12345 !!!')).toBe('en')
  })

  it('rejects blank text and text without words with a clear message', async () => {
    await expect(engine.generate({ text: '  \n\t ', parts: ['summary'] })).rejects.toThrow(/empty/)
    await expect(engine.generate({ text: '... !!! ???', parts: ['summary'] })).rejects.toThrow(/no words/)
  })

  it('rejects an empty or unknown part list', async () => {
    await expect(engine.generate({ text: 'Hello there, friends.', parts: [] })).rejects.toThrow(/at least one/)
    await expect(engine.generate({ text: 'Hello there, friends.', parts: ['poem' as never] })).rejects.toThrow(
      /Unknown AI-content part: poem/,
    )
  })

  it.each([
    ['English', 'Heat pumps cut heating bills when the house is well insulated.', 'en'],
    ['Arabic', 'يخفض الري بالتنقيط استهلاك المياه في المزارع الصغيرة.', 'ar'],
    ['a few words', 'Thanks!', 'en'],
  ])('writes all 12 parts from a one-sentence %s text', async (_name, text, lang) => {
    const result = await engine.generate({ text, parts: [...AI_PARTS] })
    for (const part of AI_PARTS) expect(result[part]?.trim().length, part).toBeGreaterThan(0)
    for (const tweet of result.twitterThread!.split('\n\n')) expect(length(tweet)).toBeLessThanOrEqual(AI_PART_LIMITS.tweet)
    expect(length(result.threadsByInstagram!)).toBeLessThanOrEqual(AI_PART_LIMITS.threadsPost)
    expect((result.webArticleSEOFriendly!.match(/^## /gm) ?? []).length).toBeGreaterThanOrEqual(2)
    if (lang === 'ar') expect(arabicShare(result.linkedInPost!)).toBeGreaterThan(0.9)
    expect(flatten(result.summary!)).toBe(flatten(text))
  })

  it('writes all 12 parts from a 10,000-word transcript, within the limits', async () => {
    const turns = ENGLISH.split('\n').filter(Boolean)
    const lines: string[] = []
    for (let round = 0; lines.join(' ').split(/\s+/).length < 10_000; round++) {
      // Rotate the turns so the long text is not one block repeated verbatim.
      for (let i = 0; i < turns.length; i++) lines.push(turns[(i + round * 3) % turns.length]!.replace(/ten years/g, `${round + 10} years`))
    }
    const text = lines.join('\n')
    expect(text.split(/\s+/).length).toBeGreaterThanOrEqual(10_000)
    const started = performance.now()
    const result = await engine.generate({ text, parts: [...AI_PARTS] })
    expect(performance.now() - started).toBeLessThan(5_000)
    for (const part of AI_PARTS) expect(result[part]?.trim().length, part).toBeGreaterThan(0)
    for (const tweet of result.twitterThread!.split('\n\n')) expect(length(tweet)).toBeLessThanOrEqual(AI_PART_LIMITS.tweet)
    expect(length(result.linkedInPost!)).toBeLessThanOrEqual(AI_PART_LIMITS.linkedInPost)
    expect(length(result.youtubeDescription!)).toBeLessThanOrEqual(AI_PART_LIMITS.youtubeDescription)
    expect(keywordList(result.keywords!).some((keyword) => keyword.includes('heat pump'))).toBe(true)
  })

  it('copes with unpunctuated speech-to-text output', async () => {
    const words = flatten(
      ENGLISH.replace(/^\w+:/gm, '')
        .replace(/[.,!?]/g, '')
        .toLowerCase(),
    )
    const result = await engine.generate({ text: `${words} ${words}`, parts: [...AI_PARTS] })
    for (const part of AI_PARTS) expect(result[part]?.trim().length, part).toBeGreaterThan(0)
    for (const tweet of result.twitterThread!.split('\n\n')) expect(length(tweet)).toBeLessThanOrEqual(AI_PART_LIMITS.tweet)
    expect(length(result.threadsByInstagram!)).toBeLessThanOrEqual(AI_PART_LIMITS.threadsPost)
  })

  it('writes in the language it is told, and uses a source title that reads as words', async () => {
    const result = await engine.generate({ text: ENGLISH, parts: ['titles'], lang: 'en', title: 'Home Energy Hour, episode 12' })
    expect(result.titles).toContain('Home Energy Hour, episode 12')
    const fromFile = await engine.generate({ text: ENGLISH, parts: ['titles'], title: 'call-0412.wav' })
    expect(fromFile.titles).not.toContain('call-0412')
  })

  it('stops with an AbortError when the signal aborts', async () => {
    const aborted = AbortSignal.abort()
    await expect(engine.generate({ text: ENGLISH, parts: ['summary'] }, aborted)).rejects.toMatchObject({ name: 'AbortError' })

    const controller = new AbortController()
    const running = engine.generate({ text: ENGLISH, parts: [...AI_PARTS] }, controller.signal)
    controller.abort()
    await expect(running).rejects.toMatchObject({ name: 'AbortError' })
  })
})
