import { describe, expect, it } from 'vitest'
import { arabicDisplayWord, arabicLightStem, normaliseArabic, stripArabicMarks } from '../../../src/engines/ai-content/arabic-normalisation'
import { isArabicStopWord } from '../../../src/engines/ai-content/stop-words'

describe('Arabic normalisation', () => {
  it('removes diacritics and tatweel for display, keeping letter forms', () => {
    expect(stripArabicMarks('مُـــهِمَّةٌ')).toBe('مهمة')
  })

  it('folds alef, yaa and taa marbuta variants for matching', () => {
    expect(normaliseArabic('أحمد إلى آخر')).toBe('احمد الي اخر')
    expect(normaliseArabic('مدرسة على')).toBe('مدرسه علي')
  })

  it('stems lightly: article, fused particles, common endings', () => {
    const stem = (word: string) => arabicLightStem(normaliseArabic(word))
    expect(stem('المزارعين')).toBe(stem('مزارعون'))
    expect(stem('بالتنقيط')).toBe('تنقيط')
    expect(stem('للمزارعين')).toBe('مزارع')
    expect(stem('سياراتها')).toBe('سيار')
    // Never below two letters.
    expect(stem('الري').length).toBeGreaterThanOrEqual(2)
  })

  it('shows a word without a conjunction or preposition fused to its article', () => {
    expect(arabicDisplayWord('والمياه')).toBe('المياه')
    expect(arabicDisplayWord('بالتنقيط')).toBe('التنقيط')
    expect(arabicDisplayWord('للمزارعين')).toBe('المزارعين')
    expect(arabicDisplayWord('وزارة')).toBe('وزارة')
    expect(arabicDisplayWord('بَيْتٌ')).toBe('بيت')
  })

  it('recognises stop words behind a fused particle', () => {
    for (const word of ['في', 'وهذا', 'فإن', 'لذلك', 'إلى', 'التي']) expect(isArabicStopWord(normaliseArabic(word)), word).toBe(true)
    for (const word of ['المياه', 'الزراعة', 'التربة']) expect(isArabicStopWord(normaliseArabic(word)), word).toBe(false)
  })
})
