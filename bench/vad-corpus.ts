/**
 * Noisy calls for judging voice detectors, made from the project's own eSpeak voices at the
 * call's 16 kHz, with seeded noise so every run hears the same audio. Used by bench/vad.ts and by
 * test/engines/audio/voice-detector-noise.test.ts.
 *
 * Babble (a room of other talkers): each of the 14 catalogue voices reads a paragraph that the
 * callers never say; a talker is those paragraphs one after another in a seeded order, looped to
 * the length, shifted by a seeded offset, and every other talker played backwards (so no one
 * sentence can be followed, as in a crowd); the talkers are scaled to the same power and summed.
 */
import { float32FromInt16 } from '../src/engines/audio/pcm-encoding'
import { createResampler } from '../src/engines/audio/speex-resampler'
import { parseWavPcm16Mono } from '../src/engines/audio/wav-file'
import type { TtsEngine } from '../src/engines/tts/tts-engine'
import { VOICES } from '../src/shared/voices'
import { seededRandom } from '../test/helpers/seeded-random'

export const RATE = 16_000

export interface Utterance {
  voiceId: string
  text: string
}

const voice = (name: string) => {
  const found = VOICES.find((candidate) => candidate.name === name)
  if (!found) throw new Error(`No voice ${name}`)
  return found.id
}

/** 44 caller turns: English and Arabic, seven women and seven men, from one word to about 8 s. */
export const CALLER_TURNS: Utterance[] = [
  ...(
    [
      ['Ethan', 'Hello, I would like to book an appointment for next Tuesday morning.'],
      ['Ava', 'Yes, that works for me. My name is Sarah Collins.'],
      ['Oliver', 'Could you please repeat the address? I did not catch the street name.'],
      ['Harper', 'No.'],
      ['Grace', 'Yes please.'],
      ['Marcus', 'I am calling about the invoice you sent last week, the amount looks wrong to me.'],
      ['Isla', 'Okay.'],
      ['Ethan', 'My account number is four five seven two nine one.'],
      ['Ava', 'Can I change the delivery to Friday afternoon instead?'],
      ['Oliver', 'Thank you.'],
      [
        'Grace',
        'I have been waiting for a refund for nearly three weeks now, and nobody has called me back, so I would really like to know what is happening.',
      ],
      ['Marcus', 'Sure.'],
      ['Harper', 'What time do you close on Saturdays?'],
      ['Isla', 'It is for my daughter, she is seven years old and she has had a fever since yesterday evening.'],
      ['Ethan', 'Wait, sorry, can you say that again?'],
      ['Ava', 'Goodbye.'],
      ['Oliver', 'I would like to cancel my subscription, please.'],
      ['Grace', 'The parcel arrived damaged and the box was open.'],
      ['Marcus', 'Hmm, let me think about it.'],
      ['Harper', 'Is there parking near the clinic?'],
      ['Isla', 'Right, and how much will that cost in total, including the tax and the delivery?'],
      ['Ethan', 'Perfect, see you then.'],
    ] as const
  ).map(([name, text]) => ({ voiceId: voice(name), text })),
  ...(
    [
      ['Omar', 'مرحبا، أريد أن أحجز موعدا مع الطبيب يوم الثلاثاء.'],
      ['Layla', 'نعم، هذا مناسب لي. اسمي سارة.'],
      ['Yousef', 'هل يمكنك أن تعيد العنوان من فضلك؟'],
      ['Rania', 'شكرا جزيلا.'],
      ['Karim', 'لا.'],
      ['Salma', 'أتصل بخصوص الفاتورة التي وصلتني الأسبوع الماضي، المبلغ غير صحيح.'],
      ['Nour', 'حسنا.'],
      ['Omar', 'رقم حسابي أربعة خمسة سبعة اثنان تسعة واحد.'],
      ['Layla', 'هل يمكن تغيير موعد التوصيل إلى يوم الجمعة بعد الظهر؟'],
      ['Yousef', 'نعم.'],
      ['Rania', 'أنتظر استرداد المبلغ منذ ثلاثة أسابيع تقريبا، ولم يتصل بي أحد حتى الآن، وأريد أن أعرف ماذا يحدث.'],
      ['Karim', 'طيب، سأفكر في الأمر.'],
      ['Salma', 'متى تغلقون يوم السبت؟'],
      ['Nour', 'الموعد لابني، عمره سبع سنوات وعنده حرارة منذ مساء أمس.'],
      ['Omar', 'عفوا، هل يمكنك أن تكرر ذلك؟'],
      ['Layla', 'مع السلامة.'],
      ['Yousef', 'أريد إلغاء اشتراكي من فضلك.'],
      ['Rania', 'وصل الطرد تالفا وكان الصندوق مفتوحا.'],
      ['Karim', 'هل يوجد موقف سيارات قرب العيادة؟'],
      ['Salma', 'تمام، وكم سيكون المبلغ الإجمالي مع الضريبة والتوصيل؟'],
      ['Nour', 'ممتاز، أراك لاحقا.'],
      ['Omar', 'أهلا.'],
    ] as const
  ).map(([name, text]) => ({ voiceId: voice(name), text })),
]

/** What the room says: never a caller's words, so babble cannot be mistaken for the caller. */
const BABBLE_PARAGRAPHS: Record<'en' | 'ar', string> = {
  en: 'The weather has been strange this year, with rain in the summer and sunshine all through the winter. My brother moved to the coast and opened a small shop that sells bicycles and coffee. We should meet for lunch on Thursday if the trains are running.',
  ar: 'كان الطقس غريبا هذا العام، مطر في الصيف وشمس طوال الشتاء. انتقل أخي إلى الساحل وفتح متجرا صغيرا يبيع الدراجات والقهوة. يجب أن نلتقي على الغداء يوم الخميس إذا كانت القطارات تعمل.',
}

