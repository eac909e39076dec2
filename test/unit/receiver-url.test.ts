import { afterEach, describe, expect, it } from 'vitest';
import { resetConfig } from '../../shared/config';
import {
  checkReceiver,
  isForbiddenAddress,
  type LocalReceivers,
  localReceivers,
  receiverProblem,
  resolveReceiver,
} from '../../shared/domain/receiver-url';
import { InvalidInput } from '../../shared/store/errors';

/** Webhook receivers (SSRF): https to public addresses only, after DNS; http to localhost only in local mode. */
const resolvesTo =
  (...addresses: string[]) =>
  async () =>
    addresses.map((address) => ({ address }));
const refusal = async (url: string, lookup = resolvesTo('93.184.215.14')) => {
  try {
    await checkReceiver(url, lookup);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInput);
    const { errors } = error as InvalidInput;
    expect(errors?.map((e) => e.path)).toEqual(['url']);
    return errors?.[0]?.message;
  }
};

describe('isForbiddenAddress', () => {
  it.each([
    '0.0.0.0',
    '0.1.2.3',
    '10.0.0.1',
    '10.255.255.255',
    '100.64.0.1',
    '100.127.255.254',
    '127.0.0.1',
    '127.8.9.10',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.8',
    '192.0.2.1',
    '192.168.1.1',
    '198.18.0.1',
    '198.51.100.7',
    '203.0.113.9',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
  ])('refuses IPv4 %s', (address) => expect(isForbiddenAddress(address)).toBe(true));

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    '93.184.215.14',
    '172.32.0.1',
    '172.15.255.255',
    '100.128.0.1',
    '100.63.255.255',
    '192.169.0.1',
  ])('accepts public IPv4 %s', (address) => expect(isForbiddenAddress(address)).toBe(false));

  it.each([
    '::',
    '::1',
    '0:0:0:0:0:0:0:1',
    'fe80::1',
    'fe80::1%eth0',
    'febf:ffff::1',
    'fc00::1',
    'fd12:3456:789a::1',
    'fec0::1',
    'ff02::1',
    'ff05::1:3',
    '2001:db8::1',
    '100::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '64:ff9b:1::a',
    // IPv4-mapped and IPv4-embedding forms of refused IPv4 addresses
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::FFFF:10.0.0.1',
    '::ffff:a9fe:a9fe',
    '::ffff:100.64.0.1',
    '::ffff:0:0',
    '64:ff9b::10.0.0.1',
    '64:ff9b::c0a8:101',
    '2002:a00:1::1',
    '2002:7f00:1::',
    // IPv4-compatible (deprecated)
    '::127.0.0.1',
    '::8.8.8.8',
    // Outside 2000::/3 (or in its special blocks) whatever IPv4 address they carry: only global unicast passes.
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '2001:4860:4860::8888%eth0',
  ])('refuses IPv6 %s', (address) => expect(isForbiddenAddress(address)).toBe(true));

  it.each(['2606:4700:4700::1111', '2001:4860:4860::8888', '2a00:1450:4001:80b::200e'])(
    'accepts public IPv6 %s',
    (address) => expect(isForbiddenAddress(address)).toBe(false),
  );

  it('refuses what is not an address', () => {
    for (const text of ['', 'localhost', '1.2.3', '::g', '999.1.1.1'])
      expect(isForbiddenAddress(text), text).toBe(true);
  });
});

