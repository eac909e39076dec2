import * as z from 'zod/mini';
import {
  countryCode,
  customFields,
  email,
  language,
  optionalText,
  requiredText,
  text,
  timestamp,
} from './fields';

/** Customers as request bodies carry them (seed: Customer table). Stored shape: store/entities/customer.ts. */
/** Write-only credentials of the customer's portal account; the password is stored hashed. */
const account = () =>
  z.nullable(
    z.object({
      username: z.optional(optionalText(200)),
      password: z.optional(
        z.string().check(z.minLength(8, 'at least 8 characters'), z.maxLength(200, 'at most 200 characters')),
      ),
    }),
  );

const fields = () => ({
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
  account: account(),
  insertByAgentId: z.nullable(text(64)),
  customFields,
});

export const customerUpdate = z.lazy(() => z.partial(z.object(fields())));
/** The insert body as an object schema (an import line extends it: schemas/import.ts). */
export const customerInsertObject = () => {
  const f = fields();
  return z.extend(z.partial(z.object(f)), { name: f.name, email: f.email });
};
export const customerInsert = z.lazy(customerInsertObject);
export type CustomerInput = z.output<typeof customerUpdate>;

/** What an erasure does with the customer's tickets: keep them anonymised, or delete them. */
export const ERASURE_MODES = ['anonymise', 'delete'] as const;

/** `POST /customer/erase/{id}`: what happens to the customer's tickets, and whether only to count it. */
export const eraseInput = z.lazy(() =>
  z.strictObject({
    mode: z._default(
      z.enum(ERASURE_MODES, 'must be anonymise (keep the tickets, anonymised) or delete'),
      'anonymise',
    ),
    dryRun: z._default(z.boolean('must be true or false'), false),
  }),
);
export type EraseInput = z.output<typeof eraseInput>;
