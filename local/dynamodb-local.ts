import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';

/**
 * Runs AWS's DynamoDB Local (the jar shipped by `amplify-dynamodb-simulator`) as a child process.
 * Used by `npm start`, the operator CLI and the vitest global setup; no Docker needed, only Java.
 */
export interface DynamoDbLocal {
  readonly endpoint: string;
  stop(): Promise<void>;
}

export interface DynamoDbLocalOptions {
  /** Directory to persist the database in; omitted = in memory (gone when stopped). */
  dbPath?: string;
  /** How long to wait for the first successful request. */
  readyTimeoutMs?: number;
  /**
   * For runs of a few seconds (a CLI command): the JVM skips its optimising compiler, which
   * about halves startup (measured 3.7 s instead of 6.9 s) at the cost of peak throughput.
   */
  shortLived?: boolean;
}

const emulatorDir = (): string => {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('amplify-dynamodb-simulator/package.json')), 'emulator');
};

/**
 * Java cannot ask the kernel to kill it when its parent dies, so a tiny shell wrapper does:
 * it holds our stdin pipe, which closes however we end (even SIGKILL), and then kills java.
 * `wait` makes the wrapper exit only after java has, so our 'exit' event means java is gone.
 */
const WATCHDOG = `exec 3<&0 </dev/null
"$@" &
java=$!
(read -r _ <&3; kill "$java" 2>/dev/null) &
watch=$!
wait "$java"; status=$?
kill "$watch" 2>/dev/null
exit "$status"`;

/** A DynamoDB client for a local endpoint. DynamoDB Local ignores credentials but the SDK wants some. */
export const localDynamoClient = (endpoint: string): DynamoDBClient =>
  new DynamoDBClient({
    endpoint,
    region: process.env.AWS_REGION ?? 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });

/** True when something at `endpoint` answers DynamoDB requests. */
export const dynamoAnswers = async (endpoint: string, timeoutMs = 1000): Promise<boolean> => {
  const client = localDynamoClient(endpoint);
  try {
    await client.send(new ListTablesCommand({ Limit: 1 }), { abortSignal: AbortSignal.timeout(timeoutMs) });
    return true;
  } catch {
    return false;
  } finally {
    client.destroy();
  }
};

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });

/** The last few KB of the child's output, for error messages (never written to our stdout). */
const outputTail = (child: ChildProcess): (() => string) => {
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => tail.trim();
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const startOnce = async (options: DynamoDbLocalOptions): Promise<DynamoDbLocal> => {
  const emulator = emulatorDir();
  const port = await freePort();
  const dbPath = options.dbPath && resolve(options.dbPath);
  // It writes dynamodb-local-metadata.json into its working directory: keep that out of the repo.
  const cwd = dbPath ?? mkdtempSync(join(tmpdir(), 'dynamodb-local-'));
  mkdirSync(cwd, { recursive: true });
  const java = [
    'java',
    ...(options.shortLived ? ['-XX:TieredStopAtLevel=1'] : []),
    `-Djava.library.path=${join(emulator, 'DynamoDBLocal_lib')}`,
    '-jar',
    join(emulator, 'DynamoDBLocal.jar'),
    '-port',
    String(port),
    // One database whatever the access key and region, so the CLI, the server and the
    // tests see the same tables whatever credentials or AWS_REGION they use.
    '-sharedDb',
    '-disableTelemetry',
    ...(dbPath ? ['-dbPath', dbPath] : ['-inMemory']),
  ];
  // detached: its own process group, so a terminal Ctrl-C reaches only us and we stop it in order.
  const child = spawn('sh', ['-c', WATCHDOG, 'dynamodb-local', ...java], {
    cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  const output = outputTail(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let running = true;
  void exited.then(() => {
    running = false;
    if (!dbPath) rmSync(cwd, { recursive: true, force: true });
  });
  const killGroup = () => {
    if (running && child.pid) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };
  // Our process ending without stop() (a crash, process.exit): take java and its temp dir along.
  const onExit = () => {
    killGroup();
    if (!dbPath) rmSync(cwd, { recursive: true, force: true });
  };
  process.once('exit', onExit);

  const endpoint = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  while (!(await dynamoAnswers(endpoint, 500))) {
    if (!running) {
      const code = await exited;
      throw new Error(`DynamoDB Local exited with code ${code} before it was ready:\n${output()}`);
    }
    if (Date.now() > deadline) {
      killGroup();
      throw new Error(`DynamoDB Local did not answer on ${endpoint} within the timeout:\n${output()}`);
    }
    await sleep(100);
  }

  return {
    endpoint,
    async stop() {
      process.off('exit', onExit);
      if (!running) return;
      child.stdin?.end(); // the watchdog sends java SIGTERM and waits for it
      const timer = setTimeout(killGroup, 5000);
      await exited;
      clearTimeout(timer);
    },
  };
};

/**
 * Starts DynamoDB Local on a free port and resolves once it answers requests.
 * Retries once with another port if the one we picked was taken in the meantime.
 */
export const startDynamoDbLocal = async (options: DynamoDbLocalOptions = {}): Promise<DynamoDbLocal> => {
  try {
    return await startOnce(options);
  } catch (error) {
    if (error instanceof Error && /Address already in use|BindException/.test(error.message)) {
      return startOnce(options);
    }
    if (error instanceof Error && /java: (not found|No such file)/.test(error.message)) {
      error.message += '\nInstall Java 17 (Debian: apt-get install -y openjdk-17-jre-headless).';
    }
    throw error;
  }
};
