/**
 * Arabic spelling normalisation for matching words (counting keywords, comparing sentences).
 *
 * Why: one Arabic word is written with or without diacritics, stretched with tatweel, with
 * several alef / yaa / taa-marbuta forms, and with the article and one-letter particles
 * fused to it (والمياه، بالري، للمزارعين). Counting those as different words would split
 * every keyword's count. Matching uses the folded, lightly stemmed key; what people read
 * keeps the letters as written (only marks removed).
 */

/** Arabic letters (Arabic, Arabic Supplement, Extended-A and presentation forms), not digits or punctuation. */
const ARABIC_LETTERS = /[\u0620-\u064A\u066E-\u06D3\u06FA-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFC]/
const ARABIC_LETTERS_GLOBAL = new RegExp(ARABIC_LETTERS.source, 'g')
const LATIN_LETTERS_GLOBAL = /[A-Za-z\u00C0-\u024F]/g

/** Tashkeel, Quranic annotation marks and the superscript alef. */
const MARKS = /[\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06DC\u06DF-\u06E8\u06EA-\u06ED]/g
const TATWEEL = /\u0640/g

/** True when the word contains at least one Arabic letter. */
export function isArabicWord(word: string): boolean {
  return ARABIC_LETTERS.test(word)
}

/** Arabic and Latin letter counts, for telling the language of a text. */
export function countScriptLetters(text: string): { arabic: number; latin: number } {
  return {
    arabic: text.match(ARABIC_LETTERS_GLOBAL)?.length ?? 0,
    latin: text.match(LATIN_LETTERS_GLOBAL)?.length ?? 0,
  }
}

/** Removes diacritics and tatweel, keeping the letters as written. For text shown to people. */
export function stripArabicMarks(text: string): string {
  return text.replace(MARKS, '').replace(TATWEEL, '')
}

/**
 * Folds spelling variants to one form, for matching only: marks and tatweel removed,
 * أ إ آ ٱ → ا, ى → ي, ة → ه, and the Persian forms ک ی → ك ي.
 */
export function normaliseArabic(text: string): string {
  return stripArabicMarks(text)
    .replace(/[أإآٱ]/g, 'ا')
    .replace(/[ىی]/g, 'ي')
    .replace(/ة/g, 'ه')
    .replace(/ک/g, 'ك')
}

/** The article with a fused particle before it, longest first. */
const ARTICLE_PREFIXES = ['وال', 'فال', 'بال', 'كال', 'لل', 'ال']
/**
 * Common endings (dual, plurals, feminine, pronoun suffixes), in the order a light stemmer
 * tries them; several may apply (سياراتها → سيارات → سيار). Written after normalisation (ة → ه).
 */
const SUFFIXES = ['ها', 'ان', 'ات', 'ون', 'ين', 'يه', 'ه', 'ي']

/**
 * A light stem of an already normalised word: the conjunction و, the article and the
 * particles fused with it, and common endings removed, never leaving fewer than 2 letters.
 * Light stemming (rather than root extraction) is what works best for matching in
 * retrieval: it merges المزارعين / المزارعون / مزارع without merging unrelated words of one root.
 */
export function arabicLightStem(normalised: string): string {
  let stem = normalised
  if (stem.length > 3 && stem.startsWith('و')) stem = stem.slice(1)
  for (const prefix of ARTICLE_PREFIXES) {
    if (stem.startsWith(prefix) && stem.length - prefix.length >= 2) {
      stem = stem.slice(prefix.length)
      break
    }
  }
  for (const suffix of SUFFIXES) {
    if (stem.length - suffix.length >= 2 && stem.endsWith(suffix)) stem = stem.slice(0, -suffix.length)
  }
  return stem
}

/**
 * How a word is shown on its own (in a keyword list or a heading): marks removed, and a
 * conjunction or preposition fused with the article dropped, since it belonged to the
 * sentence, not to the word: والمياه → المياه, بالري → الري, للمزارعين → المزارعين.
 */
export function arabicDisplayWord(word: string): string {
  const plain = stripArabicMarks(word)
  if (plain.length > 4 && /^[وف]?لل/.test(plain)) return plain.replace(/^[وف]?لل/, 'ال')
  if (plain.length > 4) return plain.replace(/^(?:[وف][بكل]?|[بك])(?=ال)/, '')
  return plain
}
