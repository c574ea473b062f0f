import { describe, expect, it } from 'vitest'
import { createOfflineAiContentEngine } from '../../../src/engines/ai-content/ai-content-engine'
import { readCallCard } from '../../../src/engines/ai-content/call-card'
import { isArabicStopWord, isGreetingWord } from '../../../src/engines/ai-content/stop-words'
import { normaliseArabic } from '../../../src/engines/ai-content/arabic-normalisation'
import { splitText, tokenise } from '../../../src/engines/ai-content/text-analysis'

// Our own calls, written for these tests (not from bench/corpus).
const ENGLISH_CALL = [
  'Agent: Harbour Vets, this is Nina.',
  'Caller: Hello Nina, it is Oliver Grant. My dog Biscuit has a swollen paw since Sunday.',
  'Agent: I can offer Friday at eleven in the morning with Dr. Rowe.',
  "Caller: Friday doesn't work, I'm travelling. Could we make it Saturday?",
  'Agent: Saturday at quarter past nine is free.',
  'Caller: Saturday at quarter past nine, lovely.',
  'Agent: You are booked with Dr. Rowe on Saturday at 9:15. The consultation is forty-five pounds. Your pet file is PV-3307.',
].join('\n')

const GULF_CALL = [
  'الموظف: مغسلة الندى، هلا والله، معك سعود.',
  'المتصل: هلا يا سعود، معك فهد الشمري، أبي أحجز غسيل للسيارة.',
  'الموظف: عندي يوم الاثنين الساعة خمسة العصر.',
  'المتصل: لا، الاثنين ما يناسبني. الخميس الساعة عشرة الصبح؟',
  'الموظف: تم الحجز يوم الخميس الساعة عشرة الصبح، والغسيل بثمانين ريال.',
].join('\n')

const cardOf = (text: string) => {
  const { sentences, hasSpeakerLabels } = splitText(text)
  return { sentences, card: readCallCard(sentences, hasSpeakerLabels) }
}

