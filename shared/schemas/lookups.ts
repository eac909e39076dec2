import * as z from 'zod/mini';
import { type LANGUAGES, labels, requiredText } from './fields';

/**
 * Ticket types, areas and groups: named lookups with a label per interface language,
 * `{ <name field>, labels: { en, it, es, fr } }`. One definition for all three.
 */
export type LookupField = 'type' | 'area' | 'group';
export type Labels = Record<(typeof LANGUAGES)[number], string>;

/** A lookup as stored: its name under its own field, and every label filled. */
export type LookupRecord = { [K in LookupField]?: string } & { labels: Labels };

const name = () => requiredText(100);
export const lookupSchemas = (field: LookupField) => ({
  insert: z.lazy(() => z.object({ [field]: name(), labels: z.optional(labels) })),
  update: z.lazy(() => z.object({ [field]: z.optional(name()), labels: z.optional(labels) })),
});
export type LookupInput = { [K in LookupField]?: string } & { labels?: Partial<Labels> };

export const ticketTypeSchemas = lookupSchemas('type');
export const ticketAreaSchemas = lookupSchemas('area');
export const ticketGroupSchemas = lookupSchemas('group');

/** What a new account starts with, so a fresh client can open a ticket at once. */
export const DEFAULT_TICKET_TYPES: LookupRecord[] = [
  { type: 'question', labels: { en: 'Question', it: 'Domanda', es: 'Pregunta', fr: 'Question' } },
  { type: 'incident', labels: { en: 'Incident', it: 'Incidente', es: 'Incidente', fr: 'Incident' } },
  { type: 'problem', labels: { en: 'Problem', it: 'Problema', es: 'Problema', fr: 'Problème' } },
  { type: 'task', labels: { en: 'Task', it: 'Attività', es: 'Tarea', fr: 'Tâche' } },
];
