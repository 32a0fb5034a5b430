// The offline reader's vocabulary and phrase grammar: which words are determiners, prepositions, fillers;
// what a noun phrase is; listed options; a given name; the subject before the list; and the tagger's slips
// fixed where a list or an article shows what a word must be.
import { isAttributeWord } from "./offline-columns";
import { SAME_BOTH_WAYS, singular, type Token } from "./offline-words";

const set = (words: string) => new Set(words.split(" "));
const DETERMINERS = set("a an the my our your his her its their some each every all any one many several multiple more few both this that these those own zero or");
export const PREPOSITIONS = set("of per for by in on at from under within inside to into about via across");
export const HAVE = set("have has own owns contain contains include includes hold holds");
export const WITH = set("with having including containing featuring");
export const SEPARATORS = set(", and or & plus");
export const CLAUSE_END = set(". ; : ! ?");
/** Nouns that never name something to keep a table of. */
export const FILLER = set("needs wants uses helps sells manages keeps lists app apps application applications system systems database databases backend backends tool platform platforms site website websites software list lists lot way ways thing things stuff data info information management kind kinds sort sorts bunch track tracker i we you people everything everyone something number numbers record records entry");
/** Words that start a request rather than a noun phrase: "Track invoices", "Manage members". */
const VERBS = set("add track manage keep record log store handle organize organise run build make create need want sell help list plan book register");
/** Collective nouns that name tables though they have no plural. */
export const COLLECTIVE = set("staff equipment personnel");
export const PLURAL_COLUMNS = set("notes comments details dates hours minutes servings calories points reps goals instructions symptoms remarks tags prices costs fees credits allergies skills hobbies");
/** Verbs that name an event between what they join: "rents cameras to photographers" → rentals. */
export const EVENT_VERBS: Record<string, string> = {
  rent: "rental", rents: "rental", lend: "loan", lends: "loan", loan: "loan", loans: "loan", borrow: "loan", borrows: "loan",
  book: "booking", books: "booking", reserve: "reservation", reserves: "reservation", hire: "hire", hires: "hire",
  lease: "lease", leases: "lease", adopt: "adoption", adopts: "adoption", enroll: "enrollment", enrolls: "enrollment",
  enrol: "enrollment", enrols: "enrollment", sell: "sale", sells: "sale", buy: "purchase", buys: "purchase",
  order: "order", orders: "order", ship: "shipment", ships: "shipment", deliver: "delivery", delivers: "delivery",
};
/** Verbs whose object belongs to their subject: "customers open tickets" → tickets refer to customers. */
export const OWNING_VERBS = set("open opens place places write writes post posts submit submits create creates file files raise raises own owns log logs publish publishes upload uploads");
/** Relative pronouns: "tenants who lease an apartment". */
export const RELATIVE = set("who that which");
/** A modifier shared by the next attribute: "start and end odometer" → start_odometer, end_odometer. */
export const MODIFIERS = set("check-in check-out start end first last min max minimum maximum home away pickup dropoff opening closing arrival departure old new daily weekly monthly yearly annual hourly");

export type Phrase = { words: string[]; head: Token; end: number };

export const isWord = (t: Token | undefined) => !!t && /^[\p{L}\p{N}]/u.test(t.word);

/** A noun phrase at `i` (determiners skipped): adjectives and nouns up to the last noun. */
export const phraseAt = (tokens: Token[], i: number, { skipVerbs = false } = {}): Phrase | undefined => {
  while (isWord(tokens[i]) && (DETERMINERS.has(tokens[i].word) || (tokens[i].word === "lots" && tokens[i + 1]?.word === "of"))) i += tokens[i].word === "lots" ? 2 : 1;
  if (skipVerbs && isWord(tokens[i]) && VERBS.has(tokens[i].word) && !tokens[i].plural) i++;
  while (skipVerbs && isWord(tokens[i]) && DETERMINERS.has(tokens[i].word)) i++;
  const start = i;
  let last = -1;
  for (; isWord(tokens[i]) && i - start < 5; i++) {
    const t = tokens[i];
    if (DETERMINERS.has(t.word) || PREPOSITIONS.has(t.word) || SEPARATORS.has(t.word) || HAVE.has(t.word) || WITH.has(t.word)) break;
    // A word tagged as a verb still modifies a plural right after a list mark: ", fuel purchases".
    const modifier = t.verb && !VERBS.has(t.word) && i === start && tokens[i + 1]?.plural && (i === 0 || SEPARATORS.has(tokens[i - 1].word) || CLAUSE_END.has(tokens[i - 1].word));
    // "a queen present flag": a participle before a noun modifies it.
    const participle = t.verb && /(ed|en)$/.test(t.word) && !!tokens[i + 1]?.noun && i > start;
    if (!modifier && !participle && (!(t.noun || t.adjective || t.plural) || (t.verb && !t.noun))) break;
    // A plural ends a phrase: "coaches train teams" is not one thing.
    if (last >= 0 && tokens[last].plural) break;
    if (t.noun || t.plural || COLLECTIVE.has(t.word)) last = i;
  }
  if (last < 0) return undefined;
  return { words: tokens.slice(start, last + 1).map((t) => t.word), head: tokens[last], end: last + 1 };
};

