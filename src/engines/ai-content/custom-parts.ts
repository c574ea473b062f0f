import type { AiPart } from '../../shared/api/ai-parts'
import { detectLanguage, type AiContentEngine } from './ai-content-engine'
import type { CustomContentInput, CustomPartWritten } from './custom-part-types'
import { englishNumberWordValues } from '../../shared/text/english-number-words'

export type { CustomContentInput, CustomPartRequest, CustomPartWritten } from './custom-part-types'

/** Words in a part's name or instruction that point to a built-in part, most specific first. */
const CUES: readonly [AiPart, RegExp][] = [
  ['twitterThread', /tweet|twitter|\bx thread|تغريد|تويتر/i],
  ['linkedInPost', /linked\s?in|لينكد/i],
  ['facebookPost', /facebook|فيسبوك|فيس بوك/i],
  ['threadsByInstagram', /instagram|threads|انستغرام|إنستغرام|انستقرام/i],
  ['youtubeDescription', /youtube|video description|يوتيوب/i],
  ['webArticleSEOFriendly', /article|blog|seo|مقال|مدونة/i],
  ['faq', /faq|questions?|q\s?&\s?a|أسئلة|سؤال/i],
  ['keywords', /keywords?|tags|key phrases|كلمات مفتاحية|وسوم/i],
  ['titles', /titles?|headlines?|عنوان|عناوين/i],
  ['keyTopicsWithBullets', /topics|key points|bullets?|outline|محاور|نقاط/i],
  ['introduction', /intro|introduction|opening|مقدمة|تمهيد/i],
  ['summary', /summar|recap|overview|tl;?dr|gist|ملخص|تلخيص|خلاصة/i],
]

/** The built-in part nearest to a custom part: the first cue its name, then its instruction, holds; else the summary. */
export function nearestPart(name: string, prompt: string): AiPart {
  for (const text of [name, prompt]) {
    for (const [part, cue] of CUES) if (cue.test(text)) return part
  }
  return 'summary'
}

/** The counts a prompt asks for ("five bullet points", "خمس جمل"). */
const NUMBER_WORDS: Record<string, number> = {
  ...englishNumberWordValues(),
  hundred: 100,
  واحدة: 1,
  واحد: 1,
  جملتين: 2,
  ثلاث: 3,
  ثلاثة: 3,
  أربع: 4,
  خمس: 5,
  خمسة: 5,
}

const NUMBER = String.raw`(\d{1,5}|[a-z]+|[\u0621-\u064A]+)`

function countFor(prompt: string, unit: RegExp): number | undefined {
  // The unit as a whole word ("a bulleted list" holds no count of bullets); the first count that is a number wins.
  for (const match of prompt.matchAll(new RegExp(`${NUMBER}\\s+(?:${unit.source})(?![\\p{L}])`, 'giu'))) {
    const raw = match[1]!.toLowerCase()
    const value = /^\d+$/.test(raw) ? Number(raw) : Object.hasOwn(NUMBER_WORDS, raw) ? NUMBER_WORDS[raw] : undefined
    if (value !== undefined && value > 0) return value
  }
  return undefined
}

