/**
 * Inner loop for the offline AI-content engine (dev script, not part of `npm run bench`): every
 * corpus text through the engine in this process, scored by the understanding bench's own
 * scoreText, then AI content timed on 2,000 words of each language. Seconds, not minutes:
 * `npx tsx bench/understanding/quick-content.ts [--verbose] [--only ID-PREFIX]`. Totals are given
 * for all texts and per set (the first texts, and each `setN-` set written apart from the engine).
 */
import { createOfflineAiContentEngine } from '../../src/engines/ai-content/ai-content-engine'
import { AI_PARTS } from '../../src/shared/api/ai-parts'
import { aiContentTime, longText, scoreText, type TextResult } from './bench'
import { loadCorpus } from './corpus'

const verbose = process.argv.includes('--verbose')
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined
const corpus = loadCorpus()
const engine = createOfflineAiContentEngine()
const results: TextResult[] = []
for (const text of corpus.texts.filter((text) => !only || text.id.startsWith(only))) {
  const parts = await engine.generate({ text: text.text, parts: [...AI_PARTS] })
  const result = scoreText(text, parts)
  results.push(result)
  const flaws = [
    ...result.missedFacts.map((fact) => `missed ${fact}`),
    ...result.rejectedStated.map((fact) => `states rejected ${fact}`),
    ...result.templateTitles.map((title) => `template title "${title}"`),
    ...result.templateQuestions.map((question) => `template question "${question}"`),
    ...result.greetingOrVocativeQuestions.map((question) => `greeting question "${question}"`),
    ...result.greetingKeywordsOrHashtags.map((tag) => `greeting tag "${tag}"`),
  ]
  console.log(`${text.id}: ${result.factsCovered}/${result.facts}${flaws.length ? `\n  ${flaws.join('\n  ')}` : ''}`)
  if (verbose) console.log(`  SUMMARY ${result.summary}\n  TITLES ${parts.titles}\n  FAQ ${parts.faq}\n  KEYWORDS ${parts.keywords}\n`)
}
const setOf = (id: string) => /^(set\d+)-/.exec(id)?.[1] ?? 'first'
const totals = (group: readonly TextResult[]) => {
  const sum = (pick: (result: TextResult) => number) => group.reduce((total, result) => total + pick(result), 0)
  const covered = sum((result) => result.factsCovered)
  const facts = sum((result) => result.facts)
  return {
    texts: group.length,
    summaryFactCoverage: `${covered}/${facts} = ${Math.round((covered / facts) * 1000) / 10} %`,
    summariesStatingARejectedValue: group.filter((result) => result.rejectedStated.length > 0).length,
    templateTitles: sum((result) => result.templateTitles.length),
    templateFaqQuestions: sum((result) => result.templateQuestions.length),
    greetingOrVocativeFaqQuestions: sum((result) => result.greetingOrVocativeQuestions.length),
    greetingKeywordsOrHashtags: sum((result) => result.greetingKeywordsOrHashtags.length),
  }
}
const sets = [...new Set(results.map((result) => setOf(result.id)))]
console.log(
  JSON.stringify(
    {
      label: 'in-process (offline engine, no /v1), scored by bench/understanding scoreText',
      all: totals(results),
      ...Object.fromEntries(sets.map((set) => [set, totals(results.filter((result) => setOf(result.id) === set))])),
      aiContentTwoThousandWordsMs: {
        english: await aiContentTime(longText(corpus.texts, 'en', 2_000), 10),
        arabic: await aiContentTime(longText(corpus.texts, 'ar', 2_000), 10),
      },
    },
    null,
    2,
  ),
)