describe('receiverProblem', () => {
  const url = (s: string) => new URL(s);
  /** Local mode with ports 8080 and 9000-9009 named, and 4566 (a local service's) among them. */
  const local: LocalReceivers = {
    ports: [
      [8080, 8080],
      [9000, 9009],
      [4566, 4566],
    ],
    own: new Set([4566, 3000]),
  };
  it('wants https, no credentials, a resolving host with only public addresses; any port', () => {
    expect(
      receiverProblem(url('https://hooks.example.com:8443/in'), ['93.184.215.14'], undefined),
    ).toBeUndefined();
    expect(receiverProblem(url('http://hooks.example.com/in'), ['93.184.215.14'], undefined)).toBe(
      'must be an https URL',
    );
    expect(receiverProblem(url('ftp://hooks.example.com/in'), ['93.184.215.14'], undefined)).toBe(
      'must be an https URL',
    );
    expect(receiverProblem(url('https://me:pw@hooks.example.com/'), ['93.184.215.14'], undefined)).toBe(
      'must not carry credentials',
    );
    expect(receiverProblem(url('https://me@hooks.example.com/'), ['93.184.215.14'], undefined)).toBe(
      'must not carry credentials',
    );
    expect(receiverProblem(url('https://hooks.example.com/'), [], undefined)).toBe(
      'its host does not resolve',
    );
    expect(
      receiverProblem(url('https://hooks.example.com/'), ['93.184.215.14', '10.0.0.1'], undefined),
    ).toMatch(/resolves to 10\.0\.0\.1/);
    // A public receiver may use any port, in local mode too (only local receivers' are named).
    expect(receiverProblem(url('https://hooks.example.com:4566/'), ['93.184.215.14'], local)).toBeUndefined();
  });

  it('lets local mode use http and loopback for localhost, 127.0.0.1 and [::1] only', () => {
    for (const s of [
      'http://localhost:8080/in',
      'https://localhost:9009/in',
      'http://127.0.0.1:9000/',
      'http://[::1]:8080/',
    ])
      expect(receiverProblem(url(s), ['127.0.0.1', '::1'], local), s).toBeUndefined();
    // Not in local mode: http is refused, and so is loopback.
    expect(receiverProblem(url('http://localhost:8080/in'), ['127.0.0.1'], undefined)).toBe(
      'must be an https URL',
    );
    expect(receiverProblem(url('https://localhost/in'), ['127.0.0.1'], undefined)).toMatch(
      /resolves to 127\.0\.0\.1/,
    );
    // Local mode: other hosts still need https and public addresses; local hosts only loopback.
    expect(receiverProblem(url('http://hooks.example.com/'), ['93.184.215.14'], local)).toMatch(/https/);
    expect(receiverProblem(url('https://evil.example.com:8080/'), ['127.0.0.1'], local)).toMatch(
      /resolves to 127/,
    );
    expect(receiverProblem(url('http://localhost:8080/'), ['10.0.0.1'], local)).toMatch(
      /resolves to 10\.0\.0\.1/,
    );
    expect(receiverProblem(url('http://localhost:8080/'), ['::ffff:127.0.0.1'], local)).toMatch(
      /resolves to/,
    );
    expect(receiverProblem(url('http://localhost:8080/'), ['::ffff:0:7f00:1'], local)).toMatch(/resolves to/);
  });

  it("lets a local receiver use only the ports named, never a local service's own", () => {
    const refused = (s: string) => receiverProblem(url(s), ['127.0.0.1'], local);
    for (const s of [
      'http://localhost:8081/',
      'http://localhost:8999/',
      'http://127.0.0.1:9010/',
      'http://[::1]:1/',
      'http://localhost/', // 80
      'https://localhost/', // 443
    ])
      expect(refused(s), s).toMatch(
        /must use a port WEBHOOK_LOCAL_PORTS names for local receivers \(\d+ is not one\)/,
      );
    // Named, but a local service's (DynamoDB Local, the S3 server, the queue, the API).
    expect(refused('http://localhost:4566/')).toMatch(/must not use port 4566: it is a local service's/);
    expect(refused('http://localhost:3000/')).toMatch(/must not use port 3000/);
    // None named: no local receiver at all.
    expect(
      receiverProblem(url('http://localhost:8080/'), ['127.0.0.1'], { ports: [], own: new Set() }),
    ).toMatch(/8080 is not one/);
  });
});

describe('localReceivers (the configuration)', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    resetConfig();
  });
  const configured = (env: Record<string, string>) => {
    Object.assign(process.env, env);
    resetConfig();
    return localReceivers();
  };

  it('is off without WEBHOOK_ALLOW_LOCAL_HTTP, whatever ports are named', () => {
    delete process.env.WEBHOOK_ALLOW_LOCAL_HTTP;
    expect(configured({ WEBHOOK_LOCAL_PORTS: '8080' })).toBeUndefined();
  });

  it("reads WEBHOOK_LOCAL_PORTS (ports and ranges; empty or unset: none) and the local services' ports", () => {
    delete process.env.WEBHOOK_LOCAL_PORTS;
    expect(configured({ WEBHOOK_ALLOW_LOCAL_HTTP: 'true' })?.ports).toEqual([]);
    expect(configured({ WEBHOOK_LOCAL_PORTS: '' })?.ports).toEqual([]);
    const local = configured({
      WEBHOOK_LOCAL_PORTS: ' 8080, 9000-9009 ',
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:45001',
      S3_ENDPOINT: 'http://127.0.0.1:45002',
      SQS_ENDPOINT: 'http://127.0.0.1:45003',
      DELIVERY_BASE_URL: 'http://localhost:3000',
      PORT: '3001',
      REGION_ENDPOINTS: 'eu-west-1=http://127.0.0.1:45004,us-west-2=http://127.0.0.1:45005',
    });
    expect(local?.ports).toEqual([
      [8080, 8080],
      [9000, 9009],
    ]);
    expect([...(local?.own ?? [])].sort()).toEqual([3000, 3001, 45001, 45002, 45003, 45004, 45005]);
  });

  it('refuses a malformed WEBHOOK_LOCAL_PORTS when the configuration is read', () => {
    for (const bad of ['http', '8080;9000', '0', '65536', '9009-9000', '80-', ','])
      expect(() => configured({ WEBHOOK_ALLOW_LOCAL_HTTP: 'true', WEBHOOK_LOCAL_PORTS: bad }), bad).toThrow(
        /WEBHOOK_LOCAL_PORTS/,
      );
  });
});

