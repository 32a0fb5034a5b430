// A json column's value as read from a row keeps its stored text until someone reads the value: the record
// parses it on first access, and until then the outbox writes the text as it is (record-change.ts). So a
// write of a big JSON value parses and serialises it no more often than its reply needs.
type Row = Record<string, unknown>;

const texts = new WeakMap<Row, Map<string, string>>();

const settle = (record: Row, name: string, value: unknown) => {
  texts.get(record)?.delete(name); // a parsed value may be changed in place: its text is no longer trusted
  Object.defineProperty(record, name, { value, writable: true, enumerable: true, configurable: true });
};

/** Sets `record[name]` to the value of the JSON `text`, parsed when first read. */
export const setStoredJson = (record: Row, name: string, text: string) => {
  let byName = texts.get(record);
  if (!byName) texts.set(record, (byName = new Map()));
  byName.set(name, text);
  Object.defineProperty(record, name, {
    enumerable: true,
    configurable: true,
    get: () => {
      const value: unknown = JSON.parse(text);
      settle(record, name, value);
      return value;
    },
    set: (value: unknown) => settle(record, name, value),
  });
};

/** The stored JSON text of `record[name]` while its value has not been read, else undefined. */
export const storedJsonText = (record: Row, name: string): string | undefined => texts.get(record)?.get(name);

/** Whether any of the record's values is still its stored JSON text. */
export const hasStoredJson = (record: Row) => (texts.get(record)?.size ?? 0) > 0;
