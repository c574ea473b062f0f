import { present } from '../../shared/present'
import { ARABIC_MONTH_NAMES, ENGLISH_MONTHS } from '../dialogue/spoken-dates'
import { arabicCardinal, arabicClock, arabicDigits, arabicLetterNames } from './arabic-number-words'
import { englishCardinal, englishClock, englishDigits, englishLetterNames, englishOrdinal, englishYear } from './english-number-words'

/** The currencies read with their names; anything else stays as written. */
export type CurrencyId = 'sar' | 'usd' | 'egp' | 'aed' | 'eur' | 'gbp' | 'kwd' | 'qar'
export type DayPeriod = 'am' | 'pm' | 'noon'

/** How one language says each kind of written token. Every method returns words only. */
export interface Speaker {
  /** A whole number or decimal as written, thousands separators allowed ("1,250.5"). */
  number(written: string): string
  digits(digits: string): string
  letters(letters: string): string
  ordinal(value: number): string
  clock(hour24: number, minute: number, period: DayPeriod | undefined): string
  date(day: number, month: number, year: number | undefined): string
  money(written: string, currency: CurrencyId): string
  percent(written: string): string
  /** Words for the symbols said inside emails and phone numbers. */
  symbols: { dot: string; at: string; dash: string; underscore: string; plus: string }
  /** What separates digit groups of a phone number, so the voice pauses between them. */
  groupPause: string
}

interface CurrencyNames {
  one: string
  many: string
  subunit: string
}

const ENGLISH_CURRENCIES: Readonly<Record<CurrencyId, CurrencyNames>> = {
  sar: { one: 'riyal', many: 'riyals', subunit: 'halalas' },
  qar: { one: 'riyal', many: 'riyals', subunit: 'dirhams' },
  usd: { one: 'dollar', many: 'dollars', subunit: 'cents' },
  egp: { one: 'Egyptian pound', many: 'Egyptian pounds', subunit: 'piastres' },
  aed: { one: 'dirham', many: 'dirhams', subunit: 'fils' },
  eur: { one: 'euro', many: 'euros', subunit: 'cents' },
  gbp: { one: 'pound', many: 'pounds', subunit: 'pence' },
  kwd: { one: 'dinar', many: 'dinars', subunit: 'fils' },
}

/** Arabic names stay singular after any number, as speakers say "خمسين ريال" (no dual or plural agreement). */
const ARABIC_CURRENCIES: Readonly<Record<CurrencyId, CurrencyNames>> = {
  sar: { one: 'رِيَال', many: 'رِيَال', subunit: 'هَلَلَه' },
  qar: { one: 'رِيَال قَطَرِي', many: 'رِيَال قَطَرِي', subunit: 'دِرْهَم' },
  usd: { one: 'دُولَار', many: 'دُولَار', subunit: 'سِنْت' },
  egp: { one: 'جُنَيْه', many: 'جُنَيْه', subunit: 'قِرْش' },
  aed: { one: 'دِرْهَم', many: 'دِرْهَم', subunit: 'فِلْس' },
  eur: { one: 'يُورُو', many: 'يُورُو', subunit: 'سِنْت' },
  gbp: { one: 'جُنَيْه إِسْتَرْلِينِي', many: 'جُنَيْه إِسْتَرْلِينِي', subunit: 'بِنْس' },
  kwd: { one: 'دِينَار', many: 'دِينَار', subunit: 'فِلْس' },
}

/** The parts of a written number: whole part without separators, and the digits after the point. */
function parts(written: string): { whole: string; fraction: string; grouped: boolean } {
  const [whole = '', fraction = ''] = written.split('.')
  return { whole: whole.replace(/,/g, ''), fraction, grouped: whole.includes(',') }
}

/**
 * A run of digits a person reads one by one rather than as an amount: a leading zero
 * ("0501…"), or seven digits or more written without separators (phone and account numbers).
 */
function readDigitByDigit(whole: string, grouped: boolean): boolean {
  return !grouped && whole.length > 1 && (whole.startsWith('0') || whole.length >= 7)
}

