// Reads a sentence into what the offline planner builds from: the app's subject ("A veterinary clinic:"),
// the entities it names (plural nouns, or singular ones in "which X … which Y"), their attributes ("with
// a status (open, closed)") and the relations its phrasing states ("their", "of", "per", "have", "belongs to").
import { isAttributeWord } from "./offline-columns";
import { attributesAt, CLAUSE_END, COLLECTIVE, EVENT_VERBS, FILLER, givenName, HAVE, isWord, MODIFIERS, optionsAt, OWNING_VERBS, type Phrase, phraseAt, PLURAL_COLUMNS, PREPOSITIONS, retag, SEPARATORS, subjectOf, WITH } from "./offline-phrases";
import { identifier, plural, SAME_BOTH_WAYS, singular, tokenize } from "./offline-words";

export type Attribute = { words: string[]; options?: string[] };
export type Entity = { key: string; table: string; label: string; attributes: Attribute[] };
/** `from` gets a reference to `to`; a link joins two entities many-to-many through a table of its own. */
export type Relation = { from: string; to: string; stated: boolean };
export type Reading = {
  subject: string[];
  given: string;
  entities: Entity[];
  relations: Relation[];
  links: [string, string][];
  /** What the sentence says of a link ("the quantity of each ingredient in a recipe"), by `left|right` key. */
  linkAttributes: Record<string, Attribute[]>;
};

/** Columns named in the plural: "notes", "allergies" (where "check-out dates" is a check_out_date). */
const PLURAL_NAMES = new Set(["notes", "comments", "details", "instructions", "symptoms", "remarks", "tags", "credits", "allergies", "skills", "hobbies"]);

/** "each order has", "every loan belongs to": the words that make the singular before them an entity. */
const STATES = (word: string | undefined) => !!word && (HAVE.has(word) || WITH.has(word) || /^belong/.test(word));
/** Where a link's attribute says the link is: "of each ingredient in a recipe". */
const LINK_PLACES = new Set(["in", "per", "for", "on", "of"]);

