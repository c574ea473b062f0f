/** The caller's grammatical gender when the agent knows it (Arabic verbs and pronouns follow it). */
export type Gender = 'male' | 'female' | undefined

/**
 * Field descriptions speak of the caller in the third person ("اسم العميل الكامل", "the caller's
 * full name"); asked of the caller, they say "you". These turn a description into words said to
 * the caller: English "the caller's" → "your", "the caller wants" → "you want"; Arabic "اسم
 * العميل" → "اسمك", "يريد العميل" → "تريد" (تريدين to a woman), "أصدقاءه" → "أصدقاءك".
 */

/** Who a description calls the caller. "The patient" is left alone: the patient is often someone else. */
const ENGLISH_SUBJECTS = /\bthe (caller|customer|candidate|applicant|guest|client|lead|person we are speaking to)([’']s)?\b/gi
const IRREGULAR: Record<string, string> = { is: 'are', was: 'were', has: 'have', does: 'do', goes: 'go' }

/** "you wants" → "you want": the verb after a "you" made from a third person agrees with it. */
function agree(verb: string): string {
  if (IRREGULAR[verb]) return IRREGULAR[verb]
  if (/[^aeiou]ies$/.test(verb)) return verb.replace(/ies$/, 'y')
  if (/(?:ch|sh|ss|x|o)es$/.test(verb)) return verb.replace(/es$/, '')
  if (/[^s'u]s$/.test(verb) && verb.length > 3) return verb.slice(0, -1)
  return verb
}

/** English: the caller named in the third person becomes "you" / "your", verbs agreeing. */
export function englishSecondPerson(text: string): string {
  let changed = false
  const swapped = text
    .replace(
      /\bthe (\w+) of the (?:caller|customer|person we are speaking to|person on the (?:call|phone))\b/gi,
      (_match, thing: string) => {
        changed = true
        return `your ${thing}`
      },
    )
    .replace(ENGLISH_SUBJECTS, (_match, _who: string, possessive?: string) => {
      changed = true
      return possessive ? 'your' : 'you'
    })
  if (!changed && !/\b(?:they|their)\b/.test(text)) return text
  return swapped
    .replace(/\bthey\b/g, 'you')
    .replace(/\btheir\b/g, 'your')
    .replace(/\bthemselves\b/g, 'yourself')
    .replace(/\byou (\w+)\b/g, (_match, verb: string) => `you ${agree(verb)}`)
    .replace(/\b(or|and) (is|was|has)\b/g, (_match, joiner: string, verb: string) => `${joiner} ${IRREGULAR[verb]}`)
}

/** Words an Arabic description calls the caller by (not المريض: the patient is often someone else). */
const ARABIC_SUBJECTS = new Set(['العميل', 'العميلة', 'النزيل', 'المتصل', 'الزبون', 'المسجل', 'المرشح', 'المتقدم'])
/** Prepositions joined to or standing before the subject: "للعميل" → "لك", "عن العميل" → "عنك". */
const JOINED_PREPOSITIONS: Record<string, string> = { لل: 'ل', بال: 'ب', وال: 'و' }
const STANDING_PREPOSITIONS = new Set(['عن', 'من', 'على', 'إلى', 'الى', 'مع', 'عند', 'في'])
/** Imperfect verbs that are never about the caller ("هل يوجد", "يمكن"). */
const IMPERSONAL = new Set(['يوجد', 'يمكن', 'يجب', 'ينبغي', 'يتم', 'يكون'])

const isImperfect = (word: string) => /^ي[\u0621-\u064A]{2,}$/.test(word) && !IMPERSONAL.has(word)
/** "يريد" → "تريد" (a man), "تريدين" (a woman). */
const secondPersonVerb = (verb: string, gender: Gender) => `ت${verb.slice(1)}${gender === 'female' ? 'ين' : ''}`
/** A word with "you" joined: "اسم" → "اسمك", "رغبة" → "رغبتك", "أعجب" → "أعجبك". */
const withYou = (word: string, gender: Gender) => `${word.replace(/ة$/, 'ت')}${gender === 'female' ? 'كِ' : 'ك'}`

/** A past verb said of the caller: "أكد" → "أكدت", "طلبها" → "طلبتها" (تِ to a woman). */
const pastSecondPerson = (verb: string, gender: Gender) => verb.replace(/(ها|هم)?$/, `${gender === 'female' ? 'تِ' : 'ت'}$1`)

/** Arabic: the caller named in the third person becomes "you"; text that names no caller comes back unchanged. */
export function arabicSecondPerson(text: string, gender: Gender): string {
  // Punctuation becomes a word of its own for a moment: "العميل:" is the subject with a colon after it.
  const words = text
    .replace(/([:،,.؟?]+)/g, ' $1')
    .split(/\s+/)
    .filter(Boolean)
  const isMark = (word: string) => /^[:،,.؟?]+$/.test(word)
  const out: string[] = []
  let changed = false
  for (const word of words) {
    const joined = Object.keys(JOINED_PREPOSITIONS).find(
      (prefix) => word.startsWith(prefix) && ARABIC_SUBJECTS.has(`ال${word.slice(prefix.length)}`),
    )
    if (joined) {
      out.push(withYou(JOINED_PREPOSITIONS[joined]!, gender))
      changed = true
      continue
    }
    const before = out.at(-1)
    if (!ARABIC_SUBJECTS.has(word) || before === undefined || isMark(before)) {
      out.push(word)
      continue
    }
    out.pop()
    changed = true
    // "الوقت الذي يريد فيه النزيل": the verb is one word further back, past a preposition carrying a pronoun.
    const verbBefore = out.at(-1)
    if (/^(?:فيه|فيها|عليه|عليها|منه|منها|له|لها|به|بها|إليه|اليه)$/.test(before) && verbBefore !== undefined && isImperfect(verbBefore)) {
      out[out.length - 1] = secondPersonVerb(verbBefore, gender)
      out.push(before)
    } else if (isImperfect(before)) out.push(secondPersonVerb(before, gender))
    // "هل أكد العميل", "الذي التزم العميل": after هل or a relative the word is a past verb, and the caller did it ("هل أكدت").
    else if (verbBefore !== undefined && /^(?:هل|الذي|التي|الذين|اللذين|اللتين)$/.test(verbBefore))
      out.push(pastSecondPerson(before, gender))
    // "التي طلبها المسجل": a past verb carrying its object takes the caller as its doer ("طلبتها").
    else if (!before.startsWith('ال') && /^.{2,}(?:ها|هم)$/.test(before)) out.push(pastSecondPerson(before, gender))
    else if (STANDING_PREPOSITIONS.has(before) || !before.startsWith('ال')) out.push(withYou(before, gender))
    else out.push(before, word)
  }
  // "هل ينصح أصدقاءه": no subject word, but the verb and the pronoun that follows speak of the caller.
  const verbAt = out[0] === 'هل' ? 1 : 0
  let pronouns = false
  if (!changed && out[verbAt] && isImperfect(out[verbAt]) && out.slice(verbAt + 1).some((word) => /[^\sة]{3,}ه$/.test(word))) {
    out[verbAt] = secondPersonVerb(out[verbAt], gender)
    changed = pronouns = true
  }
  if (!changed) return text
  // There the pronoun is the caller too: "أصدقاءه" → "أصدقاءك" (not after a named subject: in "التزم العميل بسداده" it is the amount).
  return out
    .map((word, index) =>
      pronouns && index > 0 && /^[^\s]{3,}[^ة]ه$/.test(word) && !/الله$/.test(word) ? withYou(word.slice(0, -1), gender) : word,
    )
    .join(' ')
    .replace(/ ([:،,.؟?]+)/g, '$1')
}