function makeSpeaker(words: {
  cardinal: (value: bigint) => string | undefined
  digits: (digits: string) => string
  point: string
  and: string
  currencies: Readonly<Record<CurrencyId, CurrencyNames>>
}): Pick<Speaker, 'number' | 'digits' | 'money'> {
  const number = (written: string): string => {
    const { whole, fraction, grouped } = parts(written)
    const said = readDigitByDigit(whole, grouped) ? words.digits(whole) : (words.cardinal(BigInt(whole)) ?? words.digits(whole))
    return fraction ? `${said} ${words.point} ${words.digits(fraction)}` : said
  }
  return {
    number,
    digits: words.digits,
    money(written, currency) {
      const names = words.currencies[currency]
      const { whole, fraction } = parts(written)
      const units = words.cardinal(BigInt(whole))
      if (units === undefined) return `${words.digits(whole)} ${names.many}`
      const unitName = whole === '1' ? names.one : names.many
      if (!fraction || /^0+$/.test(fraction)) return `${units} ${unitName}`
      if (fraction.length !== 2) return `${number(written)} ${names.many}`
      return `${units} ${unitName}${words.and}${present(words.cardinal(BigInt(fraction)), `the words for ${fraction}`)} ${names.subunit}`
    },
  }
}

export const ENGLISH_SPEAKER: Speaker = {
  ...makeSpeaker({ cardinal: englishCardinal, digits: englishDigits, point: 'point', and: ' and ', currencies: ENGLISH_CURRENCIES }),
  letters: englishLetterNames,
  ordinal: englishOrdinal,
  clock(hour24, minute, period) {
    const hour12 = hour24 % 12 === 0 ? 12 : hour24 % 12
    const said = period ?? (hour24 >= 13 ? 'pm' : hour24 === 0 ? 'am' : undefined)
    const suffix = said === 'am' ? ' a.m.' : said === 'pm' ? ' p.m.' : said === 'noon' ? ' noon' : minute === 0 ? " o'clock" : ''
    return `${englishClock(hour12, minute)}${suffix}`
  },
  date(day, month, year) {
    const said = `${present(ENGLISH_MONTHS[month - 1], `month ${month}`)} ${englishOrdinal(day)}`
    return year === undefined ? said : `${said}, ${englishYear(year)}`
  },
  percent: (written) => `${ENGLISH_SPEAKER.number(written)} percent`,
  symbols: { dot: 'dot', at: 'at', dash: 'dash', underscore: 'underscore', plus: 'plus' },
  groupPause: ', ',
}

export const ARABIC_SPEAKER: Speaker = {
  ...makeSpeaker({ cardinal: arabicCardinal, digits: arabicDigits, point: 'فَاصِلَه', and: ' وَ', currencies: ARABIC_CURRENCIES }),
  letters: arabicLetterNames,
  // Arabic ordinals agree with their noun; the cardinal is what a speaker says for "21st" in a date anyway.
  ordinal: (value) => ARABIC_SPEAKER.number(String(value)),
  clock(hour24, minute, period) {
    const hour12 = hour24 % 12 === 0 ? 12 : hour24 % 12
    const said = period ?? (hour24 >= 13 ? 'pm' : hour24 === 0 ? 'am' : undefined)
    const suffix = said === 'am' ? ' صَبَاحًا' : said === 'pm' ? ' مَسَاءً' : said === 'noon' ? ' ظُهْرًا' : ''
    return `${arabicClock(hour12, minute)}${suffix}`
  },
  date(day, month, year) {
    const said = `${present(arabicCardinal(day), `the words for day ${day}`)} ${present(ARABIC_MONTH_NAMES[month - 1], `month ${month}`)}`
    return year === undefined ? said : `${said} ${present(arabicCardinal(year), `the words for ${year}`)}`
  },
  percent: (written) => `${ARABIC_SPEAKER.number(written)} بِالْمِائَه`,
  symbols: { dot: 'نُقْطَه', at: 'آتْ', dash: 'شَرْطَه', underscore: 'أَنْدَرْسْكُور', plus: 'زَائِد' },
  groupPause: '، ',
}
