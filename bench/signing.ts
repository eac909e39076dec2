import { Readable } from 'node:stream';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { withoutSdkLogging } from '../shared/aws/sdk-logging';
import { sdkHashing } from '../shared/aws/sha256';
import { median } from './stats';

/**
 * Section 4's measure of shared/aws/sha256.ts: the CPU a DynamoDB call costs the SDK with our
 * SHA-256 and with its own, in one process, every call a GetItem answered from memory (no socket),
 * so the difference is the request's signing and nothing else of the machine. Rounds of `calls`
 * calls, one at a time, alternate the two clients (the order flipping every round), after
 * `warm` rounds of each. If a Node release makes `createHmac` under a Buffer key as cheap as under
 * a KeyObject, the ratio comes to ~1 and the class has no reason left to exist.
 */
export interface SigningResult {
  rounds: number;
  calls: number;
  /** CPU µs a call of each round: with our SHA-256, with the SDK's own. */
  oursUs: number[];
  sdkUs: number[];
  oursMedianUs: number;
  sdkMedianUs: number;
  /** Median over the rounds of ours / the SDK's (goal < 1). */
  ratio: number;
}

const ANSWER = Buffer.from(
  JSON.stringify({ Item: { pk: { S: 'T#bench#TICKET#1' }, sk: { S: '#' }, subject: { S: 'Signed' } } }),
);

/** A DynamoDB client whose every call is answered from memory, with our SHA-256 or the SDK's. */
const clientOf = (ours: boolean) =>
  withoutSdkLogging(
    new DynamoDBClient({
      ...(ours ? sdkHashing : {}),
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9',
      credentials: { accessKeyId: 'bench', secretAccessKey: 'bench-secret' },
      requestHandler: {
        handle: async () => ({
          response: {
            statusCode: 200,
            headers: { 'content-type': 'application/x-amz-json-1.0' },
            body: Readable.from([ANSWER]),
          },
        }),
        updateHttpClientConfig: () => undefined,
        httpHandlerConfigs: () => ({}),
      } as never,
    }),
  );

const get = new GetItemCommand({
  TableName: 'helpdesk-bench',
  Key: { pk: { S: 'T#bench#TICKET#1' }, sk: { S: '#' } },
});

/** CPU µs a call over `calls` calls, one at a time. */
const round = async (client: DynamoDBClient, calls: number): Promise<number> => {
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) await client.send(get);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / calls;
};

export const measureSigning = async (rounds: number, calls: number, warm = 3): Promise<SigningResult> => {
  const ours = clientOf(true);
  const sdk = clientOf(false);
  try {
    const oursUs: number[] = [];
    const sdkUs: number[] = [];
    const sides = [
      { client: ours, us: oursUs },
      { client: sdk, us: sdkUs },
    ];
    for (let i = 0; i < warm; i++) for (const { client } of sides) await round(client, calls);
    for (let r = 0; r < rounds; r++)
      for (const { client, us } of r % 2 ? [...sides].reverse() : sides) us.push(await round(client, calls));
    return {
      rounds,
      calls,
      oursUs,
      sdkUs,
      oursMedianUs: median(oursUs),
      sdkMedianUs: median(sdkUs),
      ratio: median(oursUs.map((us, i) => us / (sdkUs[i] as number))),
    };
  } finally {
    ours.destroy();
    sdk.destroy();
  }
};
