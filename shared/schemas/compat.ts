/**
 * Compatibility profiles: how far the API follows Deskero's observed behaviour for one client
 * (docs/decisions.md, "Compatibility profiles"). Each client is pinned to one by the operator;
 * a request may override it with the `Helpdesk-Compat` header. What a profile changes lives in
 * shared/http/compat.ts alone; here are only the names.
 */
export const COMPAT_PROFILES = ['standard', 'deskero'] as const;
export type CompatProfile = (typeof COMPAT_PROFILES)[number];

/** The profile of new clients, and of clients stored before profiles existed. */
export const DEFAULT_COMPAT: CompatProfile = 'standard';

/** A profile named by an operator or a request (case and surrounding blanks ignored); undefined if unknown. */
export const parseCompat = (value: string): CompatProfile | undefined => {
  const name = value.trim().toLowerCase();
  return (COMPAT_PROFILES as readonly string[]).includes(name) ? (name as CompatProfile) : undefined;
};

/** The profile stored on a client item: absent (a client created before profiles) reads as the default. */
export const storedCompat = (value: unknown): CompatProfile =>
  (typeof value === 'string' && parseCompat(value)) || DEFAULT_COMPAT;