/** Reads the sentence; deterministic, no I/O. */
export const readSentence = (sentence: string): Reading => {
  const tokens = tokenize(sentence);
  retag(tokens);
  const { subject, start } = subjectOf(tokens);
  const entities: Entity[] = [];
  const relations: Relation[] = [];
  const links: [string, string][] = [];
  const linkAttributes: Record<string, Attribute[]> = {};

  const find = (key: string) => entities.find((e) => e.key === key) ?? entities.find((e) => e.key.endsWith(`_${key}`));
  /** The entity a phrase names, made when `create`; its table is the plural of its words. */
  const entityOf = (p: Phrase, create: boolean): Entity | undefined => {
    const nouns = p.words.filter((w, n) => n === p.words.length - 1 || !tokens.some((t) => t.word === w && t.adjective && !t.noun)).slice(-2);
    const headSingular = p.head.root ?? (p.head.plural ? singular(p.head.word) : p.head.word);
    const key = identifier([...nouns.slice(0, -1), headSingular]);
    const found = find(key);
    if (found || !create || !key || FILLER.has(p.head.word)) return found;
    const head = p.head.plural || COLLECTIVE.has(p.head.word) ? p.head.word : plural(p.head.word);
    const entity: Entity = { key, table: identifier([...nouns.slice(0, -1), head]), label: [...nouns.slice(0, -1), headSingular].join(" "), attributes: [] };
    entities.push(entity);
    return entity;
  };
  /** The entity of one noun ("rental"), made when missing. */
  const entityNamed = (noun: string): Entity => {
    const key = identifier([noun]);
    const found = find(key);
    if (found) return found;
    const entity: Entity = { key, table: identifier([plural(noun)]), label: noun, attributes: [] };
    entities.push(entity);
    return entity;
  };
  const link = (a: Entity | undefined, b: Entity | undefined) => {
    if (!a || !b || a === b) return undefined;
    const found = links.find(([l, r]) => (l === a.key && r === b.key) || (l === b.key && r === a.key));
    if (found) return found;
    const made: [string, string] = [a.key, b.key];
    links.push(made);
    return made;
  };
  const relate = (from: Entity | undefined, to: Entity | undefined) => {
    if (from && to && from !== to && !relations.some((r) => r.from === from.key && r.to === to.key)) relations.push({ from: from.key, to: to.key, stated: true });
  };
  const listStart = (at: number) => at <= start || CLAUSE_END.has(tokens[at - 1].word) || SEPARATORS.has(tokens[at - 1].word);
  // "series with a publisher": a word without a plural names things when it opens a list item and has attributes.
  const names = (p: Phrase) =>
    p.head.plural || COLLECTIVE.has(p.head.word) || (SAME_BOTH_WAYS.has(p.head.word) && WITH.has(tokens[p.end]?.word ?? "") && listStart(p.end - p.words.length));
  // A plural is a column only when columns are said that way ("notes", "calories"), not "stock levels".
  const attribute = (p: Phrase) => (p.head.plural ? PLURAL_COLUMNS.has(p.head.word) : isAttributeWord(p.head.word));

  let last: Entity | undefined;
  let owner: Entity | undefined; // whose "with …" list is being read
  let mode: "start" | "child" | "attr" = "start";
  let pending: string[] = []; // modifiers waiting for their head
  let justEntity = false;
  let verbEvent: Entity | undefined; // an event a verb made ("rents … to …"), which "each lease has" may name
  let verbEventKey = "";
  let entityEnd = -1; // where the last entity phrase ended
  const addAttribute = (written: string[], options?: string[]) => {
    if (!owner) return;
    const target = owner;
    // "check-out dates" → check_out_date
    const one = singular(written[written.length - 1]);
    const words = isAttributeWord(one) && !PLURAL_NAMES.has(written[written.length - 1]) ? [...written.slice(0, -1), one] : written;
    if (words.length === 1 && MODIFIERS.has(words[0]) && !options) return void pending.push(words[0]);
    const all = [...pending.map((m) => [m, ...words.slice(1)]), words];
    pending = [];
    for (const w of all) if (!target.attributes.some((a) => identifier(a.words) === identifier(w))) target.attributes.push({ words: w, options });
  };
  const endList = () => {
    if (owner) for (const m of pending) owner.attributes.push({ words: [m] });
    pending = [];
    owner = undefined;
  };

  for (let i = start; i < tokens.length; ) {
    const t = tokens[i];
    if (CLAUSE_END.has(t.word)) {
      endList();
      justEntity = false;
      i++;
    } else if (t.word === "(" && !owner && justEntity && last && attributesAt(tokens, i, isAttributeWord)) {
      // "properties (price, bedrooms, type: house/flat)": the entity's attributes in parentheses.
      const { items, end } = attributesAt(tokens, i, isAttributeWord)!;
      owner = last;
      for (const item of items) addAttribute(item.words, item.options);
      endList();
      i = end;
    } else if (t.word === "(") {
      const { options, end } = optionsAt(tokens, i);
      const target = owner?.attributes[owner.attributes.length - 1];
      if (target && options.length && mode === "attr") target.options = options;
      i = end;
    } else if (WITH.has(t.word) && last) {
      endList();
      owner = last;
      mode = "start";
      justEntity = false;
      i++;
    } else if (t.word === "their" || t.word === "its") {
      const p = phraseAt(tokens, i + 1);
      const antecedent = owner ?? last;
      if (!p) i++;
      else {
        if (attribute(p) && antecedent) {
          owner = antecedent;
          mode = "attr";
          addAttribute(p.words);
        } else if (names(p)) {
          const child = entityOf(p, true);
          relate(child, antecedent);
          endList();
          last = child;
        } else relate(antecedent, entityOf(p, true));
        i = p.end;
      }
    } else if ((t.word === "who" || t.word === "that") && last && tokens[i + 1]?.verb && !/^belong/.test(tokens[i + 1].word) && !HAVE.has(tokens[i + 1].word)) {
      // "hosts who host shows": a link; "tenants who lease an apartment": a reference. "with …" after it is still theirs.
      // "developers who work on projects": the preposition after the verb belongs to it.
      const p = phraseAt(tokens, PREPOSITIONS.has(tokens[i + 2]?.word ?? "") ? i + 3 : i + 2);
      endList();
      if (p && names(p) && !attribute(p)) link(last, entityOf(p, true));
      else if (p && !attribute(p)) relate(last, entityOf(p, true));
      i = p?.end ?? i + 2;
      justEntity = false;
    } else if ((t.word === "each" || t.word === "every") && phraseAt(tokens, i + 1) && STATES(tokens[phraseAt(tokens, i + 1)!.end]?.word) && !attribute(phraseAt(tokens, i + 1)!)) {
      // "each rental has a daily rate": the rental is a thing of its own.
      const p = phraseAt(tokens, i + 1)!;
      endList();
      // "rents flats to tenants; each lease has …": the event the verb made is this one, named now.
      const fresh = !entityOf(p, false) && verbEvent && verbEvent.attributes.length === 0 && !p.head.plural;
      if (fresh) {
        const noun = p.head.word;
        Object.assign(verbEvent!, { key: identifier([noun]), table: identifier([plural(noun)]), label: noun });
        for (const r of relations) if (r.from === verbEventKey) r.from = verbEvent!.key;
      }
      verbEvent = undefined;
      last = entityOf(p, true);
      justEntity = true;
      entityEnd = p.end;
      i = p.end;
    } else if (EVENT_VERBS[t.word] && t.verb && !t.plural && names(phraseAt(tokens, i + 1) ?? ({ head: t } as Phrase)) && !attribute(phraseAt(tokens, i + 1)!)) {
      // "rents cameras to photographers", "members book cars": the event joins what it involves.
      const p = phraseAt(tokens, i + 1)!;
      const subject = justEntity ? last : undefined;
      endList();
      const made = !find(identifier([EVENT_VERBS[t.word]]));
      const event = entityNamed(EVENT_VERBS[t.word]);
      verbEvent = made ? event : undefined;
      verbEventKey = event.key;
      relate(event, entityOf(p, true));
      i = p.end;
      const q = ["to", "from", "for"].includes(tokens[i]?.word ?? "") ? phraseAt(tokens, i + 1) : undefined;
      if (q && (names(q) || entityOf(q, false)) && !attribute(q)) {
        relate(event, entityOf(q, true));
        i = q.end;
      }
      if (subject) relate(event, subject);
      last = event;
      justEntity = true;
      entityEnd = i;
    } else if (OWNING_VERBS.has(t.word) && t.verb && justEntity && last && phraseAt(tokens, i + 1) && names(phraseAt(tokens, i + 1)!)) {
      // "customers open tickets": the tickets refer to the customers.
      const p = phraseAt(tokens, i + 1)!;
      endList();
      const child = entityOf(p, true);
      relate(child, last);
      if (child) last = child;
      justEntity = true;
      entityEnd = p.end;
      i = p.end;
    } else if (t.word === "which") {
      const x = phraseAt(tokens, i + 1);
      const second = x ? tokens.findIndex((u, n) => n >= x.end && u.word === "which") : -1;
      const y = second > 0 && !tokens.slice(x!.end, second).some((u) => CLAUSE_END.has(u.word)) ? phraseAt(tokens, second + 1) : undefined;
      if (x && y) {
        const [a, b] = [entityOf(x, true), entityOf(y, true)];
        if (a && b && a !== b && !links.some(([l, r]) => l === a.key && r === b.key)) links.push([a.key, b.key]);
        i = y.end;
      } else i = x?.end ?? i + 1;
      justEntity = false;
    } else if (HAVE.has(t.word) && last && !owner) {
      const p = phraseAt(tokens, i + 1);
      if (p && attribute(p) && !names(p)) {
        // "each booking has a start time and an end time": the list goes on after the first.
        owner = last;
        mode = "attr";
        const options = tokens[p.end]?.word === "(" ? optionsAt(tokens, p.end) : undefined;
        addAttribute(p.words, options?.options.length ? options.options : undefined);
        if (options) {
          i = options.end;
          continue;
        }
      } else if (p && names(p)) {
        const child = entityOf(p, true);
        relate(child, last);
        last = child;
        justEntity = true;
      } else if (p) relate(last, entityOf(p, true));
      i = p?.end ?? i + 1;
    } else if (/^belong/.test(t.word) && tokens[i + 1]?.word === "to" && last) {
      const p = phraseAt(tokens, i + 2);
      if (p) relate(last, entityOf(p, true));
      i = p?.end ?? i + 2;
    } else if (PREPOSITIONS.has(t.word) && justEntity && last) {
      // "appointments for pets", "invoices per customer": the thing before belongs to the one after.
      const p = phraseAt(tokens, i + 1);
      const creates = p && !attribute(p) && (names(p) || t.word === "per");
      const target = p && (entityOf(p, false) ?? (creates ? entityOf(p, true) : undefined));
      // "votes by friends for movies": the chain keeps the first entity in view.
      if (p && target) {
        relate(last, target);
        i = p.end;
      } else {
        justEntity = false;
        i++;
      }
    } else {
      const p = isWord(t) && !SEPARATORS.has(t.word) ? phraseAt(tokens, i, { skipVerbs: true }) : undefined;
      if (!p) {
        // "students enrolled in courses": a participle keeps the entity before it in view.
        justEntity &&= t.verb && (/ed$/.test(t.word) || PREPOSITIONS.has(tokens[i + 1]?.word ?? ""));
        i++;
        continue;
      }
      if (i === entityEnd && p.words.length > 1 && !t.plural) {
        // "coaches train teams": a word right after a plural names what it does.
        i++;
        continue;
      }
      // "the quantity of each ingredient in a recipe": an attribute of the link between the two.
      const each = tokens[p.end]?.word === "of" && ["each", "every"].includes(tokens[p.end + 1]?.word ?? "") ? phraseAt(tokens, p.end + 1) : undefined;
      const place = each && LINK_PLACES.has(tokens[each.end]?.word ?? "") ? phraseAt(tokens, each.end + 1) : undefined;
      if (each && place && !names(p)) {
        endList();
        const pair = link(entityOf(place, true), entityOf(each, true));
        if (pair) (linkAttributes[pair.join("|")] ??= []).push({ words: p.words });
        i = place.end;
        justEntity = false;
        continue;
      }
      i = p.end;
      if (owner && tokens[i - p.words.length - 1]?.word === "of" && p.words.length) {
        // "number of guests" → guest_count
        addAttribute([singular(p.head.word), "count"]);
        continue;
      }
      // "…, and notes on books": a plural followed by what it belongs to is a table even if it could be a column.
      const belongs = names(p) && PREPOSITIONS.has(tokens[p.end]?.word ?? "") && !!phraseAt(tokens, p.end + 1) && (entityOf(phraseAt(tokens, p.end + 1)!, false) || names(phraseAt(tokens, p.end + 1)!));
      if (owner && (!names(p) || attribute(p)) && !belongs && !entityOf(p, false)) {
        if (p.words[0] === "number" && tokens[i]?.word === "of") continue;
        mode = "attr";
        // "a price per gram": one attribute.
        const unit = tokens[i]?.word === "per" ? phraseAt(tokens, i + 1) : undefined;
        if (unit && !names(unit) && !entityOf(unit, false)) {
          addAttribute([...p.words, "per", ...unit.words]);
          i = unit.end;
          continue;
        }
        const options = tokens[i]?.word === "(" ? optionsAt(tokens, i) : undefined;
        addAttribute(p.words, options?.options.length ? options.options : undefined);
        if (options) i = options.end;
        continue;
      }
      const existed = entityOf(p, false);
      const named = names(p) ? entityOf(p, true) : existed;
      if (!named) {
        justEntity = false;
        continue;
      }
      if (owner && mode !== "attr" && existed && existed !== owner && tokens[i - p.words.length - 1] && WITH.has(tokens[i - p.words.length - 1].word)) {
        // "appointments of patients with doctors": a thing named before is one the owner involves.
        relate(owner, existed);
        owner = undefined;
        continue;
      }
      if (owner && mode !== "attr") {
        relate(named, owner);
        mode = "child";
      } else endList();
      last = named;
      justEntity = true;
      entityEnd = i;
    }
  }
  endList();
  return { subject, given: givenName(tokens), entities, relations, links, linkAttributes };
};
