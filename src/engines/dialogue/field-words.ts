import { ARABIC_MEMBER_LABELS, ENUM_WORD_SYNONYMS } from './enum-glossary'
import { humanise, type Slot } from './slot-plan'
import { describedMemberNames } from './value-extraction'

/**
 * How the offline engine names a field and its members to the caller: the description without
 * the notes meant for whoever writes the outcome (formats, examples), members in words, and the
 * Arabic for fields and members described only in English, so an Arabic agent never says an
 * English word.
 */

/** A machine format named in a description, with the words that introduce it. */
const FORMAT_NOTE =
  /[,،:]?\s*(?:(?:as|in|using|formatted as|format|بصيغة|بتنسيق|على شكل|بالشكل)\s+)?(?:the\s+)?(?:24-hour\s+)?(?:YYYY-MM-DD(?:[ T]HH:MM)?|HH:MM(?::SS)?|DD\/MM\/YYYY|MM\/DD\/YYYY|E\.?164|ISO[- ]?8601)(?:\s+format)?/gi

/** A description cut to its first clause, without notes for the outcome writer ("as YYYY-MM-DD", "; empty string if …"). */
export function coreDescription(description: string): string {
  return (
    description
      .split(/[;؛]/)[0]!
      .replace(/[.،,:\s]+$/u, '')
      .replace(/\s*\((?:[^)]*)\)/g, '')
      .replace(/,?\s+as (?:the )?(?:caller|candidate|customer|guest|they|you) (?:stated|said|gave|confirmed) it$/i, '')
      .replace(
        /,?\s+(?:as confirmed(?: on the call)?|as the caller said it|in their words|in the caller[’']s words|in your words|as yyyy-mm-dd|as 24-hour hh:mm|as hh:mm|by their own account|e\.g\..*)$/i,
        '',
      )
      .replace(/\s+(?:as YYYY-MM-DD|as 24-hour HH:MM|as HH:MM)/g, '')
      // A format note is for the outcome writer, not the caller: "order number, two letters, a dash and five digits".
      .replace(
        /[,:]\s*(?:(?:one|two|three|four|five|six|\d+) (?:letters?|digits?|characters?)|a (?:dash|hyphen)|(?:and|then) )[^.;]*$/i,
        '',
      )
      .replace(/\s*(?:كما أكده|كما ذكرها العميل|بكلماته|بكلمات العميل|بصيغة YYYY-MM-DD)\s*/g, ' ')
      // Any other format note ("Appointment time, HH:MM", "وقت الحجز بصيغة HH:MM", "in E.164").
      .replace(FORMAT_NOTE, '')
      .replace(/\s+([،,])/gu, '$1')
      .replace(/\s{2,}/g, ' ')
      .replace(/[.،,:\s]+$/u, '')
      .trim()
  )
}

export function englishMember(member: unknown): string {
  return typeof member === 'string' ? humanise(member) : String(member)
}
export function arabicMember(member: unknown, slot?: Slot): string | undefined {
  if (typeof member !== 'string') return String(member)
  // The name the field's own Arabic description gives the member ("خارجي" for outdoor) comes first.
  const described = slot ? describedMemberNames(slot.shape.description, slot.members).get(member) : undefined
  if (described && /[\u0600-\u06FF]/.test(described)) return described
  if (ARABIC_MEMBER_LABELS[member]) return ARABIC_MEMBER_LABELS[member]
  if (/[\u0600-\u06FF]/.test(member)) return member
  // A one-word member the glossary has callers' words for: its first Arabic word ("damaged" → تالف).
  const words = member.split(/[_\s-]+/)
  return words.length === 1 ? ENUM_WORD_SYNONYMS[words[0]!.toLowerCase()]?.find((word) => /[\u0600-\u06FF]/.test(word)) : undefined
}

/** Arabic for the words English field names are made of, so an Arabic agent never says an English word. */
const ARABIC_FIELD_WORDS: Readonly<Record<string, string>> = {
  'order number': 'رقم الطلب',
  'booking reference': 'رقم الحجز',
  'reference number': 'الرقم المرجعي',
  'account number': 'رقم الحساب',
  'phone number': 'رقم الجوال',
  'full name': 'الاسم الكامل',
  'customer name': 'الاسم',
  'email address': 'البريد الإلكتروني',
  name: 'الاسم',
  email: 'البريد الإلكتروني',
  phone: 'رقم الجوال',
  mobile: 'رقم الجوال',
  date: 'التاريخ',
  time: 'الوقت',
  address: 'العنوان',
  city: 'المدينة',
  reason: 'السبب',
  notes: 'الملاحظات',
  order: 'الطلب',
  number: 'الرقم',
  reference: 'الرقم المرجعي',
  'tracking code': 'رمز التتبع',
  code: 'الرمز',
  amount: 'المبلغ',
  quantity: 'الكمية',
  issue: 'المشكلة',
  problem: 'المشكلة',
  department: 'القسم',
  age: 'العمر',
  budget: 'الميزانية',
}

/** A field's name in Arabic: the glossary's phrase for its English words, or a neutral "this information". */
export function arabicLabel(slot: Slot): string {
  if (/[\u0600-\u06FF]/.test(slot.label)) return slot.label
  const phrase = Object.keys(ARABIC_FIELD_WORDS)
    .sort((a, b) => b.length - a.length)
    .find((words) => ` ${slot.label} `.includes(` ${words} `))
  return phrase ? ARABIC_FIELD_WORDS[phrase]! : 'هذه المعلومة'
}
