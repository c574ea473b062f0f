/**
 * Speed of the offline TTS engine (eSpeak NG in a worker thread): the time to initialise,
 * the first synthesis after it, and warm throughput in seconds of audio per second of wall
 * time for English and Arabic paragraphs (the target: 50x or better), with one worker
 * thread and with two serving concurrent calls.
 * Part of `npm run bench` (bench/run.ts); standalone: `npx tsx bench/tts.ts` prints JSON.
 */
import { pathToFileURL } from 'node:url'
import { createEspeakTtsEngine, type TtsEngine } from '../src/engines/tts/tts-engine'
import { VOICES } from '../src/shared/voices'

export interface TtsBenchResult {
  /** Warm throughput, one worker thread, English and Arabic together. */
  audioSecondsPerWallSecond: number
  englishAudioSecondsPerWallSecond: number
  arabicAudioSecondsPerWallSecond: number
  /** Two worker threads, four calls at a time. */
  twoWorkersAudioSecondsPerWallSecond: number
  /** createEspeakTtsEngine() until ready: worker thread start and eSpeak load. */
  initMs: { p50: number; max: number; runs: number }
  /** The first sentence after initialising, while V8 still optimises the synthesizer. */
  firstSentenceMs: number
  audioSecondsSynthesized: number
  target: string
}

const INIT_RUNS = 5
const ROUNDS = 3

const ENGLISH_PARAGRAPHS = [
  'Thank you for calling the front desk. We have received your request and a member of our team will call you back within one business day. ' +
    'If your matter is urgent, please stay on the line and we will connect you to the next available agent.',
  'Your appointment with the dental clinic is confirmed for Tuesday, the fourteenth of March, at half past ten in the morning. ' +
    'Please arrive ten minutes early and bring your insurance card. To change or cancel the appointment, reply to this message or call us.',
  'We are writing about invoice number four thousand and twelve, which was due last Friday. If you have already paid, thank you, and please ignore this reminder. ' +
    'Otherwise you can pay online, by card over the phone, or at any of our offices during opening hours.',
]

const ARABIC_PARAGRAPHS = [
  'شكراً لاتصالكم بمكتب الاستقبال. لقد تلقينا طلبكم وسيتصل بكم أحد أعضاء فريقنا خلال يوم عمل واحد. ' +
    'إذا كان الأمر عاجلاً، يرجى البقاء على الخط وسنقوم بتحويلكم إلى أول موظف متاح.',
  'تم تأكيد موعدكم في عيادة الأسنان يوم الثلاثاء الساعة العاشرة والنصف صباحاً. يرجى الحضور قبل الموعد بعشر دقائق وإحضار بطاقة التأمين. ' +
    'لتغيير الموعد أو إلغائه، يمكنكم الرد على هذه الرسالة أو الاتصال بنا.',
  'نكتب إليكم بخصوص الفاتورة رقم أربعة آلاف واثني عشر، والتي كان موعد استحقاقها يوم الجمعة الماضي. إذا كنتم قد دفعتم بالفعل فشكراً لكم. ' +
    'وإلا يمكنكم الدفع عبر الإنترنت أو بالبطاقة عبر الهاتف أو في أي من مكاتبنا خلال ساعات العمل.',
]

const round = (value: number, digits = 1) => Number(value.toFixed(digits))

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

/** Synthesizes every paragraph with every voice of its language; returns audio and wall seconds. */
async function speakAll(engine: TtsEngine, lang: 'en' | 'ar', rounds: number, concurrency = 1): Promise<{ audio: number; wall: number }> {
  const paragraphs = lang === 'en' ? ENGLISH_PARAGRAPHS : ARABIC_PARAGRAPHS
  const calls = VOICES.filter((voice) => voice.lang === lang).flatMap((voice) => paragraphs.map((text) => ({ text, voiceId: voice.id })))
  const work = Array.from({ length: rounds }, () => calls).flat()
  let audio = 0
  const started = performance.now()
  let next = 0
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < work.length) {
        const call = work[next++]!
        const speech = await engine.synthesize(call.text, call.voiceId)
        audio += speech.durationSeconds
      }
    }),
  )
  return { audio, wall: (performance.now() - started) / 1000 }
}

export async function benchTts(): Promise<TtsBenchResult> {
  const inits: number[] = []
  for (let run = 0; run < INIT_RUNS; run += 1) {
    const started = performance.now()
    const engine = await createEspeakTtsEngine()
    inits.push(performance.now() - started)
    await engine.close()
  }

  const engine = await createEspeakTtsEngine()
  try {
    const firstStarted = performance.now()
    await engine.synthesize(ENGLISH_PARAGRAPHS[0]!.split('. ')[0]!, VOICES[0]!.id)
    const firstSentenceMs = performance.now() - firstStarted

    // Warm-up, not counted: one round in each language.
    await speakAll(engine, 'en', 1)
    await speakAll(engine, 'ar', 1)

    const english = await speakAll(engine, 'en', ROUNDS)
    const arabic = await speakAll(engine, 'ar', ROUNDS)

    const pool = await createEspeakTtsEngine({ workers: 2 })
    let twoWorkers: { audio: number; wall: number }
    try {
      await speakAll(pool, 'en', 1, 4)
      twoWorkers = await speakAll(pool, 'en', ROUNDS, 4)
    } finally {
      await pool.close()
    }

    return {
      audioSecondsPerWallSecond: round((english.audio + arabic.audio) / (english.wall + arabic.wall)),
      englishAudioSecondsPerWallSecond: round(english.audio / english.wall),
      arabicAudioSecondsPerWallSecond: round(arabic.audio / arabic.wall),
      twoWorkersAudioSecondsPerWallSecond: round(twoWorkers.audio / twoWorkers.wall),
      initMs: { p50: round(median(inits)), max: round(Math.max(...inits)), runs: INIT_RUNS },
      firstSentenceMs: round(firstSentenceMs),
      audioSecondsSynthesized: round(english.audio + arabic.audio),
      target: 'audioSecondsPerWallSecond >= 50',
    }
  } finally {
    await engine.close()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await benchTts(), null, 2))
}
