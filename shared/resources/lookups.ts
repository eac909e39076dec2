import * as z from 'zod/mini';
import { LANGUAGES, labels, requiredText } from '../schemas/fields';
import type { EntityKind } from '../store/keys';
import type { Fields, ResourceSpec } from './resource-spec';

/**
 * Ticket types, areas and groups: named lookups with a label per interface language,
 * returned as `{ id, <name field>, labels: { en, it, es, fr } }`. One definition for all three.
 */
const lookup = (
  kind: EntityKind,
  label: string,
  pathPrefix: string,
  nameField: 'type' | 'area' | 'group',
) => {
  const name = requiredText(100);
  const fillLabels = (fields: Fields, current: Fields | undefined): Record<string, string> => {
    const fallback = (fields[nameField] ?? current?.[nameField]) as string;
    const previous = (current?.labels ?? {}) as Record<string, string>;
    const given = (fields.labels ?? {}) as Record<string, string | undefined>;
    return Object.fromEntries(LANGUAGES.map((lang) => [lang, given[lang] ?? previous[lang] ?? fallback]));
  };
  const spec: ResourceSpec = {
    kind,
    label,
    pathPrefix,
    listKey: nameField,
    insertSchema: z.object({ [nameField]: name, labels: z.optional(labels) }),
    updateSchema: z.object({ [nameField]: z.optional(name), labels: z.optional(labels) }),
    search: { [nameField]: { slot: 's1', field: nameField } },
    unique: [
      {
        field: nameField,
        normalize: (s) => s.toLowerCase(),
        code: `duplicate-${nameField}`,
        message: `Another ticket ${nameField} of this account already has this name.`,
      },
    ],
    references: [],
    store: (input, current) => ({
      ...input,
      ...(current === undefined || 'labels' in input ? { labels: fillLabels(input, current) } : {}),
    }),
    toApi: (item) => ({ id: item.id, [nameField]: item[nameField], labels: item.labels }),
  };
  return spec;
};

export const ticketTypes = lookup('TICKET_TYPE', 'Ticket type', 'ticketType', 'type');
export const ticketAreas = lookup('TICKET_AREA', 'Ticket area', 'ticketArea', 'area');
export const ticketGroups = lookup('TICKET_GROUP', 'Ticket group', 'ticketGroup', 'group');

/** What a new account starts with, so a fresh client can open a ticket at once. */
export const DEFAULT_TICKET_TYPES: Fields[] = [
  { type: 'question', labels: { en: 'Question', it: 'Domanda', es: 'Pregunta', fr: 'Question' } },
  { type: 'incident', labels: { en: 'Incident', it: 'Incidente', es: 'Incidente', fr: 'Incident' } },
  { type: 'problem', labels: { en: 'Problem', it: 'Problema', es: 'Problema', fr: 'Problème' } },
  { type: 'task', labels: { en: 'Task', it: 'Attività', es: 'Tarea', fr: 'Tâche' } },
];
