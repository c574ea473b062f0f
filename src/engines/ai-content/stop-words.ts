import { arabicLightStem, normaliseArabic } from './arabic-normalisation'

/**
 * Compact word lists for English and Arabic, written for this engine.
 *
 * Stop words never become keywords: function words, pronouns, spoken fillers and the
 * most generic verbs of speech transcripts ("going", "know", "think").
 * Common words are a small stand-in for a general-frequency baseline: everyday nouns and
 * adjectives ("people", "time", "important") that may still matter, so they are kept but
 * weigh less than words that characterise one text.
 */

const ENGLISH_STOP = new Set(
  `a about above across actually after afterwards again against ago ah all almost alone along already alright also although
  always am among an and another any anybody anyone anything anyway anywhere are around as at away back basically be became
  because become becomes been before being below beside besides between beyond both but by bye can cannot certainly come
  comes came could did do does doing done down during each eight either eighteen eleven else enough er erm especially etc
  even ever every everybody everyone everything everywhere exactly except fifteen fifty first five for forty four from
  further get gets getting give given gives go goes going gone gonna got gotta guess had has have having he hello her here
  hers herself hey hi him himself his hmm how however hundred i if in indeed instead into is it its itself just kind kinda
  know known knows knew last least less let like likely little lot lots made make makes making many may maybe me mean means
  meanwhile might million mine more moreover most mostly much must my myself namely need needs neither never nevertheless
  next nine nineteen ninety no nobody none nor not nothing now nowhere of off often oh ok okay on once one ones only onto or
  other others otherwise our ours ourselves out over own per perhaps please pretty probably put quite rather really right
  said same saw say saying says second see seem seemed seeming seems seen seven seventy several shall she should since six
  sixty so some somebody someone something sometime sometimes somewhat somewhere sort still stuff such sure take taken takes
  taking talk talked talking tell tells ten than thank thanks that the their theirs them themselves then there thereby
  therefore these they thing things think thinking third thirty this those though thought thousand three through
  throughout thus to today together told too toward towards truly try trying twelve twenty two uh um under unless until up
  upon us use used uses using usually very via want wanted wants was way we well went were what whatever when whenever where
  whereas wherever whether which while who whoever whole whom whose why will with within without would yeah yep yes yet
  you your yours yourself yourselves absolutely definitely literally obviously simply totally honestly ask asked asking
  asks look looked looking looks start started`.split(/\s+/),
)

const ENGLISH_COMMON = new Set(
  `able advice answer area bad big bit better best case chance clear couple course day different easy end episode example fact
  form good great group hard high hour idea important issue kind large level life line little long low main matter minute moment
  month new number old part people person piece place podcast point problem question real reason result sense show side simple
  small step system time times type week welcome word world year listener`.split(/\s+/),
)

/** Arabic stop words as usually written; folded with normaliseArabic when loaded. */
const ARABIC_STOP_WRITTEN = `من إلى الى عن على في مع هذا هذه ذلك تلك ذاك هؤلاء أولئك هنا هناك هنالك الذي التي الذين اللذان اللتان
  اللذين اللتين اللواتي اللاتي ما ماذا متى أين كيف لماذا هل لا لم لن ليس ليست ليسوا إن أن إنه أنه إنها أنها إنما كان كانت
  كانوا يكون تكون يكونون أصبح أصبحت صار ظل قد لقد ثم أو أم بل لكن لكنه لكنها كل كلها كله بعض غير سوى بين حتى إذا إذ إذن لأن
  كما مثل عند عندما منذ خلال بعد قبل حول حيث دون فوق تحت أمام وراء خلف لدى هو هي هم هن هما أنت أنتم أنتن أنا نحن له لها لهم
  لهن لنا لك لكم لي به بها بهم بنا بك فيه فيها فيهم منه منها منهم عليه عليها عليهم إليه إليها إليهم عنه عنها عنهم ذات ذو ذي
  نحو أيضا جدا فقط كذلك الآن أي أية أيضًا أحد إحدى يمكن يمكنه يمكنها تم تمت يتم تتم سوف أما إلا عبر ضمن وفق وفقا سواء بينما
  فحسب مجرد كلا كلتا لو لولا كي لكي ليت لعل ثمة هكذا نفس عدة كثير كثيرا كثيرة قليل أكثر أقل يعني طيب حسنا نعم شكرا فعلا
  تقريبا دائما أحيانا ربما مثلا حين حينما بشكل بصورة أثناء بسبب مقابل رغم بالإضافة إضافة كلما هذين هاتين هذان هاتان وحده
  وحدها ما زال لازال يزال تزال مازال إلخ واحد واحدة اثنان اثنين ثلاث ثلاثة أربع أربعة خمس خمسة ستة سبعة ثمانية تسعة عشر عشرة
  عشرين ثلاثين أربعين خمسين ستين سبعين ثمانين تسعين مئة مائة المئة المائة ألف آلاف مليون ضد لدي عليك عليكم إنهم أنهم فإن وإن`

const ARABIC_STOP = new Set(ARABIC_STOP_WRITTEN.split(/\s+/).filter(Boolean).map(normaliseArabic))

/** Everyday Arabic words (reporting verbs, generic nouns), stored as light stems. */
const ARABIC_COMMON = new Set(
  `يقول قال قالت يضيف أضاف يشير أشار يؤكد أكد يرى ترى يختم مهم مهمة كبير كبيرة صغير صغيرة جديد جديدة أول أولى أخرى آخر يوم وقت
  عام سنة شيء أمر طريقة شكل جزء دور مجال خطوة خطوات فرق حديث الناس بعضها أمور حال حالة نتيجة نتائج`
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => arabicLightStem(normaliseArabic(word))),
)

/** True for an English function word or filler; `word` is lower-case (possessive 's already removed). */
export function isEnglishStopWord(word: string): boolean {
  return ENGLISH_STOP.has(word)
}

/** True for an everyday English word that says little about one text (lower-case, singular). */
export function isEnglishCommonWord(word: string): boolean {
  return ENGLISH_COMMON.has(word)
}

/**
 * True for an Arabic function word; `normalised` comes from normaliseArabic. A particle fused in
 * front (وهو، فإنه، بهذا، لذلك) does not hide a stop word.
 */
export function isArabicStopWord(normalised: string): boolean {
  if (ARABIC_STOP.has(normalised)) return true
  const withoutParticle = normalised.replace(/^(?:[وف][بلك]?|[بلك])/, '')
  return withoutParticle !== normalised && withoutParticle.length > 1 && ARABIC_STOP.has(withoutParticle)
}

/** True for an everyday Arabic word; `stem` comes from arabicLightStem. */
export function isArabicCommonStem(stem: string): boolean {
  return ARABIC_COMMON.has(stem)
}
