/**
 * `If-Match` as RFC 9110 §13.1.1 reads it: `*`, or a comma-separated list of entity-tags of
 * which any one may match. Our ETags are `"<version>"` (responses.ts `etagOf`); comparison is
 * weak, as for any `If-Match` we answer, so `W/"3"` names version 3 as `"3"` does.
 *
 * - absent or `*`: `undefined`, no version check (the record must still exist);
 * - a list: the versions it names; tags that are not ours (`"abc"`, `"01"`) name none;
 * - malformed (`"open`, `3`, `*` inside a list): an empty list, which matches nothing (412).
 *
 * Empty list elements (`"1",,"2"`) are ignored, as §5.6.1 asks of a recipient.
 */
const ELEMENT = /[ \t]*(?:(?:W\/)?"([\x21\x23-\x7E\x80-\xFF]*)"[ \t]*)?(,|$)/y;
/** Our opaque-tags: a version as etagOf writes it, never with leading zeros. */
const VERSION = /^(?:0|[1-9]\d{0,14})$/;

/** The opaque-tags of a list, or undefined when it is not one. */
const entityTags = (header: string): string[] | undefined => {
  const element = new RegExp(ELEMENT.source, 'y');
  const tags: string[] = [];
  for (;;) {
    const match = element.exec(header);
    if (!match) return undefined;
    if (match[1] !== undefined) tags.push(match[1]);
    if (match[2] === '') return tags;
  }
};

export const ifMatchOf = (header: string | undefined): readonly number[] | undefined => {
  if (header === undefined || header.trim() === '*') return undefined;
  const tags = entityTags(header);
  if (!tags?.length) return [];
  return tags.filter((tag) => VERSION.test(tag)).map(Number);
};
