// Content words as the lexical floor compares them: stop words and hedges out, inflections folded
// ("generated", "generating", "generation" meet), British and American spellings and common
// paraphrase synonyms mapped to one form ("rose", "increased", "grew" are one word here). Applied
// to the claim and to the page alike, so the floor measures shared meaning, not shared spelling.

const STOP = new Set(
  (
    'a an and are as at be been being but by can could did do does for from had has have he her his how i if in ' +
    'into is it its itself may might more most much must no nor not of on one or our over own same she should so ' +
    'some such than that the their them then there these they this those through to too under until up very was ' +
    'we were what when where which while who whom why will with would you your also both each few other about ' +
    'above after again against all any because before below between during further here just now once only out ' +
    'off per via yet according around approximately roughly nearly almost estimated cent percent pct than ' +
    'said says say told reported report reports noted stated'
  ).split(' '),
);

/** Number words are figures (numbers.ts), not content words. */
const NUMBER_WORDS = new Set(
  (
    'zero two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen ' +
    'eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million millions ' +
    'billion billions trillion dozen half halves third thirds quarter quarters fifth fifths tenth tenths bn mn mln tn'
  ).split(' '),
);

/** Words a paraphrase swaps for each other; each group meets at its first word. */
const SYNONYMS: string[][] = [
  [
    'increase',
    'rise',
    'rose',
    'risen',
    'grow',
    'grew',
    'grown',
    'growth',
    'climb',
    'gain',
    'boost',
    'jump',
    'surge',
    'soar',
    'higher',
  ],
  [
    'decrease',
    'decline',
    'fall',
    'fell',
    'fallen',
    'drop',
    'reduce',
    'reduction',
    'lower',
    'cut',
    'shrink',
    'shrank',
    'slump',
    'plunge',
    'fewer',
    'less',
  ],
  ['large', 'big', 'huge', 'major', 'substantial', 'vast', 'great', 'sizeable', 'massive'],
  ['small', 'little', 'minor', 'tiny', 'modest'],
  ['buy', 'bought', 'purchase', 'acquire'],
  ['begin', 'began', 'begun', 'start', 'launch', 'commence', 'initiate'],
  ['end', 'finish', 'conclude', 'stop', 'halt', 'cease', 'shutdown', 'shut'],
  ['show', 'shown', 'demonstrate', 'reveal', 'indicate', 'find', 'found', 'suggest'],
  ['use', 'utilise', 'utilize', 'employ', 'usage'],
  ['produce', 'generate', 'create', 'make', 'made', 'manufacture', 'yield', 'output', 'deliver', 'supply'],
  ['build', 'built', 'construct', 'erect', 'install'],
  ['plan', 'intend', 'aim', 'propose', 'expect', 'schedule'],
  ['announce', 'state', 'claim', 'declare', 'confirm'],
  ['help', 'aid', 'assist'],
  ['fear', 'worry', 'concern', 'caution', 'cautious', 'wary', 'anxious'],
  ['company', 'firm', 'business', 'operator', 'corporation', 'enterprise'],
  ['people', 'person', 'resident', 'citizen', 'public', 'individual', 'inhabitant'],
  ['city', 'town', 'urban', 'municipal'],
  ['car', 'vehicle', 'automobile'],
  ['money', 'funding', 'fund', 'cash', 'finance', 'budget'],
  ['job', 'employment', 'work', 'workforce'],
  ['die', 'death', 'dead', 'fatal', 'kill', 'fatality'],
  ['quick', 'fast', 'rapid', 'swift'],
  ['need', 'require', 'requirement', 'necessary'],
  ['allow', 'permit', 'let', 'enable'],
  ['new', 'novel', 'recent'],
  ['study', 'research', 'survey', 'analysis'],
  ['scientist', 'researcher', 'expert'],
  ['doctor', 'physician', 'clinician'],
  ['child', 'children', 'kid'],
  ['mainly', 'mostly', 'largely', 'primarily', 'chiefly'],
  ['cost', 'price', 'expense', 'spend', 'spent'],
  ['keep', 'kept', 'remain', 'stay', 'stayed'],
  ['online', 'available', 'availability', 'operational', 'running'],
  ['forecast', 'prediction', 'projection', 'estimate', 'predict', 'expected'],
  ['exceed', 'beat', 'surpass', 'outperform', 'top'],
  ['twice', 'double', 'doubled'],
  ['hour', 'hr'],
  ['kilometre', 'kilometer', 'km'],
  ['metre', 'meter'],
  ['litre', 'liter'],
  ['kilogram', 'kg', 'kilo'],
  // "11.4 GWh" and "11.4 gigawatt-hours" share the "gigawatt" (hyphenated words are split).
  ['megawatt', 'mw', 'mwh'],
  ['gigawatt', 'gw', 'gwh'],
  ['kilowatt', 'kw', 'kwh'],
  ['celsius', 'centigrade'],
  ['colour', 'color'],
  ['centre', 'center'],
];

/**
 * A light stem: inflections stripped (plural, past, -ing, -ly), a doubled final consonant undone
 * ("stopped" → "stop"), then cut to six letters so derivations meet ("generation", "generated" →
 * "genera"). Crude on purpose: both sides get the same treatment, and merging too much only makes
 * the floor more lenient, never stricter.
 */
export function stem(word: string): string {
  let w = word.toLowerCase().replace(/['\u2019]s$/, '');
  const strip = (suffix: string, min: number, add = '') => {
    if (w.length - suffix.length >= min && w.endsWith(suffix)) {
      w = w.slice(0, -suffix.length) + add;
      return true;
    }
    return false;
  };
  if (!(strip('ies', 2, 'y') || strip('ied', 2, 'y') || strip('sses', 3, 'ss'))) {
    const inflected = strip('ing', 3) || strip('ed', 3) || strip('ly', 4) || strip('es', 4) || strip('s', 3);
    if (inflected && /([^aeiouslz])\1$/.test(w)) w = w.slice(0, -1);
    if (w.endsWith('s') && !w.endsWith('ss') && w.length > 3) w = w.slice(0, -1);
  }
  // British and American: -ise/-ize, -isation/-ization.
  w = w.replace(/is(ation|e|ed|ing)$/, 'iz$1');
  if (w.length > 6) w = w.slice(0, 6);
  else if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

const CANONICAL = new Map<string, string>();
for (const group of SYNONYMS) {
  const head = stem(group[0]);
  for (const w of group) if (!CANONICAL.has(stem(w))) CANONICAL.set(stem(w), head);
}

/** One word as the floor compares it, or undefined for a stop word or a number word. */
export function contentWord(raw: string): string | undefined {
  const w = raw.toLowerCase().replace(/['\u2019]s$/, '');
  if (w.length < 2 || STOP.has(w) || NUMBER_WORDS.has(w)) return undefined;
  const s = stem(w);
  return CANONICAL.get(s) ?? s;
}

/** The content words of a text, in order (repeats kept). */
export function contentWords(text: string): string[] {
  const out: string[] = [];
  // Hyphenated words count as their parts: "fifty-year" meets "50-year", "gigawatt-hours" meets "GWh".
  for (const m of text.matchAll(/[\p{L}][\p{L}\p{M}'\u2019]*/gu)) {
    const w = contentWord(m[0]);
    if (w) out.push(w);
  }
  return out;
}
