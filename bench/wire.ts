// A counting TCP proxy on loopback: what a client sends and receives on the wire, byte for byte (TDS packets,
// headers included), without touching the driver. Used to measure the sampler's bytes per tick.
import * as net from 'node:net';

export interface CountingProxy {
  port: number;
  /** Bytes client -> server and server -> client so far, over every connection. */
  sent: number;
  received: number;
  close(): Promise<void>;
}

export async function startCountingProxy(targetPort: number, host = '127.0.0.1'): Promise<CountingProxy> {
  const sockets = new Set<net.Socket>();
  const proxy: CountingProxy = { port: 0, sent: 0, received: 0, close: async () => undefined };
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, host);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    sockets.add(client);
    sockets.add(upstream);
    client.on('data', (d) => {
      proxy.sent += d.length;
      upstream.write(d);
    });
    upstream.on('data', (d) => {
      proxy.received += d.length;
      client.write(d);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  proxy.port = (server.address() as net.AddressInfo).port;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return proxy;
}