/** Options listed in parentheses at `i`: "(low, medium, high)" or "(draft/published)". */
export const optionsAt = (tokens: Token[], i: number) => {
  const options: string[] = [];
  let current: string[] = [];
  for (i++; i < tokens.length && tokens[i].word !== ")"; i++) {
    const w = tokens[i].word;
    if (SEPARATORS.has(w) || w === "/") {
      if (current.length) options.push(current.join(" "));
      current = [];
    } else if (isWord(tokens[i])) current.push(...w.split("/"));
  }
  if (current.length) options.push(current.join(" "));
  return { options: [...new Set(options.filter((o) => o.length <= 60))].slice(0, 20), end: i + 1 };
};

/**
 * Attributes listed in parentheses at `i`: "(price, bedrooms, type: house/flat)". Undefined unless they read
 * as attributes: an item with options after a colon, or a first item that is an attribute word.
 */
export const attributesAt = (tokens: Token[], i: number, isAttribute: (word: string) => boolean = () => false) => {
  const items: { words: string[]; options?: string[] }[] = [];
  let words: string[] = [];
  let options: string[] | undefined;
  let option: string[] = [];
  const closeOption = () => {
    if (options && option.length) options.push(option.join(" "));
    option = [];
  };
  const closeItem = () => {
    closeOption();
    if (words.length) items.push(options?.length ? { words, options } : { words });
    words = [];
    options = undefined;
  };
  let j = i + 1;
  for (; j < tokens.length && tokens[j].word !== ")"; j++) {
    const w = tokens[j].word;
    if (w === ",") closeItem();
    else if (w === ":" && words.length) options = [];
    else if (options && (w === "/" || w === "or")) closeOption();
    else if (options && isWord(tokens[j])) option.push(w);
    else if (w === "and") closeItem();
    else if (isWord(tokens[j]) && !DETERMINERS.has(w)) words.push(w);
  }
  closeItem();
  if (j >= tokens.length || items.length === 0) return undefined;
  const readsAsAttributes = items.some((item) => item.options) || isAttribute(singular(items[0].words[items[0].words.length - 1]));
  return readsAsAttributes ? { items, end: j + 1 } : undefined;
};

/** "… called Acme Vets" → "Acme Vets", as written. */
export const givenName = (tokens: Token[]) => {
  const at = tokens.findIndex((t) => t.word === "called" || t.word === "named");
  if (at < 0 || !/^[\p{Lu}\p{N}]/u.test(tokens[at + 1]?.text ?? "")) return "";
  const words: string[] = [];
  for (const t of tokens.slice(at + 1)) {
    if (!isWord(t) || !/^[\p{Lu}\p{N}]/u.test(t.text) || words.length === 6) break;
    words.push(t.text);
  }
  return words.join(" ");
};