describe('checkReceiver', () => {
  afterEach(() => {
    delete process.env.WEBHOOK_ALLOW_LOCAL_HTTP;
    delete process.env.WEBHOOK_LOCAL_PORTS;
    resetConfig();
  });

  it('resolves the host and answers the URL when every address is public', async () => {
    const url = await checkReceiver(
      'https://hooks.example.com/in?x=1',
      resolvesTo('93.184.215.14', '2606:4700::1'),
    );
    expect(url.href).toBe('https://hooks.example.com/in?x=1');
  });

  it('refuses a host with any private address, one that does not resolve, and non-URLs (400 naming url)', async () => {
    expect(await refusal('https://hooks.example.com/', resolvesTo('93.184.215.14', 'fd00::1'))).toMatch(
      /fd00::1/,
    );
    expect(await refusal('https://hooks.example.com/', resolvesTo())).toBe('its host does not resolve');
    const failing = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    expect(await refusal('https://nowhere.invalid/', failing)).toBe('its host does not resolve');
    expect(await refusal('not a url')).toBe('must be an absolute URL');
    expect(await refusal('mailto:ops@example.com')).toBe('must be an https URL');
  });

  it('reads IP literals without DNS, in every spelling URL parsing normalises', async () => {
    const never = async () => {
      throw new Error('no lookup for an IP literal');
    };
    for (const s of [
      'https://10.0.0.1/x',
      'https://127.0.0.1/',
      'https://0x7f.0.0.1/',
      'https://2130706433/',
      'https://0177.0.0.1/',
      'https://169.254.169.254/latest/meta-data/',
      'https://[::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[::ffff:a9fe:a9fe]/',
      'https://[fe80::1]/',
      'https://0.0.0.0:443/',
      'https://100.100.100.200/',
    ])
      expect(await refusal(s, never), s).toMatch(/resolves to/);
    expect((await checkReceiver('https://1.1.1.1:8443/in', never)).port).toBe('8443');
    expect((await checkReceiver('https://[2606:4700:4700::1111]/in', never)).hostname).toBe(
      '[2606:4700:4700::1111]',
    );
  });

  it('follows WEBHOOK_ALLOW_LOCAL_HTTP (off unless set)', async () => {
    const local = resolvesTo('127.0.0.1', '::1');
    expect(await refusal('http://localhost:8080/in', local)).toBe('must be an https URL');
    expect(await refusal('https://localhost/in', local)).toMatch(/resolves to 127\.0\.0\.1/);
    process.env.WEBHOOK_ALLOW_LOCAL_HTTP = 'true';
    process.env.WEBHOOK_LOCAL_PORTS = '8080';
    resetConfig();
    expect((await checkReceiver('http://localhost:8080/in', local)).port).toBe('8080');
    expect(await refusal('http://localhost:8081/in', local)).toMatch(/8081 is not one/);
    expect((await checkReceiver('http://127.0.0.1:8080/in')).hostname).toBe('127.0.0.1');
    expect(await refusal('http://10.0.0.1/in')).toMatch(/https/);
    process.env.WEBHOOK_ALLOW_LOCAL_HTTP = 'false';
    resetConfig();
    expect(await refusal('http://127.0.0.1:8080/in')).toBe('must be an https URL');
  });
});

