import { releasedPhotos, stagePhoto } from '../blobs/photos';
import type { CustomerInput } from '../schemas/customer';
import { type CustomerRecord, customerEntity, type StoredAccount } from '../store/entities/records';
import { hashPassword } from './passwords';
import type { RecordResource } from './records';

/** Portal credentials: a username, and a password kept only as a slow salted hash. */
const storeAccount = (given: CustomerInput['account'], current: StoredAccount | null | undefined) => {
  if (given === null || given === undefined) return null;
  const next: StoredAccount = {
    username: current?.username ?? null,
    passwordHash: current?.passwordHash ?? null,
  };
  if ('username' in given) next.username = given.username ?? null;
  if (typeof given.password === 'string') next.passwordHash = hashPassword(given.password);
  return next;
};

/** Customers: new ones default to `topClient: false` and language `en`; the photo goes to S3. */
export const customers: RecordResource<CustomerRecord, CustomerInput> = {
  entity: customerEntity,
  history: 'CUSTOMER',
  prepare: (input, current) => {
    const { profilePhotoBlob: _photo, account, ...rest } = input;
    const fields: Partial<CustomerRecord> = { ...rest };
    if (current === undefined) {
      fields.topClient ??= false;
      fields.language ??= 'en';
    }
    if (account !== undefined) fields.account = storeAccount(account, current?.account);
    return fields;
  },
  files: {
    stage: async (tenantId, input) => {
      const { photo, undo } = await stagePhoto(tenantId, input.profilePhotoBlob);
      return { fields: photo === undefined ? {} : { photo }, staged: { undo } };
    },
    released: (before, after) => releasedPhotos(before?.photo, after?.photo),
  },
};