export async function speak16k(tts: TtsEngine, text: string, voiceId: string): Promise<Float32Array> {
  const speech = parseWavPcm16Mono((await tts.synthesize(text, voiceId)).wav)
  const resampler = await createResampler(speech.sampleRate, RATE)
  try {
    return float32FromInt16(resampler.resample(speech.samples))
  } finally {
    resampler.dispose()
  }
}

export function power(samples: Float32Array, from = 0, to = samples.length): number {
  let sum = 0
  for (let index = from; index < to; index += 1) sum += samples[index]! * samples[index]!
  return sum / Math.max(1, to - from)
}

/** An utterance without eSpeak's silence at either end: the 10 ms windows within 40 dB of the loudest, in samples. */
export function voicedSpan(samples: Float32Array): [number, number] {
  const window = RATE / 100
  const levels: number[] = []
  for (let offset = 0; offset + window <= samples.length; offset += window)
    levels.push(10 * Math.log10(power(samples, offset, offset + window) + 1e-12))
  const threshold = Math.max(...levels) - 40
  return [levels.findIndex((level) => level >= threshold) * window, (levels.findLastIndex((level) => level >= threshold) + 1) * window]
}

export interface SpeechStream {
  clean: Float32Array
  /** Where each caller turn's voice is, in samples. */
  spans: [number, number][]
}

/** The turns one after another, with seeded gaps of 1.2-2.0 s before, between and after them. */
export async function callerStream(tts: TtsEngine, turns: Utterance[], seed = 3): Promise<SpeechStream> {
  const random = seededRandom(seed)
  const pieces: Float32Array[] = []
  const spans: [number, number][] = []
  let length = 0
  const add = (piece: Float32Array) => {
    pieces.push(piece)
    length += piece.length
  }
  for (const turn of turns) {
    add(new Float32Array(Math.round((1.2 + 0.8 * random()) * RATE)))
    const speech = await speak16k(tts, turn.text, turn.voiceId)
    const [from, to] = voicedSpan(speech)
    spans.push([length + from, length + to])
    add(speech)
  }
  add(new Float32Array(Math.round(1.5 * RATE)))
  const clean = new Float32Array(length)
  let offset = 0
  for (const piece of pieces) {
    clean.set(piece, offset)
    offset += piece.length
  }
  return { clean, spans }
}

/** The mean power of the callers' voices (over their voiced spans): the S of the SNR. */
export function speechPower(stream: SpeechStream): number {
  let sum = 0
  let count = 0
  for (const [from, to] of stream.spans) {
    sum += power(stream.clean, from, to) * (to - from)
    count += to - from
  }
  return sum / count
}

/** Gaussian white noise (Box-Muller over a seeded generator). */
export function whiteNoise(length: number, seed: number): Float32Array {
  const random = seededRandom(seed)
  const out = new Float32Array(length)
  for (let index = 0; index < length; index += 2) {
    const radius = Math.sqrt(-2 * Math.log(1 - random()))
    const angle = 2 * Math.PI * random()
    out[index] = radius * Math.cos(angle)
    if (index + 1 < length) out[index + 1] = radius * Math.sin(angle)
  }
  return out
}

/** Mains hum: 50 Hz and its harmonics, falling off, with a slow wobble in level. */
export function hum(length: number, seed: number): Float32Array {
  const phases = Array.from({ length: 6 }, seededRandom(seed)).map((value) => value * 2 * Math.PI)
  const out = new Float32Array(length)
  for (let index = 0; index < length; index += 1) {
    const time = index / RATE
    let value = 0
    for (let harmonic = 1; harmonic <= 6; harmonic += 1)
      value += Math.sin(2 * Math.PI * 50 * harmonic * time + phases[harmonic - 1]!) / harmonic
    out[index] = value * (1 + 0.1 * Math.sin(2 * Math.PI * 0.3 * time))
  }
  return out
}

/** Each catalogue voice reading the room's paragraph in its language (synthesize once, cut many babbles). */
export async function babbleVoices(tts: TtsEngine, voiceNames?: string[]): Promise<Float32Array[]> {
  const voices = voiceNames ? VOICES.filter((candidate) => voiceNames.includes(candidate.name)) : VOICES
  return Promise.all(voices.map((candidate) => speak16k(tts, BABBLE_PARAGRAPHS[candidate.lang], candidate.id)))
}

/** `talkers` people talking at once for `length` samples (see the header for how). */
export function babble(readings: Float32Array[], length: number, seed: number, talkers = 8): Float32Array {
  const random = seededRandom(seed)
  const out = new Float32Array(length)
  for (let talker = 0; talker < talkers; talker += 1) {
    const order = readings.map((reading) => ({ reading, key: random() })).sort((a, b) => a.key - b.key)
    const track = new Float32Array(order.reduce((sum, { reading }) => sum + reading.length, 0))
    let offset = 0
    for (const { reading } of order) {
      track.set(reading, offset)
      offset += reading.length
    }
    if (talker % 2 === 1) track.reverse()
    const shift = Math.floor(random() * track.length)
    const gain = 1 / Math.sqrt(power(track))
    for (let index = 0; index < length; index += 1) out[index]! += track[(index + shift) % track.length]! * gain
  }
  return out
}

/** `noise` scaled so that speech of power `speech` is `snrDb` above it, added to a copy of `clean`. */
export function mix(clean: Float32Array, noise: Float32Array, speech: number, snrDb: number): Float32Array {
  const gain = Math.sqrt(speech / 10 ** (snrDb / 10) / power(noise))
  return clean.map((sample, index) => sample + noise[index]! * gain)
}
