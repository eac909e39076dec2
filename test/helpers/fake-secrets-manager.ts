import { randomUUID } from 'node:crypto';
import {
  DescribeSecretCommand,
  GetSecretValueCommand,
  InvalidParameterException,
  PutSecretValueCommand,
  ResourceExistsException,
  ResourceNotFoundException,
  SecretsManagerClient,
  UpdateSecretVersionStageCommand,
} from '@aws-sdk/client-secrets-manager';
import { vi } from 'vitest';

/**
 * One secret as Secrets Manager keeps it, for the SDK client's `send` to talk to: versions with
 * values and staging labels, AWSCURRENT's move labelling the old version AWSPREVIOUS, and RotateSecret's
 * AWSPENDING placeholder (a version with no value until createSecret puts one). Only the calls the
 * cursor key and its rotation make; anything else fails the test.
 */
interface Version {
  value?: string;
  createdAt: Date;
  stages: Set<string>;
}

const $metadata = {};
const notFound = (message: string) => new ResourceNotFoundException({ message, $metadata });
const invalid = (message: string) => new InvalidParameterException({ message, $metadata });

export class FakeSecretsManager {
  readonly versions = new Map<string, Version>();
  /** Every call, in order: the command's name without `Command`. */
  readonly calls: string[] = [];
  rotationEnabled = true;
  /** Set to make every call fail (an outage). */
  failing: Error | undefined;

  constructor(
    readonly arn: string,
    initialValue: string,
  ) {
    this.versions.set(randomUUID(), {
      value: initialValue,
      createdAt: new Date(),
      stages: new Set(['AWSCURRENT']),
    });
  }

  /** Routes every SecretsManagerClient's `send` here until the spy is restored. */
  install() {
    return vi
      .spyOn(SecretsManagerClient.prototype, 'send')
      .mockImplementation(((command: unknown) => this.send(command)) as never);
  }

  /** Version ids by staging label, as DescribeSecret lists them. */
  stages(): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const [id, v] of this.versions) if (v.stages.size > 0) out[id] = [...v.stages].sort();
    return out;
  }

  /** The version carrying `stage`. */
  labelled(stage: string): string | undefined {
    return [...this.versions].find(([, v]) => v.stages.has(stage))?.[0];
  }

  valueOf(stage: string): string | undefined {
    const id = this.labelled(stage);
    return id === undefined ? undefined : this.versions.get(id)?.value;
  }

  /** What RotateSecret does before calling the rotation function: an empty AWSPENDING version. */
  startRotation(token: string = randomUUID()): string {
    this.moveLabel('AWSPENDING', token);
    this.versions.set(token, { createdAt: new Date(), stages: new Set(['AWSPENDING']) });
    return token;
  }

  private moveLabel(stage: string, to: string | undefined): void {
    const from = this.labelled(stage);
    if (from !== undefined) this.versions.get(from)?.stages.delete(stage);
    if (to !== undefined) this.versions.get(to)?.stages.add(stage);
    if (stage === 'AWSCURRENT' && from !== undefined && from !== to) this.moveLabel('AWSPREVIOUS', from);
  }

  private async send(command: unknown): Promise<unknown> {
    const name = (command as object).constructor.name.replace(/Command$/, '');
    this.calls.push(name);
    if (this.failing) throw this.failing;
    if (command instanceof DescribeSecretCommand) {
      this.checkId(command.input.SecretId);
      return { ARN: this.arn, RotationEnabled: this.rotationEnabled, VersionIdsToStages: this.stages() };
    }
    if (command instanceof GetSecretValueCommand) {
      const { SecretId, VersionId, VersionStage } = command.input;
      this.checkId(SecretId);
      const id = VersionId ?? this.labelled(VersionStage ?? 'AWSCURRENT');
      const version = id === undefined ? undefined : this.versions.get(id);
      if (!version || (VersionStage && !version.stages.has(VersionStage)) || version.value === undefined)
        throw notFound("Secrets Manager can't find the specified secret value");
      return {
        ARN: this.arn,
        VersionId: id,
        SecretString: version.value,
        VersionStages: [...version.stages],
        CreatedDate: version.createdAt,
      };
    }
    if (command instanceof PutSecretValueCommand) {
      const { SecretId, ClientRequestToken, SecretString, VersionStages = ['AWSCURRENT'] } = command.input;
      this.checkId(SecretId);
      const id = ClientRequestToken ?? randomUUID();
      const existing = this.versions.get(id);
      if (existing?.value !== undefined && existing.value !== SecretString)
        throw new ResourceExistsException({ message: 'The version exists with another value', $metadata });
      if (existing) existing.value = SecretString;
      else this.versions.set(id, { value: SecretString, createdAt: new Date(), stages: new Set() });
      for (const stage of VersionStages) this.moveLabel(stage, id);
      return { ARN: this.arn, VersionId: id, VersionStages };
    }
    if (command instanceof UpdateSecretVersionStageCommand) {
      const { SecretId, VersionStage, MoveToVersionId, RemoveFromVersionId } = command.input;
      this.checkId(SecretId);
      if (!VersionStage) throw invalid('VersionStage is required');
      const holder = this.labelled(VersionStage);
      if (holder !== undefined && holder !== RemoveFromVersionId && holder !== MoveToVersionId)
        throw invalid(`The label is attached to ${holder}: name it in RemoveFromVersionId`);
      if (RemoveFromVersionId !== undefined && holder !== RemoveFromVersionId)
        throw invalid(`The label is not attached to ${RemoveFromVersionId}`);
      if (MoveToVersionId !== undefined && !this.versions.has(MoveToVersionId))
        throw notFound('No such version');
      this.moveLabel(VersionStage, MoveToVersionId);
      return { ARN: this.arn };
    }
    throw new Error(`FakeSecretsManager does not answer ${name}`);
  }

  private checkId(secretId: string | undefined): void {
    if (secretId !== this.arn) throw notFound(`No secret ${secretId}`);
  }
}
