// The Server keyword of a connection string, as SqlClient reads it: an optional tcp: prefix, a host (a name, an IPv4
// address or an IPv6 literal), an optional \instance and an optional ,port. What is not a TCP address SQL Server
// would accept is refused with the spelling it would accept.

export interface ServerAddress {
  server: string;
  /** null when the port is found through SQL Browser from instanceName. */
  port: number | null;
  instanceName?: string;
}

const DEFAULT_PORT = 1433;

/** Protocol prefixes SqlClient knows: tcp, named pipes, shared memory, and the dedicated admin connection. */
const PROTOCOL = /^(tcp|np|lpc|admin)\s*:/i;

/**
 * `host:port` is how most tools write an address, but SQL Server writes `host,port`: a colon would reach the driver
 * as part of the host name (getaddrinfo ENOTFOUND 127.0.0.1:15000). Refused before connecting, naming the comma
 * form. An IPv6 literal holds two colons or more and is an address, not a port.
 */
function colonPortProblem(raw: string, prefix: string, host: string, instance: string | undefined): string | null {
  const bracketed = /^\[([^\]]*)\]:(\d+)$/.exec(host);
  const single = /^([^:]+):(\d+)$/.exec(host);
  const hostPort = bracketed ? [`[${bracketed[1]}]`, bracketed[2]] : single ? [single[1], single[2]] : null;
  if (hostPort) {
    const [h, port] = hostPort;
    return `Server=${raw}: SQL Server writes host,port (a comma), not host:port: write Server=${prefix}${h},${port}`;
  }
  const inst = instance === undefined ? null : /^([^:]+):(\d+)$/.exec(instance);
  if (inst) {
    return `Server=${raw}: a port goes after a comma, not a colon: write Server=${prefix}${host}\\${inst[1]} (the instance, found through SQL Browser) or Server=${prefix}${host},${inst[2]} (the port)`;
  }
  const url = /^[a-z][a-z0-9+.-]*:\/\/([^/:,;]+)/i.exec(host);
  if (url) return `Server=${raw}: a URL is not a server name; write the host alone, e.g. Server=${prefix}${url[1]},1433`;
  if ((host.match(/:/g) ?? []).length === 1) {
    return `Server=${raw}: "${host}" is not a host name (one colon: neither a name nor an IPv6 address); write Server=${prefix}host or Server=${prefix}host,port`;
  }
  return null;
}

/** Server=... as SqlClient reads it: [tcp:]host[\\instance][,port]; `fail` throws the caller's error with the words given. */
export function parseServer(raw: string, fail: (why: string) => never): ServerAddress {
  let s = raw.trim();
  let prefix = '';
  const proto = PROTOCOL.exec(s);
  if (proto) {
    if (proto[1].toLowerCase() !== 'tcp') {
      fail(`Server=${raw}: only TCP connections are supported; write Server=tcp:host,port or Server=host,port`);
    }
    prefix = 'tcp:';
    s = s.slice(proto[0].length).trim();
  }
  let port: number | null = null;
  const comma = s.lastIndexOf(',');
  if (comma >= 0) {
    const p = s.slice(comma + 1).trim();
    if (!/^\d{1,5}$/.test(p) || Number(p) < 1 || Number(p) > 65535) {
      fail(`Server=${raw}: "${p}" is not a TCP port (1-65535); write e.g. Server=localhost,1433`);
    }
    port = Number(p);
    s = s.slice(0, comma).trim();
  }
  let instanceName: string | undefined;
  const slash = s.indexOf('\\');
  if (slash >= 0) {
    instanceName = s.slice(slash + 1).trim();
    s = s.slice(0, slash).trim();
    if (!instanceName) fail(`Server=${raw}: nothing after the backslash; write host\\INSTANCE`);
  }
  const colon = colonPortProblem(raw.trim(), prefix, s, instanceName);
  if (colon) fail(colon);
  // [::1] is how URLs write an IPv6 address; the driver wants it bare.
  const v6 = /^\[([0-9a-f:.%]+)\]$/i.exec(s);
  if (v6) s = v6[1];
  if (/^\(localdb\)$/i.test(s)) {
    fail(`Server=${raw}: LocalDB is reached through named pipes, which Node drivers cannot use; give its TCP port instead`);
  }
  if (s === '.' || /^\(local\)$/i.test(s)) s = 'localhost';
  if (!s) fail(`Server=${raw}: no host name; write e.g. Server=localhost,1433`);
  // An explicit port wins over the instance name (as SqlClient does); the driver refuses both at once.
  if (port !== null) return { server: s, port, instanceName: undefined };
  return { server: s, port: instanceName ? null : DEFAULT_PORT, instanceName };
}