describe('the call card', () => {
  it('tells agent from caller by labels in both languages, and by order when labels are names', () => {
    expect(cardOf(ENGLISH_CALL).card.roles.slice(0, 2)).toEqual(['agent', 'caller'])
    expect(cardOf(GULF_CALL).card.roles[0]).toBe('agent')
    const named = cardOf('Maya: Good day, Pine Dental.\nTom: I need a cleaning next week.\nMaya: Tuesday works.\nTom: Great.').card
    expect(named.roles).toEqual(['agent', 'caller', 'agent', 'caller'])
  })

  it('reads the caller, people with titles, identifiers and amounts', () => {
    const { card } = cardOf(ENGLISH_CALL)
    expect(card.callerName).toBe('Oliver Grant')
    expect(card.people).toContain('Dr. Rowe')
    expect(card.facts.filter((fact) => fact.kind === 'identifier').map((fact) => fact.text)).toEqual(['PV-3307'])
    expect(card.facts.filter((fact) => fact.kind === 'amount').map((fact) => fact.text)).toEqual(['forty-five pounds'])
    const gulf = cardOf(GULF_CALL).card
    expect(gulf.callerName).toBe('فهد الشمري')
    expect(gulf.facts.filter((fact) => fact.kind === 'amount').map((fact) => fact.text)).toEqual(['بثمانين ريال'])
  })

  it('lets a later date and time replace a turned-down one, in English and Gulf Arabic', () => {
    const english = cardOf(ENGLISH_CALL).card
    expect(new Set(english.rejected.map((fact) => fact.text))).toEqual(new Set(['Friday', 'eleven in the morning']))
    expect(english.settled.map((fact) => fact.key)).toContain('9:15')
    const gulf = cardOf(GULF_CALL).card
    expect(new Set(gulf.rejected.map((fact) => fact.text))).toEqual(new Set(['يوم الاثنين', 'الاثنين', 'الساعة خمسة العصر']))
  })

  it('reads emails, currency codes and a name after two cues', () => {
    const { card } = cardOf(
      [
        'الموظف: أهلًا، كيف أخدمك؟',
        'المتصل: أنا اسمي منى، أبي أرجّع جهاز بقيمة SAR 1,250.',
        'الموظف: أرسل لك الرابط على mona.k@example.org الحين.',
      ].join('\n'),
    )
    expect(card.callerName).toBe('منى')
    expect(card.facts.filter((fact) => fact.kind === 'amount').map((fact) => fact.text)).toEqual(['SAR 1,250'])
    expect(card.facts.filter((fact) => fact.kind === 'identifier').map((fact) => fact.text)).toEqual(['mona.k@example.org'])
  })

  it('reads figures of a text without turns, not years or "one of"', () => {
    const quantities = (text: string) =>
      cardOf(text)
        .card.facts.filter((fact) => fact.kind === 'quantity')
        .map((fact) => fact.text)
    expect(quantities('One of the trials in 2019 used twelve soil sensors across the farm.')).toEqual(['twelve soil sensors'])
    expect(quantities('About a hundred and twenty people, one site.')).toEqual(['a hundred and twenty people'])
    // Words opening with م or ص are counted things, not the day-part letters of "٥ م".
    expect(quantities('افتتحت البلدية مئتين وخمسين متجرًا، ثم خمسة مصانع جديدة.')).toEqual(['مئتين وخمسين متجرًا', 'خمسة مصانع جديدة'])
    expect(quantities('شاركت إحدى المدارس في التجربة، وركّبت خمسين لوحًا شمسيًا على السطح.')).toEqual(['خمسين لوحًا شمسيًا'])
  })

  it('reads "at four" as a time and "at one point" as none', () => {
    const times = (text: string) =>
      cardOf(text)
        .card.facts.filter((fact) => fact.kind === 'time')
        .map((fact) => fact.key)
    expect(times('Agent: Thursday at four works. At one point the line dropped.\nCaller: Good.')).toEqual(['4:00'])
    expect(times('Agent: See you at ten on Monday.\nCaller: At half past two instead?')).toEqual(['10:00', '2:30'])
  })

  it('keeps two dates that answer different things (adversarial: no refusal, no counter-offer)', () => {
    const { card } = cardOf(
      'Caller: My heating has been off since Monday.\nAgent: An engineer will come on Wednesday at noon.\nCaller: Thanks.',
    )
    expect(card.rejected).toEqual([])
  })
})

