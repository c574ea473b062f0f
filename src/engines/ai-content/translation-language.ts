import { detectLanguage } from './ai-content-engine'
import { isEnglishStopWord } from './stop-words'

/** English prose is about half function words; other languages written in Latin letters share few of them. */
const ENGLISH_STOP_SHARE = 0.25

/**
 * The language of a text to translate, when it can be told without a model: 'ar' when Arabic
 * letters dominate, 'en' when English function words are common enough, else null (another
 * language in Latin letters, or too little text): the model is then left to tell.
 */
export function guessSourceLanguage(text: string): 'ar' | 'en' | null {
  if (detectLanguage(text) === 'ar') return 'ar'
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? []
  if (words.length < 3) return null
  const stopWords = words.filter((word) => isEnglishStopWord(word)).length
  return stopWords / words.length >= ENGLISH_STOP_SHARE ? 'en' : null
}