/** Where the list of entities starts, and the app's subject before it: a "Subject:" prefix or a first sentence naming no plural. */
export const subjectOf = (tokens: Token[]): { subject: string[]; start: number } => {
  // A colon inside parentheses ("(type: house/flat)") ends nothing.
  let depth = 0;
  const firstStop = tokens.findIndex((t) => {
    depth += t.word === "(" ? 1 : t.word === ")" ? -1 : 0;
    return depth === 0 && CLAUSE_END.has(t.word);
  });
  if (firstStop > 0 && (tokens[firstStop].word === ":" || !tokens.slice(0, firstStop).some((t) => t.plural && !FILLER.has(t.word)))) {
    const phrase = tokens.slice(0, firstStop).filter((t) => isWord(t) && !DETERMINERS.has(t.word) && !VERBS.has(t.word) && (t.noun || t.adjective || t.plural));
    return { subject: phrase.slice(-4).map((t) => t.text), start: firstStop + 1 };
  }
  // "A bug tracker where projects have issues": the singular phrase the sentence opens with.
  const opening = phraseAt(tokens, 0, { skipVerbs: true });
  const subject = opening && !opening.head.plural ? tokens.slice(opening.end - opening.words.length, opening.end) : [];
  return { subject: subject.map((t) => t.text), start: opening && !opening.head.plural ? opening.end : 0 };
};

/** Fixes the tagger where the sentence's shape says otherwise. */
export const retag = (tokens: Token[]) => {
  // In a list, "posts and comments" are nouns even where the tagger reads a verb.
  const listMark = (t: Token | undefined) => !t || SEPARATORS.has(t.word) || CLAUSE_END.has(t.word);
  // A word the tagger read as a plural noun once is one everywhere in the sentence: "ascents of routes".
  const plurals = new Map(tokens.filter((t) => t.plural && t.noun).map((t) => [t.word, t.root]));
  tokens.forEach((t, i) => {
    if (/^belong/.test(t.word) && tokens[i + 1]?.word === "to") {
      Object.assign(t, { noun: false, plural: false, verb: true });
      return;
    }
    // "a check-out date", "a daily rate": a word after a modifier, ending a phrase, is a noun.
    const next = tokens[i + 1];
    const endsPhrase = !next || !isWord(next) || SEPARATORS.has(next.word) || WITH.has(next.word) || PREPOSITIONS.has(next.word);
    if (t.verb && isAttributeWord(t.word) && i > 0 && ((tokens[i - 1].noun && !tokens[i - 1].plural) || tokens[i - 1].adjective) && isWord(tokens[i - 1]) && !DETERMINERS.has(tokens[i - 1].word) && endsPhrase) {
      Object.assign(t, { noun: true, verb: false });
      return;
    }
    // "A garage: mechanics, cars": a noun in -s opening a list item is a plural, whatever the tagger thought.
    if (t.noun && !t.plural && /[^su]s$/.test(t.word) && !SAME_BOTH_WAYS.has(t.word) && i > 0 && (listMark(tokens[i - 1]) || tokens[i - 1].word === ":") && (listMark(tokens[i + 1]) || WITH.has(tokens[i + 1]?.word ?? ""))) {
      Object.assign(t, { plural: true, root: singular(t.word) });
      return;
    }
    const seenPlural = plurals.get(t.word);
    const afterPreposition = i > 0 && PREPOSITIONS.has(tokens[i - 1].word) && tokens[i - 1].word !== "to";
    if (!t.plural && (plurals.has(t.word) || (afterPreposition && t.verb && /[^su]s$/.test(t.word) && !/(ss|us|is)$/.test(t.word)))) {
      Object.assign(t, { noun: true, plural: true, verb: false, root: seenPlural ?? singular(t.word) });
      return;
    }
    // "and honey harvests,": a compound at the start of a list item.
    const compound = tokens[i - 1]?.noun && listMark(tokens[i - 2]) && (listMark(tokens[i + 1]) || WITH.has(tokens[i + 1].word));
    if (t.verb && !t.noun && /[^s]s$/.test(t.word) && !FILLER.has(t.word) && i > 0 && (listMark(tokens[i - 1]) || compound)) {
      Object.assign(t, { noun: true, plural: true, verb: false, root: singular(t.word) });
    } else if ((t.verb || (t.adjective && !t.noun && isWord(tokens[i + 1]) === false)) && i > 0 && (DETERMINERS.has(tokens[i - 1].word) || (PREPOSITIONS.has(tokens[i - 1].word) && tokens[i - 1].word !== "to"))) {
      // "per experiment", "per patient", "a paid flag": after a preposition or an article it is a noun.
      Object.assign(t, { noun: true, verb: false });
    }
  });
};
