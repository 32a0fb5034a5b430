// The offline planner's view of a sentence: compromise tags each word (noun, plural, adjective, verb, …) in
// context and gives singular and plural forms; punctuation becomes tokens of its own, so lists and
// parenthesised options can be read. Hyphenated words ("check-ins") are one word.
import nlp from "compromise";

export type Token = {
  /** Lowercase; punctuation tokens are the mark itself: , ; : . ( ) */
  word: string;
  /** As written, for names given in capitals. */
  text: string;
  noun: boolean;
  plural: boolean;
  adjective: boolean;
  verb: boolean;
  /** The singular of a plural noun in this context ("purchases" → "purchase"). */
  root?: string;
};

type Doc = ReturnType<typeof nlp>;

const MARKS = /[,;:.()!?]/g;

/** Words compromise singularises wrongly, or that have no plural. */
export const SAME_BOTH_WAYS = new Set(["species", "series", "news", "staff", "equipment", "data", "media", "software", "feedback", "information", "inventory"]);

const punctuation = (text: string, word: Token[]) => {
  for (const mark of text.match(MARKS) ?? []) word.push({ word: mark, text: mark, noun: false, plural: false, adjective: false, verb: false });
};

type Term = { text: string; pre: string; post: string; normal: string; root?: string; tags: string[] };

/** The sentence as tokens, in order. */
export const tokenize = (sentence: string): Token[] => {
  const doc = nlp(sentence.replace(/[“”"]/g, " ").replace(/\s+/g, " "));
  doc.compute("root");
  const options = { terms: { normal: true, root: true } };
  const terms = (doc.json(options) as { terms: Term[] }[]).flatMap((s) => s.terms);
  const tokens: Token[] = [];
  let joinNext = false;
  for (const term of terms) {
    const tags = new Set(term.tags);
    if (!joinNext) punctuation(term.pre, tokens);
    // "house/flat": options written with a slash stay apart, the slash a mark of its own.
    if (!joinNext && term.normal.includes("/")) {
      term.normal.split("/").forEach((part, n) => {
        const w = part.replace(/[^\p{L}\p{N}'-]/gu, "");
        if (n > 0) tokens.push({ word: "/", text: "/", noun: false, plural: false, adjective: false, verb: false });
        if (w) tokens.push({ word: w, text: w, noun: true, plural: false, adjective: false, verb: false });
      });
      joinNext = false;
      punctuation(term.post, tokens);
      continue;
    }
    const word = term.normal.replace(/[^\p{L}\p{N}'-]/gu, "").replace(/'s?$/, "");
    const last = tokens[tokens.length - 1];
    if (joinNext && last) {
      // "check" + "ins": one plural noun, its singular made from the last part.
      last.word = `${last.word}-${word}`;
      last.text = `${last.text}-${term.text}`;
      last.plural = /[^s]s$/.test(word);
      last.root = last.plural ? last.word.slice(0, -1) : undefined;
      last.noun = true;
    } else if (word) {
      tokens.push({
        word,
        text: term.text.replace(/[^\p{L}\p{N}'-]/gu, ""),
        noun: tags.has("Noun") && !tags.has("Pronoun"),
        plural: tags.has("Plural") && !SAME_BOTH_WAYS.has(word),
        adjective: tags.has("Adjective"),
        verb: tags.has("Verb"),
        root: tags.has("Plural") && term.root && !SAME_BOTH_WAYS.has(word) ? term.root : undefined,
      });
    }
    joinNext = term.post.trim() === "-";
    if (!joinNext) punctuation(term.post, tokens);
  }
  return tokens;
};

/** Inflecting a word runs the tagger, so each answer is kept (a few thousand words at most in practice). */
const remembered = (inflect: (word: string) => string) => {
  const seen = new Map<string, string>();
  return (word: string) => {
    let answer = seen.get(word);
    if (answer === undefined) seen.set(word, (answer = inflect(word)));
    if (seen.size > 5000) seen.clear();
    return answer;
  };
};

/** "pets" → "pet", "categories" → "category", "check-ins" → "check-in"; words without a plural stay as they are. */
export const singular = remembered((word) => {
  if (SAME_BOTH_WAYS.has(word) || !/s$/.test(word) || /(ss|us|is)$/.test(word)) return word;
  if (word.includes("-")) return word.replace(/s$/, "");
  return (nlp(word).tag("Plural") as Doc).nouns().toSingular().text() || word.replace(/s$/, "");
});

/** "pet" → "pets", "category" → "categories", "person" → "people". */
export const plural = remembered((word) => {
  if (SAME_BOTH_WAYS.has(word)) return word;
  if (word.includes("-")) return `${word}s`;
  return (nlp(word).tag("Singular") as Doc).nouns().toPlural().text() || `${word}s`;
});

/** An identifier from words: lowercase a-z, 0-9 and _, at most 63 characters, starting with a letter. */
export const identifier = (words: string[]): string =>
  words
    .join("_")
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^[^a-z]+|_+$/g, "")
    .slice(0, 63)
    .replace(/_+$/, "");
