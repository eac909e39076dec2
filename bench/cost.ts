/**
 * Cost on paper of one million requests of an operation, from its measured capacity units and
 * latency. Prices are public us-east-1 list prices as assumed in docs/performance.md (check them
 * before relying on the result); free tiers, data transfer and CloudWatch Logs are left out.
 */
export const PRICES = {
  /** Lambda arm64, per GB-second (first pricing tier). */
  lambdaGbSecond: 0.0000133334,
  /** Lambda, per request. */
  lambdaRequest: 0.2 / 1e6,
  /** API Gateway HTTP API, per request (first 300 million a month). */
  httpApiRequest: 1.0 / 1e6,
  /** DynamoDB on-demand, standard table class, per read / write request unit. */
  readRequestUnit: 0.125 / 1e6,
  writeRequestUnit: 0.625 / 1e6,
  /** Memory of the deployed functions (infra/api-function.ts). */
  lambdaMemoryGb: 1024 / 1024,
} as const;

export interface CostPerMillion {
  /** Billed duration assumed per request: the measured median latency, rounded up to 1 ms. */
  billedMs: number;
  lambda: number;
  httpApi: number;
  dynamodb: number;
  total: number;
}

export const costPerMillion = (op: {
  medianMs: number;
  readUnits: number;
  writeUnits: number;
}): CostPerMillion => {
  const billedMs = Math.max(1, Math.ceil(op.medianMs));
  const lambda =
    1e6 * ((billedMs / 1000) * PRICES.lambdaMemoryGb * PRICES.lambdaGbSecond + PRICES.lambdaRequest);
  const httpApi = 1e6 * PRICES.httpApiRequest;
  const dynamodb = 1e6 * (op.readUnits * PRICES.readRequestUnit + op.writeUnits * PRICES.writeRequestUnit);
  return { billedMs, lambda, httpApi, dynamodb, total: lambda + httpApi + dynamodb };
};