describe('AI content from the call card', () => {
  const engine = createOfflineAiContentEngine()

  it('leads the summary with the settled facts and never states the turned-down slot', async () => {
    for (const [text, rejected, facts] of [
      [ENGLISH_CALL, /Friday|eleven/, ['Oliver Grant', 'Saturday', '9:15', 'forty-five pounds', 'PV-3307']],
      [GULF_CALL, /الاثنين|خمسة العصر/, ['فهد الشمري', 'الخميس', 'ثمانين ريال']],
    ] as const) {
      const { summary, introduction } = await engine.generate({ text, parts: ['summary', 'introduction'] })
      expect(summary).not.toMatch(rejected)
      for (const fact of facts) expect(summary).toContain(fact)
      expect(introduction!.split('.')[0]).toMatch(/^(Caller|المتصل):/)
    }
  })

  it('writes titles from the commitment and topic, FAQ from the text and the card, no greetings or vocatives', async () => {
    const result = await engine.generate({ text: GULF_CALL, parts: ['titles', 'faq', 'keywords', 'twitterThread'] })
    expect(result.titles).not.toMatch(/كل ما تحتاج|في سطور|نظرة أقرب|هلا|سعود/)
    expect(result.titles).toMatch(/الخميس/)
    const questions = result.faq!.split('\n').filter((line) => line.startsWith('س:'))
    expect(questions.join('\n')).not.toMatch(/ماذا قيل|يا سعود|هلا/)
    expect(result.keywords).not.toMatch(/هلا|سعود|والله|أبي/)
    expect(result.twitterThread!.match(/#\S+/g) ?? []).not.toContainEqual(expect.stringMatching(/هلا|سعود/))
    const english = await engine.generate({ text: ENGLISH_CALL, parts: ['titles', 'faq'] })
    expect(english.titles).not.toMatch(/What You Need to Know|in Focus|Key Takeaways|Closer Look/)
    expect(
      english
        .faq!.split('\n')
        .filter((line) => line.startsWith('Q:'))
        .join('\n'),
    ).not.toMatch(/What is said about|Nina|Hello/)
    expect(english.faq).toContain('What was agreed, and when?')
    expect(english.titles).toContain('Booked with Dr. Rowe on Saturday at 9:15')
    const { keywords } = await engine.generate({ text: ENGLISH_CALL, parts: ['keywords'] })
    expect(keywords).not.toMatch(/Saturday|Friday|forty-five|quarter|lovely|Nina/i)
  })

  it('writes the cards of many calls at once, each with its own facts', async () => {
    const calls = Array.from({ length: 12 }, (_, i) => ENGLISH_CALL.replace('PV-3307', `PV-${4000 + i}`))
    const summaries = await Promise.all(calls.map((text) => engine.generate({ text, parts: ['summary'] })))
    summaries.forEach((result, i) => expect(result.summary).toContain(`PV-${4000 + i}`))
  })
})

describe('dialect stop words, greetings and clitics', () => {
  it('knows Gulf, Egyptian and Levantine function words, with clitics fused on', () => {
    for (const word of ['وش', 'الحين', 'عايز', 'ازاي', 'هلق', 'بدي', 'وهيك'])
      expect(isArabicStopWord(normaliseArabic(word)), word).toBe(true)
    expect(isArabicStopWord(normaliseArabic('الغسيل'))).toBe(false)
    expect(isGreetingWord('مرحبا')).toBe(true)
    expect(isGreetingWord('ومرحبا')).toBe(true)
    expect(isGreetingWord('hello')).toBe(true)
    expect(isGreetingWord('survey')).toBe(false)
  })

  it('never makes the person addressed a keyword: the name after يا, يا أستاذ, hi or thanks', async () => {
    expect(
      tokenise('تمام يا أستاذ كريم، الشحنة جاهزة')
        .filter((token) => !token.stop)
        .map((token) => token.display),
    ).toEqual(['الشحنة', 'جاهزة'])
    expect(
      tokenise('Thanks Priya, the parcel is ready')
        .filter((token) => !token.stop)
        .map((token) => token.display),
    ).toEqual(['parcel', 'ready'])
    const text = [
      'المتصل: يا كريم الشحنة ما وصلت.',
      'الموظف: معليش، الشحنة بتوصل بكرة.',
      'المتصل: طيب يا كريم، الشحنة فيها أدوية.',
      'الموظف: الشحنة أولوية عندنا.',
      'المتصل: شكرا يا كريم.',
    ].join('\n')
    const { keywords } = await createOfflineAiContentEngine().generate({ text, parts: ['keywords'] })
    expect(keywords).toContain('الشحنة')
    expect(keywords).not.toContain('كريم')
  })

  it("does not reuse a source title that is only the text cut short (a TTS job's title)", async () => {
    const cutShort = `${ENGLISH_CALL.replace(/\s+/g, ' ').slice(0, 59).trimEnd()}…`
    const { titles } = await createOfflineAiContentEngine().generate({ text: ENGLISH_CALL, parts: ['titles'], title: cutShort })
    expect(titles).not.toContain('Harbour Vets, this is')
  })

  it('reads pathological runs of numbers, dates and identifiers in bounded time (adversarial)', async () => {
    const engine = createOfflineAiContentEngine()
    for (const text of [
      `Caller: ${Array(700).fill('one and a half thousand').join(' ')}.\nAgent: ok.`,
      `${Array(800).fill('Monday the twelfth at half past').join(', ')}.`,
      `المتصل: ${Array(1000).fill('خمسة وعشرين').join(' و')}.\nالموظف: تمام.`,
      `${Array(500).fill('الساعة أربعة ونص العصر يوم الأحد').join('، ')}.`,
    ]) {
      const started = performance.now()
      await engine.generate({ text, parts: ['summary', 'titles', 'faq'] })
      // Linear reading takes well under a second here; a backtracking pattern would take minutes.
      expect(performance.now() - started).toBeLessThan(3_000)
    }
  })
})
