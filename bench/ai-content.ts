/**
 * Speed of the offline AI-content engine: all 12 parts from a ~2,000-word transcript (the target:
 * under 300 ms on a slow 2-core machine), from a ~2,000-word Arabic text, and from ~10,000 words.
 * Part of `npm run bench` (bench/run.ts); standalone: `npx tsx bench/ai-content.ts` prints JSON.
 */
import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { createOfflineAiContentEngine } from '../src/engines/ai-content/ai-content-engine'
import { AI_PARTS } from '../src/shared/api/ai-parts'

export interface Timing {
  p50: number
  max: number
}

export interface AiContentBenchResult {
  twoThousandWordsAllPartsMs: Timing
  arabicTwoThousandWordsAllPartsMs: Timing
  tenThousandWordsAllPartsMs: Timing
  /** Words in each text, as built. */
  words: { english: number; arabic: number; long: number }
  runs: number
}

const RUNS = 20
const LONG_RUNS = 5
const WARM_UP_RUNS = 3

const fixture = (name: string) => readFileSync(new URL(`../test/engines/ai-content/fixtures/${name}`, import.meta.url), 'utf8')

/**
 * A transcript of at least `words` words from the fixture's lines, each round rotated and with
 * its subject and figures varied, so the text does not repeat sentence for sentence (the engine
 * counts a repeated sentence once, which would flatter the timing).
 */
function varied(source: string, words: number, variants: readonly [RegExp, readonly string[]][]): string {
  const lines = source.split('\n').filter((line) => line.trim())
  const out: string[] = []
  let count = 0
  for (let round = 0; count < words; round++) {
    for (let i = 0; i < lines.length && count < words; i++) {
      let line = lines[(i + round * 5) % lines.length]!
      for (const [pattern, choices] of variants) line = line.replace(pattern, choices[(round + i) % choices.length]!)
      line = line.replace(/(\.)( |$)/, ` (part ${round + 1}.${i + 1})$1$2`)
      out.push(line)
      count += line.split(/\s+/).length
    }
  }
  return out.join('\n')
}

const ENGLISH_VARIANTS: [RegExp, string[]][] = [
  [/heat pump/g, ['heat pump', 'ground source heat pump', 'hybrid heat pump', 'air-to-water heat pump']],
  [/\b(?:ten|four hundred|three|seven)\b/g, ['ten', 'twelve', 'five', 'eight', 'thirty']],
  [/insulation/g, ['insulation', 'loft insulation', 'wall insulation']],
]
const ARABIC_VARIANTS: [RegExp, string[]][] = [
  [/الري بالتنقيط/g, ['الري بالتنقيط', 'الري الذكي', 'الري تحت السطحي']],
  [/المزارعين/g, ['المزارعين', 'صغار المزارعين', 'المنتجين']],
  [/التربة/g, ['التربة', 'الأرض الزراعية']],
]

async function time(text: string, runs: number): Promise<Timing> {
  const engine = createOfflineAiContentEngine()
  for (let i = 0; i < WARM_UP_RUNS; i++) await engine.generate({ text, parts: [...AI_PARTS] })
  const samples: number[] = []
  for (let i = 0; i < runs; i++) {
    const started = performance.now()
    await engine.generate({ text, parts: [...AI_PARTS] })
    samples.push(performance.now() - started)
  }
  samples.sort((a, b) => a - b)
  const round = (ms: number) => Math.round(ms * 100) / 100
  return { p50: round(samples[Math.floor((samples.length - 1) / 2)]!), max: round(samples.at(-1)!) }
}

const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length

export async function benchAiContent(): Promise<AiContentBenchResult> {
  const english = varied(fixture('english-podcast.txt'), 2_000, ENGLISH_VARIANTS)
  const arabic = varied(fixture('arabic-report.txt'), 2_000, ARABIC_VARIANTS)
  const long = varied(fixture('english-podcast.txt'), 10_000, ENGLISH_VARIANTS)
  return {
    twoThousandWordsAllPartsMs: await time(english, RUNS),
    arabicTwoThousandWordsAllPartsMs: await time(arabic, RUNS),
    tenThousandWordsAllPartsMs: await time(long, LONG_RUNS),
    words: { english: wordCount(english), arabic: wordCount(arabic), long: wordCount(long) },
    runs: RUNS,
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await benchAiContent(), null, 2))
}
