// The servers file of `spinlab watch --servers FILE`: a JSON or YAML list of connections (or { servers: [...] }).
// Secrets never live in it: each entry names the environment variable its password comes from (passwordEnv), and an
// entry holding a password is refused. Every entry is checked, and every problem said at once with its fix, before
// anything connects.
import * as fs from 'node:fs';
import { parse as parseYaml } from 'yaml';
import type { DbTarget } from '../db/target';
import { parseDuration } from '../shared/params';
import { UsageError } from './commands';
import { plural } from '../shared/plural';

export interface FleetServer {
  name: string;
  target: DbTarget;
  intervalMs: number;
}

const KEYS = [
  'name',
  'server',
  'port',
  'user',
  'auth',
  'domain',
  'passwordEnv',
  'database',
  'interval',
  'encrypt',
  'trustServerCertificate',
];
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const EXAMPLE = `- name: prod1
  server: sql1.example.com
  port: 1433
  user: spinlab
  passwordEnv: SQL_PROD1_PASSWORD
  interval: 1s`;

export function readServersFile(file: string, env: NodeJS.ProcessEnv = process.env): FleetServer[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'it does not exist' : code === 'EISDIR' ? 'it is a folder' : (err as Error).message;
    throw new UsageError(
      `Cannot read the servers file ${file}: ${why}. Give a YAML or JSON list of servers (docs/monitoring/README.md), one entry like:\n${EXAMPLE}`,
    );
  }
  let doc: unknown;
  try {
    doc = /\.json$/i.test(file) ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    throw new UsageError(`The servers file ${file} is not valid ${/\.json$/i.test(file) ? 'JSON' : 'YAML'}: ${(err as Error).message}`);
  }
  return parseServers(doc, file, env);
}

export function parseServers(doc: unknown, file: string, env: NodeJS.ProcessEnv): FleetServer[] {
  const list = Array.isArray(doc) ? doc : (doc as { servers?: unknown } | null)?.servers;
  if (!Array.isArray(list) || list.length === 0)
    throw new UsageError(`The servers file ${file} must hold a non-empty list of servers (or "servers:" with one), like:\n${EXAMPLE}`);
  const problems: string[] = [];
  const names = new Set<string>();
  const out: FleetServer[] = [];
  list.forEach((raw, i) => {
    const where = `entry ${i + 1}`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      problems.push(`${where}: must be an object with name, server, port, user, passwordEnv and interval.`);
      return;
    }
    const e = raw as Record<string, unknown>;
    const label = typeof e.name === 'string' ? `${where} (${e.name})` : where;
    const bad = (m: string) => problems.push(`${label}: ${m}`);
    for (const k of Object.keys(e)) {
      if (/pass(word)?$|secret|token|pwd/i.test(k) && k !== 'passwordEnv')
        bad(`"${k}" holds a secret, and secrets never go in this file: put it in an environment variable and name it with "passwordEnv".`);
      else if (/^(connection|connectionstring)$/i.test(k))
        bad(
          `"${k}": a servers file spells a connection out (server, port, user, passwordEnv) so no password sits in it; no connection strings.`,
        );
      else if (!KEYS.includes(k)) bad(`unknown key "${k}" (known: ${KEYS.join(', ')}).`);
    }
    if (typeof e.name !== 'string' || !NAME.test(e.name))
      bad('"name" must be 1 to 64 letters, digits, ".", "_" or "-" (it labels every series of this server).');
    else if (names.has(e.name)) bad(`the name "${e.name}" is used twice: each server needs its own.`);
    else names.add(e.name);
    if (typeof e.server !== 'string' || !e.server.trim()) bad('"server" must be the host name or address.');
    else {
      // A port written into the host (h1:14330, or h1,14330 as connection strings do) would be looked up as a name.
      const m = /^(?:tcp:)?([^:,]+)[:,]\s*(\d{1,5})$/i.exec(e.server.trim());
      if (m) bad(`"server": "${e.server}" holds a port: write "server": "${m[1].trim()}" with "port": ${m[2]}.`);
    }
    const port = e.port ?? 1433;
    if (!Number.isInteger(port) || (port as number) < 1 || (port as number) > 65535)
      bad(`"port" must be a whole number from 1 to 65535, not ${JSON.stringify(port)}.`);
    const auth = e.auth ?? 'sql';
    if (auth !== 'sql' && auth !== 'ntlm') bad(`"auth" must be "sql" or "ntlm", not ${JSON.stringify(auth)}.`);
    if (auth === 'ntlm' && typeof e.domain !== 'string') bad('"auth: ntlm" needs "domain".');
    if (typeof e.user !== 'string' || !e.user) bad('"user" must be the login name.');
    let password: string | undefined;
    if (typeof e.passwordEnv !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(e.passwordEnv))
      bad('"passwordEnv" must name the environment variable that holds the password (e.g. SQL_PROD1_PASSWORD).');
    else if (!env[e.passwordEnv])
      bad(`the environment variable ${e.passwordEnv} (its "passwordEnv") is not set: export it before starting.`);
    else password = env[e.passwordEnv];
    let intervalMs = 1000;
    if (e.interval !== undefined) {
      try {
        intervalMs = parseDuration(String(e.interval));
      } catch {
        intervalMs = NaN;
      }
      if (!(intervalMs >= 250)) bad(`"interval" must be a time of 250ms or more (e.g. 1s, 500ms), not ${JSON.stringify(e.interval)}.`);
    }
    for (const k of ['encrypt', 'trustServerCertificate'])
      if (e[k] !== undefined && typeof e[k] !== 'boolean' && e[k] !== 'strict') bad(`"${k}" must be true or false.`);
    if (e.database !== undefined && typeof e.database !== 'string') bad('"database" must be a name.');
    out.push({
      name: String(e.name),
      intervalMs,
      target: {
        server: String(e.server),
        port: port as number,
        user: e.user as string,
        password,
        authentication: auth as 'sql' | 'ntlm',
        ...(auth === 'ntlm' ? { domain: e.domain as string } : {}),
        database: (e.database as string | undefined) ?? 'master',
        encrypt: (e.encrypt as boolean | 'strict' | undefined) ?? true,
        trustServerCertificate: (e.trustServerCertificate as boolean | undefined) ?? false,
        connectTimeoutMs: 15_000,
      },
    });
  });
  if (problems.length)
    throw new UsageError(
      `The servers file ${file} has ${plural(problems.length, 'problem')}; nothing was started:\n${problems.map((p) => `- ${p}`).join('\n')}`,
    );
  return out;
}