/** Sentences (or lines) of a written part, as they stand. */
function sentencesOf(text: string): string[] {
  return text
    .split(/\n+|(?<!\b(?:Dr|Mr|Mrs|Ms|Prof|St|Jr|Sr|No)\.)(?<=[.!?؟])\s+/u)
    .map((piece) => piece.replace(/^\s*(?:[-•*]|\d+[./)]|#+)\s*/u, '').trim())
    .filter((piece) => /[\p{L}\p{N}]/u.test(piece))
}

/** An instruction the offline engine can follow, and what it does to a written part. */
interface Follow {
  said: string
  apply: (text: string) => string
}

/** What of `prompt` the offline engine can do to a written part: lengths, lists, case, hashtags. */
function followable(prompt: string): Follow[] {
  const follows: Follow[] = []
  const bullets = countFor(prompt, /bullets?|bullet points|points|items|نقاط|نقطة/)
  const sentences = /\b(one|a single) sentence\b|جملة واحدة/i.test(prompt) ? 1 : countFor(prompt, /sentences?|جمل|جملة/)
  const words = countFor(prompt, /words?|كلمات|كلمة/)
  const characters = countFor(prompt, /characters?|chars|letters|حرف|أحرف|حروف/)
  const listed = bullets !== undefined || /\bbullet|\bas a list\b|\blist of\b|\bnumbered\b|على شكل نقاط|قائمة/i.test(prompt)
  if (sentences !== undefined && !listed)
    follows.push({
      said: `at most ${sentences} sentence${sentences > 1 ? 's' : ''}`,
      apply: (text) => sentencesOf(text).slice(0, sentences).join(' '),
    })
  if (listed) {
    const numbered = /\bnumbered\b|مرقمة/i.test(prompt)
    follows.push({
      said: `as a ${numbered ? 'numbered' : 'bulleted'} list${bullets ? ` of at most ${bullets} items` : ''}`,
      apply: (text) =>
        sentencesOf(text)
          .slice(0, bullets ?? Infinity)
          .map((line, index) => `${numbered ? `${index + 1}.` : '-'} ${line}`)
          .join('\n'),
    })
  }
  if (words !== undefined)
    follows.push({
      said: `at most ${words} words`,
      apply: (text) => {
        const all = text.split(/\s+/).filter(Boolean)
        return all.length <= words ? text : `${all.slice(0, words).join(' ')}…`
      },
    })
  if (characters !== undefined)
    follows.push({
      said: `at most ${characters} characters`,
      apply: (text) => {
        if ([...text].length <= characters) return text
        const cut = [...text].slice(0, Math.max(1, characters - 1)).join('')
        const atSpace = cut.replace(/\s+\S*$/u, '')
        return `${atSpace.length > cut.length / 2 ? atSpace : cut}…`
      },
    })
  if (/no hashtags|without hashtags|بدون (?:هاشتاق|وسوم)/i.test(prompt))
    follows.push({
      said: 'without hashtags',
      apply: (text) =>
        text
          .replace(/(^|\s)#[\p{L}\p{N}_]+/gu, '$1')
          .replace(/[ \t]+\n/g, '\n')
          .trim(),
    })
  if (/\b(upper ?case|all caps|capital letters)\b/i.test(prompt))
    follows.push({ said: 'in capital letters', apply: (text) => text.toUpperCase() })
  else if (/\blower ?case\b/i.test(prompt)) follows.push({ said: 'in lower case', apply: (text) => text.toLowerCase() })
  return follows
}

/**
 * Custom parts, offline: each is written as the nearest built-in part, then the parts of its
 * instruction the engine can follow are applied (a length in sentences, words or characters; a
 * bulleted or numbered list; capitals; no hashtags). What it cannot do (reword, change the tone,
 * translate, add facts) is listed in `notHonoured`, never pretended.
 */
export async function writeCustomPartsOffline(
  engine: AiContentEngine,
  input: CustomContentInput,
  signal?: AbortSignal,
): Promise<CustomPartWritten[]> {
  const sourceLanguage = detectLanguage(input.text)
  const written: CustomPartWritten[] = []
  for (const part of input.parts) {
    const basedOn = nearestPart(part.aiPart, part.prompt)
    const generated = await engine.generate(
      { text: input.text, parts: [basedOn], lang: sourceLanguage, ...(input.title ? { title: input.title } : {}) },
      signal,
    )
    let content = generated[basedOn] ?? ''
    const follows = followable(part.prompt)
    for (const follow of follows) content = follow.apply(content)
    const language = part.language ?? sourceLanguage
    const notHonoured: string[] = []
    if (language !== sourceLanguage)
      notHonoured.push(
        `language ${language}: the offline engine does not translate, so the part is in the source's language (${sourceLanguage})`,
      )
    notHonoured.push(
      'the rest of the instruction: the offline engine quotes the source and follows only lengths, lists, capitals and hashtags; choose a chat model (voicedesk ai-engine) for free-form instructions',
    )
    written.push({
      aiPart: part.aiPart,
      language: sourceLanguage,
      prompt: part.prompt,
      content: content.trim() || (generated[basedOn] ?? '').trim(),
      engine: engine.name,
      basedOn,
      honoured: [
        `written as the built-in part "${basedOn}", the nearest to the part's name and instruction`,
        ...follows.map((follow) => follow.said),
      ],
      notHonoured,
    })
  }
  return written
}
