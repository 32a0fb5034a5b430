// The planner used when no model is configured: keyword matching over a fixed set of app templates. It is
// deterministic, so the same prompt always gives the same plan, and every template passes validatePlan.
import { DOMAINS, type Domain } from "./offline-domains";
import type { DraftPlan } from "./plan";

export type OfflinePlan = { plan: DraftPlan; summary: string; domain: string };

const MAX_SUBJECT_WORDS = 4;

/** Plural → singular, enough for keywords: "categories" → "category", "classes" → "class", "tickets" → "ticket". */
export const stem = (word: string): string => {
  if (word.length <= 3 || /(ss|us|is)$/.test(word)) return word;
  if (word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (/(ches|shes|sses|xes|zes)$/.test(word)) return word.slice(0, -2);
  return word.endsWith("s") ? word.slice(0, -1) : word;
};

/** Words with case kept and possessives split off; hyphens vanish so "e-commerce" reads as "ecommerce". */
const tokenize = (prompt: string) =>
  [...prompt.replace(/(\w)-(\w)/g, "$1$2").matchAll(/[\p{L}\p{N}]+('s\b)?|[,.;:!?()"]/gu)].map((m) => ({
    word: m[0].replace(/'s$/, ""),
    stem: stem(m[0].replace(/'s$/, "").toLowerCase()),
    possessive: m[1] !== undefined,
  }));

type Token = ReturnType<typeof tokenize>[number];

const stemPhrase = (phrase: string) => phrase.toLowerCase().split(" ").map(stem).join(" ");

const score = (domain: Domain, text: string) => {
  const hits = (words: string[]) => words.filter((w) => text.includes(` ${stemPhrase(w)} `)).length;
  return 2 * hits([...domain.strong, ...domain.subjects]) + hits(domain.weak);
};

/** The first token where one of the domain's keywords (not subjects) starts. */
const firstKeyword = (domain: Domain, tokens: Token[]) => {
  const keywords = [...domain.strong, ...domain.weak].map((k) => stemPhrase(k).split(" "));
  return tokens.findIndex((_, i) => keywords.some((k) => k.every((w, n) => tokens[i + n]?.stem === w)));
};

// Words that never name the subject of an app: fillers, app words and the verbs people ask with.
const FILLER = new Set(
  ("a an the my our your their his her its this that some small little local simple basic new online web mobile " +
    "app application backend back end api database db system platform tool site website service software " +
    "i we you need want would like build make create manage managing track tracking keep run running help please sell " +
    "to with and or where which who so can let lets for of in on at by from about using us me").split(" "),
);

const isWord = (t: Token) => /^[\p{L}\p{N}]/u.test(t.word);
const isFiller = (t: Token) => FILLER.has(t.word.toLowerCase());
const NAME_ENDS = new Set(["with", "and", "for", "that", "where", "which", "who", "so", "to"]);

/** `… called Acme Leads with …` → "Acme Leads", taken as written. */
const givenName = (tokens: Token[]) => {
  const at = tokens.findIndex((t) => t.stem === "called" || t.stem === "named");
  // Only a capitalised name counts: "who called us" names nothing.
  if (at < 0 || !/^[\p{Lu}\p{N}]/u.test(tokens[at + 1]?.word ?? "")) return "";
  const words: string[] = [];
  for (const t of tokens.slice(at + 1)) {
    if (!isWord(t) || NAME_ENDS.has(t.word.toLowerCase()) || words.length === 6) break;
    words.push(t.word);
  }
  return words.join(" ");
};

/** The app's subject: the words after a "for", else the words right before the first keyword; fillers skipped. */
const subjectOf = (tokens: Token[], domain: Domain): string[] => {
  // Keywords say what kind of app it is, not whose: "Sell tickets for concerts" is not "Concerts events".
  const skip = new Set([domain.label, ...domain.strong, ...domain.weak].flatMap((w) => stemPhrase(w).split(" ")));
  const after = (start: number) => {
    const words: string[] = [];
    for (const t of tokens.slice(start)) {
      if (!isWord(t) || words.length === MAX_SUBJECT_WORDS || (isFiller(t) && words.length)) break;
      if (isFiller(t)) continue;
      if (!skip.has(t.stem)) words.push(t.word);
      if (t.possessive) break;
    }
    return words;
  };
  for (const [i, t] of tokens.entries()) {
    const words = t.stem === "for" ? after(i + 1) : [];
    if (words.length) return words;
  }
  const words: string[] = [];
  for (let i = firstKeyword(domain, tokens) - 1; i >= 0 && words.length < MAX_SUBJECT_WORDS; i--) {
    if (!isWord(tokens[i]) || isFiller(tokens[i])) break;
    if (!skip.has(tokens[i].stem)) words.unshift(tokens[i].word);
  }
  return words;
};

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "a shop for handmade soap" → "Handmade soap shop"; "a CRM called Acme Leads" → "Acme Leads"; else the domain's default. */
const databaseName = (tokens: Token[], domain: Domain) => {
  const given = givenName(tokens);
  if (given) return given.slice(0, 80);
  const subject = subjectOf(tokens, domain);
  const name = subject.length ? capitalize([...subject, domain.label].join(" ")) : domain.defaultName;
  return name.length <= 80 ? name : domain.defaultName;
};

const understood = () => DOMAINS.map((d) => d.title).join(", ");

/** The best-scoring domain for the prompt (earlier domains win ties), turned into a draft plan. */
export const planOffline = (prompt: string): OfflinePlan | { error: string } => {
  const tokens = tokenize(typeof prompt === "string" ? prompt : "");
  const text = ` ${tokens.filter(isWord).map((t) => t.stem).join(" ")} `;
  let best: { domain: Domain; score: number } | undefined;
  for (const domain of DOMAINS) {
    const s = score(domain, text);
    if (s > 0 && (!best || s > best.score)) best = { domain, score: s };
  }
  if (!best) {
    return {
      error: `The offline planner (used because no AI model is configured) could not tell what kind of app this is. It understands: ${understood()}. Rephrase the prompt naming one of them, e.g. "a shop for handmade soap" or "track support tickets for our SaaS".`,
    };
  }
  const { domain } = best;
  // A deep copy: callers edit the plan (the agent, extending a database) and the templates must stay as they are.
  const plan: DraftPlan = structuredClone({ name: databaseName(tokens, domain), tables: domain.tables, joins: domain.joins, seed: domain.seed });
  const rows = Object.values(plan.seed).reduce((n, r) => n + r.length, 0);
  const summary =
    `Offline plan (${domain.title}) for "${plan.name}": ${plan.tables.length} tables (${plan.tables.map((t) => t.name).join(", ")}), ` +
    `the join ${plan.joins.map((j) => j.name).join(", ")} and ${rows} sample rows.`;
  return { plan, summary, domain: domain.key };
};
