import { LANGUAGES } from '../schemas/fields';
import type { Labels, LookupField, LookupInput } from '../schemas/lookups';
import type { RecordEntity } from '../store/entities/records';
import {
  type StoredLookup,
  ticketAreaEntity,
  ticketGroupEntity,
  ticketTypeEntity,
} from '../store/entities/records';
import type { RecordResource } from './records';

/** Every language has a label: the one sent, else the one stored, else the lookup's name. */
export const fillLabels = (
  field: LookupField,
  input: LookupInput,
  current: StoredLookup | undefined,
): Labels => {
  const fallback = (input[field] ?? current?.[field]) as string;
  const previous: Partial<Labels> = current?.labels ?? {};
  const given: Partial<Labels> = input.labels ?? {};
  return Object.fromEntries(
    LANGUAGES.map((lang) => [lang, given[lang] ?? previous[lang] ?? fallback]),
  ) as Labels;
};

const lookup = (
  entity: RecordEntity<StoredLookup>,
  field: LookupField,
): RecordResource<StoredLookup, LookupInput> => ({
  entity,
  prepare: (input, current) =>
    ({
      ...input,
      ...(current === undefined || 'labels' in input ? { labels: fillLabels(field, input, current) } : {}),
    }) as Partial<StoredLookup>,
});

export const ticketTypes = lookup(ticketTypeEntity, 'type');
export const ticketAreas = lookup(ticketAreaEntity, 'area');
export const ticketGroups = lookup(ticketGroupEntity, 'group');
