import { describe, expect, it } from 'vitest'
import { COVERS, loadCorpus, scenarioProblems, ScenarioSchema } from '../../bench/understanding/corpus'
import { carries } from '../../bench/understanding/scorer'

/* The corpus itself: every file valid against its schema, and as large and varied as issue 23 asks. */

const corpus = loadCorpus()

describe('the understanding corpus', () => {
  it('loads every agent, scenario and text file against its schema', () => {
    expect(corpus.agents.size).toBeGreaterThanOrEqual(8)
    expect(corpus.scenarios.length).toBeGreaterThanOrEqual(60)
    expect(corpus.texts.length).toBeGreaterThanOrEqual(20)
  })

  it('is half Arabic across three dialects and half English, with both kinds of caller', () => {
    const count = (dialect: string) => corpus.scenarios.filter((scenario) => scenario.dialect === dialect).length
    expect(count('english')).toBeGreaterThanOrEqual(30)
    for (const dialect of ['gulf', 'egyptian', 'levantine']) expect(count(dialect)).toBeGreaterThanOrEqual(10)
    const kinds = corpus.scenarios.map((scenario) => scenario.caller.kind)
    expect(kinds.filter((kind) => kind === 'own-order').length).toBeGreaterThanOrEqual(20)
    expect(kinds.filter((kind) => kind === 'answers-what-is-asked').length).toBeGreaterThanOrEqual(30)
    expect(corpus.texts.filter((text) => text.lang === 'ar')).toHaveLength(corpus.texts.length / 2)
  })

  it('covers every behaviour in both languages, and every field kind', () => {
    for (const behaviour of COVERS.filter((name) => name !== 'dialect-numerals')) {
      for (const dialect of ['english', 'gulf', 'egyptian', 'levantine']) {
        // Spelled identifiers and dates in words: once in English and once in Arabic is enough.
        if (behaviour === 'spelled-identifier' && dialect !== 'english' && dialect !== 'egyptian') continue
        if (behaviour === 'date-in-words' && dialect !== 'english' && dialect !== 'gulf') continue
        expect(
          corpus.scenarios.some((scenario) => scenario.dialect === dialect && scenario.covers.includes(behaviour)),
          `${behaviour} in ${dialect}`,
        ).toBe(true)
      }
    }
    const kinds = new Set([...corpus.agents.values()].flatMap((agent) => Object.values(agent.fields).map((field) => field.kind)))
    for (const kind of ['name', 'identifier', 'integer', 'boolean', 'enum', 'date', 'time']) expect(kinds).toContain(kind)
  })

  it('says which problems a bad scenario has', () => {
    const agent = corpus.agents.get('en-restaurant')!
    const scenario = ScenarioSchema.parse({
      id: 'bad',
      agent: 'en-restaurant',
      dialect: 'gulf',
      timeZone: 'Europe/London',
      caller: { kind: 'own-order', lines: ['Hi'] },
      expected: { customerName: 'X', partySize: 'four', date: 'someday', time: '7pm', seating: 'roof', nickname: 'Y' },
      covers: [],
    })
    expect(scenarioProblems(scenario, agent)).toEqual([
      'a gulf scenario on a en agent',
      'nickname is not a field of en-restaurant',
      'partySize: expected an integer',
      'date: someday is not a date spec',
      'time: 7pm is not HH:MM',
      'seating: roof is not one of indoor, terrace, window',
    ])
    expect(ScenarioSchema.safeParse({ ...scenario, timeZone: 'Mars/Olympus' }).success).toBe(false)
  })

  it('lists every key fact with forms, and the rejected slot apart from the booked one', () => {
    for (const text of corpus.texts) {
      expect(text.keyFacts.length, text.id).toBeGreaterThanOrEqual(5)
      // A fact the text does not state in one of its own forms could never be covered.
      for (const fact of [...text.keyFacts, ...(text.rejected ?? [])])
        expect(carries(text.text, fact.forms), `${text.id}: ${fact.fact}`).toBe(true)
    }
    expect(corpus.texts.filter((text) => text.rejected?.length).length).toBeGreaterThanOrEqual(6)
    expect(corpus.texts.filter((text) => /^(Agent|Caller|الموظف|المتصل):/m.test(text.text)).length).toBeGreaterThanOrEqual(10)
  })
})
