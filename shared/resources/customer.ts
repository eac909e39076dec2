import * as z from 'zod/mini';
import { hashPassword } from '../auth/passwords';
import {
  countryCode,
  customFields,
  email,
  language,
  optionalText,
  requiredText,
  text,
  timestamp,
} from '../schemas/fields';
import type { Fields, ResourceSpec } from './resource-spec';

const lower = (s: string) => s.toLowerCase();

/** Write-only credentials of the customer's portal account; the password is stored hashed. */
const account = z.nullable(
  z.object({
    username: z.optional(optionalText(200)),
    password: z.optional(
      z.string().check(z.minLength(8, 'at least 8 characters'), z.maxLength(200, 'at most 200 characters')),
    ),
  }),
);

const fields = {
  name: requiredText(200),
  email,
  birthDate: z.nullable(timestamp),
  phoneNumber: optionalText(50),
  faxNumber: optionalText(50),
  mobileNumber: optionalText(50),
  address: optionalText(1000),
  city: optionalText(200),
  province: optionalText(200),
  state: z.nullable(countryCode),
  postalNumber: optionalText(20),
  skypeAddress: optionalText(254),
  msnAddress: optionalText(254),
  gtalkAddress: optionalText(254),
  twitterAccountUrl: optionalText(2048),
  facebookAccountUrl: optionalText(2048),
  linkedinAccountUrl: optionalText(2048),
  googleAccountUrl: optionalText(2048),
  youtubeAccountUrl: optionalText(2048),
  registrationChannel: optionalText(100),
  topClient: z.boolean(),
  // Hex or base64 image bytes; decoded, checked and stored in S3 by shared/blobs/photos.ts.
  profilePhotoBlob: z.nullable(z.string().check(z.maxLength(2_200_000, 'the photo is too large'))),
  signature: optionalText(10_000),
  memo: optionalText(10_000),
  website: optionalText(2048),
  company: optionalText(200),
  language,
  account,
  insertByAgentId: z.nullable(text(64)),
  customFields,
};

const updateSchema = z.partial(z.object(fields));

/** Every field of the seed's Customer table, in the seed's order: the detail shape. */
const API_FIELDS = [
  'id',
  'name',
  'birthDate',
  'email',
  'phoneNumber',
  'faxNumber',
  'mobileNumber',
  'address',
  'city',
  'province',
  'state',
  'postalNumber',
  'skypeAddress',
  'msnAddress',
  'gtalkAddress',
  'twitterAccountUrl',
  'facebookAccountUrl',
  'linkedinAccountUrl',
  'googleAccountUrl',
  'youtubeAccountUrl',
  'registrationChannel',
  'topClient',
  'profilePhotoUrl',
  'profilePhotoBlob',
  'signature',
  'memo',
  'website',
  'company',
  'language',
  'account',
  'insertByAgentId',
  'customFields',
] as const;

const storeAccount = (given: Fields | null | undefined, current: unknown): Fields | null => {
  if (given === null) return null;
  const previous = (current ?? {}) as Fields;
  const next: Fields = { username: previous.username ?? null, passwordHash: previous.passwordHash ?? null };
  if (given && 'username' in given) next.username = given.username ?? null;
  if (given && typeof given.password === 'string') next.passwordHash = hashPassword(given.password);
  return next;
};

export const customers: ResourceSpec = {
  kind: 'CUSTOMER',
  label: 'Customer',
  pathPrefix: 'customer',
  listKey: 'customer',
  insertSchema: z.extend(updateSchema, { name: fields.name, email: fields.email }),
  updateSchema,
  search: {
    email: { slot: 's1', field: 'email', normalize: lower },
    name: { slot: 's2', field: 'name' },
  },
  unique: [
    {
      field: 'email',
      normalize: lower,
      code: 'duplicate-email',
      message: 'Another customer of this account already has this e-mail address.',
    },
  ],
  references: [
    {
      path: 'insertByAgentId',
      kind: 'AGENT',
      label: 'Agent',
      idOf: (f) => f.insertByAgentId as string | null | undefined,
    },
  ],
  store: (input, current) => {
    const stored: Fields = { ...input };
    if (current === undefined) {
      stored.topClient ??= false;
      stored.language ??= 'en';
    }
    if ('account' in input) stored.account = storeAccount(input.account as Fields | null, current?.account);
    return stored;
  },
  toApi: (item, baseUrl) => {
    const out: Fields = {};
    for (const name of API_FIELDS) out[name] = item[name] ?? null;
    const stored = item.account as Fields | null | undefined;
    out.account = stored ? { username: stored.username ?? null } : null;
    out.profilePhotoUrl = `${baseUrl}/customer/photo/${item.id}`;
    out.profilePhotoBlob = null;
    return out;
  },
};
