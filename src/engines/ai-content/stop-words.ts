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

/**
 * Greetings, courtesies and call openers in Arabic: they open and close calls, say nothing
 * about them, and must never become a keyword, hashtag or title word.
 */
const ARABIC_GREETINGS_WRITTEN = `مرحبا مرحبًا أهلا أهلًا أهلين هلا هلو السلام سلام عليكم وعليكم صباح مساء الخير النور الفل العافية يعطيك يعطيكم
  مشكور مشكورة مشكورين شكرًا تسلم تسلمي يسلمو يسلموا الله يخليك ما قصرت قصرتي العفو عفوًا حياك حياكم هلا وغلا تفضل تفضلي تكرم تكرمي تكرموا تكرمو
  مع السلامة سلامتك باي أستاذ أستاذة ياأستاذ سيدي سيدتي حضرتك آسف آسفة آسفين متأسف للأسف`

/** Spoken fillers and hesitations across dialects (يعني، طيب، خلاص…), parts of the day and "suits me" (الصبح، يناسبني): how slots are talked about, never what a call is about. */
const ARABIC_FILLERS_WRITTEN = `يعني طيب تمام خلاص اوكي أوكي ماشي حاضر إيه ايه أيوه أيوة آه اه ايوا امم اممم ااا بس والله يلا يالله
  طب بقى برضه برضو كمان هيك يعني بصراحة صراحة زي ما لأ لا إي اي
  يا أيا الأحد الاثنين الإثنين الثلاثاء الأربعاء الخميس الجمعة السبت الصبح الصباح العصر الظهر المسا المساء بالليل يناسب يناسبني يناسبك تناسبني بيناسبني ينفع`

/**
 * Dialect function words, one list a region. Gulf: ابي، وش، شلون، الحين، ترى…; Egyptian: عايز،
 * إزاي، ده، دي، مش، فين…; Levantine: بدي، شو، هلق، هيك، منيح، كتير…; each as usually written.
 */
const GULF_STOP_WRITTEN = `ابي أبي ابغى أبغى ابغي تبي تبغى نبي يبي وش ايش إيش شلون شلونك الحين توه توني ترى مو موب ماني مب عاد
  اللي هذي هاذي ذي ذا حق حقي حقك حقت وايد زين يبيله عشان علشان شي شيء فيه ماله ماعليه لين`
const EGYPTIAN_STOP_WRITTEN = `عايز عايزة عايزين عاوز ازاي إزاي ده دي دول مش مفيش فين امتى إمتى ليه كده كدا اللي بتاع بتاعت بتاعي بتاعك
  أوي اوي خالص عشان علشان حاجة حاجه يعني بقى لسه لسة هو هي احنا إحنا انت إنت انتي إنتي هنا فيه معلش`
const LEVANTINE_STOP_WRITTEN = `بدي بدك بدنا بدكن بدو شو شي ليش وين هلق هلأ هيك هيدا هيدي هاد هاي هدول منيح منيحة كتير كثير لسا لسه
  عم رح راح إي اي ايه مش مو فيي فيك فينا معي معك معو كمان هون هنيك شوي شوية اللي يلي لأنو لانو انو إنو`

const ARABIC_STOP = new Set(
  [ARABIC_STOP_WRITTEN, ARABIC_GREETINGS_WRITTEN, ARABIC_FILLERS_WRITTEN, GULF_STOP_WRITTEN, EGYPTIAN_STOP_WRITTEN, LEVANTINE_STOP_WRITTEN]
    .join(' ')
    .split(/\s+/)
    .filter(Boolean)
    .map(normaliseArabic),
)

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
  return arabicCliticForms(normalised).some((form) => ARABIC_STOP.has(form))
}

/**
 * The word without the clitics speech fuses to it: a leading conjunction and preposition (و، ف،
 * ب، ل، ك), the vocative يا written joined (ياأحمد), the dialect future and progressive prefixes
 * (ح، هـ، ب، رح) and a trailing pronoun (ـك، ـكم، ـه، ـها، ـي، ـنا), each tried alone; only
 * forms of two letters or more.
 */
export function arabicCliticForms(normalised: string): string[] {
  const forms = new Set<string>()
  const front = [/^(?:[وف][بلك]?|[بلك])/, /^يا(?=\p{L}{2})/u, /^(?:[وف]?(?:ح|ه|ب|رح)(?=[يتنا]\p{L}{2}))/u]
  const back = /(?:كم|كن|ها|هم|نا|ك|ه|ي)$/
  for (const pattern of front) forms.add(normalised.replace(pattern, ''))
  for (const form of [...forms, normalised]) forms.add(form.replace(back, ''))
  forms.delete(normalised)
  return [...forms].filter((form) => form.length > 1)
}

const ENGLISH_GREETINGS = new Set(
  `hello hi hey hiya morning afternoon evening thanks thank cheers welcome goodbye bye dear sir madam ma'am sorry apologies
  pleasure lovely great perfect fine brilliant cool`.split(/\s+/),
)

/**
 * Weekdays and number words ("forty-five") name when and how many: the call card reports them
 * as facts; as keywords or hashtags they say nothing about the topic.
 */
const ENGLISH_WHEN_AND_HOW_MANY =
  /^(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-(?:one|two|three|four|five|six|seven|eight|nine))?|hundred|thousand|million|billion|noon|midnight)$/

/** True for an English weekday or number word, lower-case. */
export function isEnglishWhenOrHowMany(word: string): boolean {
  return ENGLISH_WHEN_AND_HOW_MANY.test(word)
}

/**
 * A greeting or courtesy word (English "hello", "thanks", "lovely"; Arabic "مرحبا", "يعطيك
 * العافية", "مشكور"), for keeping them out of keywords, hashtags and titles. English lower-case.
 */
export function isGreetingWord(word: string): boolean {
  if (ENGLISH_GREETINGS.has(word)) return true
  const normalised = normaliseArabic(word)
  return ARABIC_GREETING_SET.has(normalised) || arabicCliticForms(normalised).some((form) => ARABIC_GREETING_SET.has(form))
}

const ARABIC_GREETING_SET = new Set(ARABIC_GREETINGS_WRITTEN.split(/\s+/).filter(Boolean).map(normaliseArabic))

/** True for an everyday Arabic word; `stem` comes from arabicLightStem. */
export function isArabicCommonStem(stem: string): boolean {
  return ARABIC_COMMON.has(stem)
}