describe('resolveReceiver', () => {
  afterEach(() => {
    delete process.env.WEBHOOK_ALLOW_LOCAL_HTTP;
    delete process.env.WEBHOOK_LOCAL_PORTS;
    resetConfig();
  });

  it('resolves the host once and answers the addresses it checked (what a delivery connects to)', async () => {
    const asked: string[] = [];
    const lookup = async (host: string) => {
      asked.push(host);
      return [{ address: '93.184.215.14' }, { address: '2606:4700::1' }];
    };
    const checked = await resolveReceiver('https://hooks.example.com:8443/in', lookup);
    expect(checked.url.href).toBe('https://hooks.example.com:8443/in');
    expect(checked.addresses).toEqual(['93.184.215.14', '2606:4700::1']);
    expect(asked).toEqual(['hooks.example.com']);
  });

  it('answers an IP literal as its own address, without DNS', async () => {
    const never = async () => {
      throw new Error('no lookup for an IP literal');
    };
    expect((await resolveReceiver('https://1.1.1.1/in', never)).addresses).toEqual(['1.1.1.1']);
    expect((await resolveReceiver('https://[2606:4700:4700::1111]/in', never)).addresses).toEqual([
      '2606:4700:4700::1111',
    ]);
  });

  it('refuses a host when any one of its addresses is not public (400 naming url)', async () => {
    for (const bad of [
      '10.0.0.1',
      '169.254.169.254',
      '127.0.0.1',
      '100.64.0.1',
      '::ffff:10.0.0.1',
      'fe80::1',
    ]) {
      let calls = 0;
      const lookup = async () => {
        calls += 1;
        return [{ address: '93.184.215.14' }, { address: bad }, { address: '1.1.1.1' }];
      };
      await expect(resolveReceiver('https://hooks.example.com/', lookup), bad).rejects.toBeInstanceOf(
        InvalidInput,
      );
      await expect(resolveReceiver('https://hooks.example.com/', lookup), bad).rejects.toThrow(bad);
      expect(calls, bad).toBe(2);
    }
  });

  it('in local mode answers the loopback addresses of localhost', async () => {
    process.env.WEBHOOK_ALLOW_LOCAL_HTTP = 'true';
    process.env.WEBHOOK_LOCAL_PORTS = '8080';
    resetConfig();
    const checked = await resolveReceiver('http://localhost:8080/in', resolvesTo('127.0.0.1', '::1'));
    expect(checked.addresses).toEqual(['127.0.0.1', '::1']);
    await expect(
      resolveReceiver('http://localhost:8080/in', resolvesTo('127.0.0.1', '10.0.0.1')),
    ).rejects.toThrow(/10\.0\.0\.1/);
  });
});
