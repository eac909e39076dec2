import { connect, createServer } from 'node:net';
import { networkInterfaces } from 'node:os';

/** Whether a TCP connection to `host:port` opens (within 2 s). */
export const connects = (host: string, port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });

/** This machine's own non-loopback addresses (link-local IPv6 left out: they need a zone). */
const externalAddresses = () =>
  Object.values(networkInterfaces())
    .flat()
    .filter((a) => a && !a.internal && !a.address.startsWith('fe80:'))
    .map((a) => a?.address as string);

/**
 * The addresses where a server listening on every interface can be reached (the control: a
 * server bound to loopback must be reachable on none of them).
 */
export const reachableWhenExposed = async (): Promise<string[]> => {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '::', resolve));
  const { port } = server.address() as { port: number };
  try {
    const all = externalAddresses();
    const ok = await Promise.all(all.map((host) => connects(host, port)));
    return all.filter((_, i) => ok[i]);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
};
