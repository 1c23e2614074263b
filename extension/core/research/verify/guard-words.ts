// The words that carry a sentence's meaning beyond its topic: negation, hedges and attribution,
// order and time, comparison and direction, quantity. A claim may skip the judge only when these
// agree, in order, with the sentence it is pinned to (passage-match.ts) — a distortion that reuses a
// page's own words (a dropped "not", a "may" made definite, "before" for "after", another number)
// always changes one of them. The lists lean long on purpose: a word here that did not matter only
// sends a claim to the judge, a word missing could let a distortion through.

const list = (s: string) => s.trim().split(/\s+/);

/** Negation, refusal and contrast: "not", "never", "denied", "unlike", "but". */
const NEGATION = list(`
  not no never none nobody nothing nowhere neither nor without cannot hardly barely scarcely seldom rarely
  fail failed fails failing deny denied denies denying refuse refused refuses reject rejected rejects lack lacked
  lacks lacking absent absence unable false untrue myth instead rather except excluding but although though
  however despite unlike whereas yet against oppose opposed opposes contrary contrast dispute disputed disputes
  doubt doubted doubts contested controversial unconfirmed unverified rumor rumored rumour rumoured debunked
  prevent prevented prevents avoid avoided stop stopped ban banned`);

/** Modality, hedges, attribution and quantifiers: "may", "likely", "said", "some", "all". */
const HEDGE = list(`
  may might could can would should must will shall likely unlikely possibly possible probably probable perhaps
  maybe reportedly allegedly alleged apparently seemingly seem seems seemed appear appears appeared suggest
  suggests suggested suggesting believe believes believed thought think thinks estimated estimate estimates
  about approximately around roughly nearly almost some up least most many few several often sometimes usually
  generally typically always all every each any only just mainly mostly partly partially largely according said
  says say claim claims claimed if unless whether expected expect expects plan plans planned proposed propose
  potential potentially hope hopes hoped aim aims aimed intend intends intended try tries tried attempt attempted
  reported reports argue argues argued assert asserts asserted insist insists insisted predicted predicts
  forecast projected supposedly arguably rumoured`);

/** Order and time: "before", "then", "first", "since", months and days. */
const TIME = list(`
  before after first second third fourth fifth last then later earlier previously prior following followed
  subsequently since until till during while once now currently still already formerly former ago next finally
  initially eventually when earliest latest soon recently meanwhile preceded precede precedes follow follows
  today yesterday tomorrow early late beginning end ended ending start started starting
  january february march april june july august september october november december
  monday tuesday wednesday thursday friday saturday sunday`);

/** Direction, comparison and roles: "by" (who did it), "from … to", "than", "more". */
const ROLE = list(`
  by to from than more less fewer greater higher lower over under above below between among per versus vs
  compared relative same different double twice triple half quarter percent`);

/** Number words: a quantity however it is spelled is a guard (its digits are too, in passage-match.ts). */
const NUMBER = list(`
  zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen
  eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million millions billion
  billions trillion dozen dozens tens hundreds thousands`);

export const GUARD_WORDS: ReadonlySet<string> = new Set([...NEGATION, ...HEDGE, ...TIME, ...ROLE, ...NUMBER]);

/** The same word in another spelling: compared as one guard. */
export const GUARD_SPELLINGS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    "can't": 'cannot',
    vs: 'versus',
    '%': 'percent',
    pct: 'percent',
    rumour: 'rumor',
    rumoured: 'rumored',
  }),
);
