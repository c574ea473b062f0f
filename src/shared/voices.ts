/**
 * The fixed catalogue of 14 voices. Ids are stable forever: clients store them
 * (`voiceId` on agents and TTS jobs), so a voice may be renamed but never re-keyed.
 */
export type VoiceLang = 'en' | 'ar'
export type VoiceGender = 'female' | 'male'

export interface Voice {
  id: string
  name: string
  lang: VoiceLang
  gender: VoiceGender
  /** Accent or variety, for people choosing a voice. */
  accent: string
  description: string
}

export const VOICES: readonly Voice[] = [
  {
    id: 'fe68337a-10d3-4648-99bb-2bb04554b6cf',
    name: 'Ava',
    lang: 'en',
    gender: 'female',
    accent: 'American',
    description: 'Warm and clear; a friendly front-desk voice.',
  },
  {
    id: 'd7c17d05-0c73-4196-8cd2-25f2687d90b0',
    name: 'Ethan',
    lang: 'en',
    gender: 'male',
    accent: 'American',
    description: 'Steady and confident; suits sales and support.',
  },
  {
    id: '23122556-e2c0-461a-8eb5-b59a2ab5727b',
    name: 'Grace',
    lang: 'en',
    gender: 'female',
    accent: 'British',
    description: 'Calm and precise; suits bookings and reminders.',
  },
  {
    id: '131fb3d1-06b1-4da0-9df8-f3ffa912b311',
    name: 'Oliver',
    lang: 'en',
    gender: 'male',
    accent: 'British',
    description: 'Measured and formal; suits surveys and notices.',
  },
  {
    id: 'db8fcffa-ee5c-4f47-8e33-61a8dd7a591d',
    name: 'Isla',
    lang: 'en',
    gender: 'female',
    accent: 'Scottish',
    description: 'Bright and lively; suits outreach.',
  },
  {
    id: '70e3b4e6-c53d-4cb9-a499-819b984065d2',
    name: 'Marcus',
    lang: 'en',
    gender: 'male',
    accent: 'Caribbean',
    description: 'Relaxed and deep; suits concierge and hospitality.',
  },
  {
    id: 'ac6cefc6-80b4-41ae-a5a0-f8ca90c2e2f2',
    name: 'Harper',
    lang: 'en',
    gender: 'female',
    accent: 'American',
    description: 'Quick and upbeat; suits short confirmations.',
  },
  {
    id: '16677e49-bcd2-4044-adb3-541626c49304',
    name: 'Layla',
    lang: 'ar',
    gender: 'female',
    accent: 'Modern Standard Arabic',
    description: 'Warm and clear; a friendly front-desk voice.',
  },
  {
    id: 'f738ab97-f3a6-4bfd-996a-0dacb6d9252a',
    name: 'Omar',
    lang: 'ar',
    gender: 'male',
    accent: 'Modern Standard Arabic',
    description: 'Steady and confident; suits sales and support.',
  },
  {
    id: '12aefec9-90b5-4397-8a05-e82a35a625d3',
    name: 'Salma',
    lang: 'ar',
    gender: 'female',
    accent: 'Modern Standard Arabic',
    description: 'Calm and precise; suits bookings and reminders.',
  },
  {
    id: 'bb4233cf-b34b-4def-9654-acf73dbde890',
    name: 'Karim',
    lang: 'ar',
    gender: 'male',
    accent: 'Modern Standard Arabic',
    description: 'Measured and formal; suits surveys and notices.',
  },
  {
    id: '1901056d-58b3-4e82-87eb-785af536671e',
    name: 'Nour',
    lang: 'ar',
    gender: 'female',
    accent: 'Modern Standard Arabic',
    description: 'Bright and lively; suits outreach.',
  },
  {
    id: '47fb0122-054b-4ed1-af20-18a72f37dc9c',
    name: 'Yousef',
    lang: 'ar',
    gender: 'male',
    accent: 'Modern Standard Arabic',
    description: 'Deep and reassuring; suits collections and healthcare.',
  },
  {
    id: 'e5c47d3e-9b33-4fd8-bf04-66ace52a52e7',
    name: 'Rania',
    lang: 'ar',
    gender: 'female',
    accent: 'Modern Standard Arabic',
    description: 'Quick and upbeat; suits short confirmations.',
  },
] as const

export const VOICE_IDS = VOICES.map((voice) => voice.id) as [string, ...string[]]

const VOICES_BY_ID = new Map(VOICES.map((voice) => [voice.id, voice]))

export function findVoice(id: string): Voice | undefined {
  return VOICES_BY_ID.get(id)
}

/** The voice an agent gets when it is created without one: the first of its language. */
export function defaultVoiceFor(lang: VoiceLang): Voice {
  const voice = VOICES.find((candidate) => candidate.lang === lang)
  if (!voice) throw new Error(`no voice for ${lang}`)
  return voice
}

/**
 * The cloud's public speaker names (its realtime TTS docs list them, with their dialects), each
 * taken as one of the 14 catalogue voices of the same language and gender, so a client copied
 * from those docs speaks. Only a spelling: the audio is the catalogue voice's, and answers name
 * the catalogue voice. Arabic names rotate over the Arabic voices of their gender; a name the
 * catalogue already has (Salma) is that voice. docs/api.md lists the whole table.
 */
const PUBLIC_SPEAKERS: Record<VoiceLang, Record<VoiceGender, readonly string[]>> = {
  ar: {
    female: [
      'Salma',
      'Lyali',
      'Mariam',
      'Dalal',
      'Lana',
      'Carla',
      'Nada',
      'Mais',
      'Fatma',
      'Hiba',
      'Layan',
      'Khadija',
      'Dima',
      'Talin',
      'Rema',
      'Sarah',
      'Faiza',
      'Alia',
      'Noor',
      'Hind',
      'Safa',
      'Somaya',
      'Ruba',
      'Deema',
      'Mai',
      'Aisha',
      'Rahma',
    ],
    male: [
      'Amjad',
      'Jasem',
      'Samir',
      'Ali',
      'Mazen',
      'Majd',
      'Ahmed',
      'Fahd',
      'Rami',
      'Hamdan',
      'Maher',
      'Majid',
      'Mansour',
      'Hasan',
      'Sayed',
      'Faisal',
      'Hatem',
      'Jaber',
      'Salem',
      'Tamim',
      'Khalid',
    ],
  },
  en: { female: ['Emma'], male: ['James'] },
}

/** Public speaker name (lower case) → the catalogue voice it speaks with. */
export const SPEAKER_VOICES: ReadonlyMap<string, Voice> = new Map(
  (Object.keys(PUBLIC_SPEAKERS) as VoiceLang[]).flatMap((lang) =>
    (Object.keys(PUBLIC_SPEAKERS[lang]) as VoiceGender[]).flatMap((gender) => {
      const voices = VOICES.filter((voice) => voice.lang === lang && voice.gender === gender)
      return PUBLIC_SPEAKERS[lang][gender].map((name, index): [string, Voice] => [
        name.toLowerCase(),
        voices.find((voice) => voice.name === name) ?? (voices[index % voices.length] as Voice),
      ])
    }),
  ),
)
