// ADO.NET connection strings (what SSMS, Azure Data Studio and the VS Code mssql extension hand out) parsed into a
// plain config object; src/db turns it into driver options. No driver import here. Secrets never reach logs: use
// redactConnectionString and describeServer for anything printed.
import { parse } from '@tediousjs/connection-string';
import { SpinlabError } from '../shared/spinlabError';
import { parseServer } from '../shared/serverAddress';

export type AuthenticationKind =
  | 'sql'
  | 'ntlm'
  | 'azure-active-directory-password'
  | 'azure-active-directory-access-token'
  | 'azure-active-directory-msi-vm'
  | 'azure-active-directory-default';

export interface ConnectionConfig {
  server: string;
  /** null when the port is found through SQL Browser from instanceName. */
  port: number | null;
  instanceName?: string;
  database?: string;
  user?: string;
  password?: string;
  /** Windows domain for NTLM ('CORP' from User ID=CORP\alice). */
  domain?: string;
  accessToken?: string;
  authentication: AuthenticationKind;
  encrypt: boolean | 'strict';
  trustServerCertificate: boolean;
  /** The name the server's certificate was issued to, when it differs from Server (connecting by address). */
  hostNameInCertificate?: string;
  connectTimeoutMs: number;
  appName: string;
  /** Valid ADO.NET keywords that Spinlock Lab accepts but does not act on (pooling, MARS, ...), for a warning. */
  ignoredKeywords: string[];
}

export class ConnectionStringError extends SpinlabError {
  constructor(message: string) {
    super('user-input', message);
  }
}

export const CONNECTION_STRING_EXAMPLE =
  'Server=localhost,1433;Database=SpinlockLab;User ID=spinlab;Password=...;TrustServerCertificate=true';

export const DEFAULT_APP_NAME = 'Spinlock Lab';
const DEFAULT_PORT = 1433;

/** Canonical keyword -> accepted spellings (compared lower case, spaces removed). */
const USED: Record<string, string[]> = {
  server: ['server', 'datasource', 'addr', 'address', 'networkaddress'],
  database: ['database', 'initialcatalog'],
  user: ['userid', 'uid', 'user'],
  password: ['password', 'pwd'],
  authentication: ['authentication'],
  integratedSecurity: ['integratedsecurity', 'trusted_connection'],
  encrypt: ['encrypt'],
  trustServerCertificate: ['trustservercertificate'],
  hostNameInCertificate: ['hostnameincertificate'],
  connectTimeout: ['connecttimeout', 'connectiontimeout', 'timeout'],
  appName: ['applicationname', 'app'],
  // Not ADO.NET (SqlConnection.AccessToken is a property); accepted so a token can travel in one setting.
  accessToken: ['accesstoken'],
};
/** Real ADO.NET / Microsoft.Data.SqlClient keywords with no effect here. */
const IGNORED = [
  'applicationintent',
  'asynchronousprocessing',
  'async',
  'attachdbfilename',
  'columnencryptionsetting',
  'commandtimeout',
  'connectionlifetime',
  'loadbalancetimeout',
  'connectretrycount',
  'connectretryinterval',
  'contextconnection',
  'currentlanguage',
  'language',
  'enlist',
  'failoverpartner',
  'ipaddresspreference',
  'maxpoolsize',
  'minpoolsize',
  'multipleactiveresultsets',
  'multisubnetfailover',
  'networklibrary',
  'network',
  'net',
  'packetsize',
  'persistsecurityinfo',
  'poolblockingperiod',
  'pooling',
  'replication',
  'servercertificate',
  'serverspn',
  'transactionbinding',
  'transparentnetworkipresolution',
  'typesystemversion',
  'userinstance',
  'workstationid',
  'wsid',
];
const SECRET = new Set(['password', 'pwd', 'accesstoken']);

const squash = (k: string) => k.toLowerCase().replace(/\s+/g, '');

function canonical(key: string): string | undefined {
  const k = squash(key);
  return Object.keys(USED).find((c) => USED[c].includes(k));
}

function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
  }
  return d[a.length][b.length];
}

const DISPLAY: Record<string, string> = {
  server: 'Server',
  database: 'Database',
  user: 'User ID',
  password: 'Password',
  authentication: 'Authentication',
  integratedSecurity: 'Integrated Security',
  encrypt: 'Encrypt',
  trustServerCertificate: 'TrustServerCertificate',
  hostNameInCertificate: 'HostNameInCertificate',
  connectTimeout: 'Connect Timeout',
  appName: 'Application Name',
  accessToken: 'AccessToken',
};

function suggestion(key: string): string {
  const k = squash(key);
  let best: [string, number] = ['', Infinity];
  for (const [c, spellings] of Object.entries(USED)) {
    for (const s of spellings) {
      const dist = distance(k, s);
      if (dist < best[1]) best = [DISPLAY[c], dist];
    }
  }
  return best[1] <= 3 ? ` (did you mean "${best[0]}"?)` : '';
}

// ---- a scanner mirroring the library's grammar, for positions (redaction) and for entries without '=' ----

interface Entry {
  key: string;
  /** Value span in the original text, quotes included; end is exclusive. */
  valueStart: number;
  valueEnd: number;
  hasEquals: boolean;
  /** A quote or brace that never closes: the value runs to the end of the string, swallowing what follows. */
  unterminated?: boolean;
}

const QUOTES: Record<string, string> = { '"': '"', "'": "'", '{': '}' };

function scan(s: string): Entry[] {
  const entries: Entry[] = [];
  let i = 0;
  while (i < s.length) {
    let key = '';
    while (i < s.length && !(s[i] === '=' && s[i + 1] !== '=') && !(s[i] === ';' && s[i + 1] !== ';')) {
      if ((s[i] === '=' || s[i] === ';') && s[i + 1] === s[i]) i++;
      key += s[i++];
    }
    if (i >= s.length || s[i] === ';') {
      if (key.trim()) entries.push({ key: key.trim(), valueStart: i, valueEnd: i, hasEquals: false });
      i++;
      continue;
    }
    i++; // '='
    while (i < s.length && s[i] !== ';' && /\s/.test(s[i])) i++;
    const valueStart = i;
    const close = QUOTES[s[i]];
    let unterminated = false;
    if (close) {
      i++;
      unterminated = true;
      for (; i < s.length; i++) {
        if (s[i] === close) {
          if (s[i + 1] === close) i++;
          else {
            i++;
            unterminated = false;
            break;
          }
        }
      }
      while (i < s.length && s[i] !== ';') i++;
    } else {
      while (i < s.length && !(s[i] === ';' && s[i + 1] !== ';')) i += s[i] === ';' ? 2 : 1;
    }
    let valueEnd = i;
    while (valueEnd > valueStart && /\s/.test(s[valueEnd - 1])) valueEnd--;
    entries.push({ key: key.trim(), valueStart, valueEnd, hasEquals: true, ...(unterminated ? { unterminated } : {}) });
    i++; // ';'
  }
  return entries;
}

/** Password=, Pwd= or AccessToken= inside text an unclosed quote swallowed. */
const SECRET_INSIDE = /(?:^|[;\s'"{])(?:password|pwd|access\s*token)\s*=/i;

/** The string with Password / Pwd / AccessToken values replaced by ***. Works on malformed strings too. */
export function redactConnectionString(s: string): string {
  let out = '';
  let pos = 0;
  for (const e of scan(s)) {
    if (e.hasEquals && e.unterminated) {
      // Where an unclosed quote ends is anyone's guess: a password written after it would pass as part of this
      // value, so from the first secret keyword on, everything is masked.
      const m = SECRET_INSIDE.exec(s.slice(e.valueStart));
      if (m) {
        out += s.slice(pos, e.valueStart + m.index + m[0].length) + '***';
        return out;
      }
    }
    // ';;Password=' is a key with an escaped ';' in front: the driver refuses it, but it still holds a password.
    if (!e.hasEquals || !SECRET.has(squash(e.key).replace(/^[;=]+/, ''))) continue;
    out += s.slice(pos, e.valueStart) + '***';
    pos = e.valueEnd;
  }
  return out + s.slice(pos);
}

/** Quotes a value for a connection string when it needs it: {a;b} with } doubled. */
export function quoteConnectionValue(v: string): string {
  return /[;='"{}\s]/.test(v) || v === '' ? `{${v.replace(/}/g, '}}')}}` : v;
}

// ---- values ----

function bool(keyword: string, v: string): boolean {
  const s = v.trim().toLowerCase();
  if (['true', 'yes', '1', 'sspi'].includes(s)) return true;
  if (['false', 'no', '0'].includes(s)) return false;
  throw new ConnectionStringError(`${keyword}=${v} is not true or false (write ${keyword}=true or ${keyword}=false)`);
}

const AUTH: Record<string, AuthenticationKind> = {
  sqlpassword: 'sql',
  activedirectorypassword: 'azure-active-directory-password',
  activedirectorymanagedidentity: 'azure-active-directory-msi-vm',
  activedirectorymsi: 'azure-active-directory-msi-vm',
  activedirectorydefault: 'azure-active-directory-default',
};

/** Parses an ADO.NET connection string. Throws ConnectionStringError saying what is wrong, with an example. */
export function parseConnectionString(s: string): ConnectionConfig {
  const fail = (why: string): never => {
    throw new ConnectionStringError(`Connection string: ${why}. Example: ${CONNECTION_STRING_EXAMPLE}`);
  };
  if (!s || !s.trim()) fail('it is empty');
  for (const e of scan(s)) {
    if (!e.hasEquals) fail(`"${e.key}" has no value: write Keyword=value pairs separated by ;`);
  }
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(s);
  } catch (e) {
    return fail(`${(e as Error).message.toLowerCase()} (a value containing ; or a quote must be wrapped in braces: Password={a;b})`);
  }
  const v: Partial<Record<string, string>> = {};
  const ignored: string[] = [];
  for (const [key, value] of parsed) {
    const c = canonical(key);
    if (c) v[c] = value;
    else if (IGNORED.includes(squash(key))) ignored.push(key);
    else if (squash(key) === 'port') {
      // JDBC and most drivers name the port apart; SQL Server's strings put it in Server, after a comma.
      const server = parsed.get('server') ?? parsed.get('data source') ?? parsed.get('address') ?? 'host';
      fail(`there is no Port keyword: the port goes in Server, after a comma: Server=${server.split(',')[0].trim()},${value.trim()}`);
    } else if (key.trim()) fail(`unknown keyword "${key}"${suggestion(key)}`);
  }
  if (!v.server) fail('no Server (or Data Source)');
  const cfg: ConnectionConfig = {
    ...parseServer(v.server!, (why) => {
      throw new ConnectionStringError(why);
    }),
    authentication: 'sql',
    encrypt: true,
    trustServerCertificate: v.trustServerCertificate ? bool('TrustServerCertificate', v.trustServerCertificate) : false,
    connectTimeoutMs: 15_000,
    appName: v.appName?.trim() || DEFAULT_APP_NAME,
    ignoredKeywords: ignored,
  };
  if (v.database?.trim()) cfg.database = v.database.trim();
  if (v.hostNameInCertificate?.trim()) cfg.hostNameInCertificate = v.hostNameInCertificate.trim();
  if (v.encrypt !== undefined) {
    const e = v.encrypt.trim().toLowerCase();
    cfg.encrypt = e === 'strict' ? 'strict' : e === 'mandatory' ? true : e === 'optional' ? false : bool('Encrypt', v.encrypt);
  }
  if (v.connectTimeout !== undefined) {
    const t = v.connectTimeout.trim();
    if (!/^\d+$/.test(t) || Number(t) < 1) fail(`Connect Timeout=${v.connectTimeout} is not a positive number of seconds`);
    cfg.connectTimeoutMs = Number(t) * 1000;
  }
  if (v.user !== undefined) cfg.user = v.user;
  if (v.password !== undefined) cfg.password = v.password;

  const integrated = v.integratedSecurity !== undefined && bool('Integrated Security', v.integratedSecurity);
  if (v.accessToken !== undefined) {
    cfg.authentication = 'azure-active-directory-access-token';
    cfg.accessToken = v.accessToken;
  } else if (v.authentication !== undefined) {
    const kind = AUTH[squash(v.authentication).replace(/[^a-z]/g, '')];
    if (!kind) {
      fail(
        `Authentication=${v.authentication} is not supported; use Sql Password, Active Directory Password, Active Directory Managed Identity or Active Directory Default (or Integrated Security=true for NTLM)`,
      );
    }
    cfg.authentication = kind!;
  } else if (integrated) {
    cfg.authentication = 'ntlm';
  }
  if (cfg.authentication === 'ntlm') {
    const m = /^([^\\]+)\\(.+)$/.exec(cfg.user ?? '');
    if (!m || cfg.password === undefined) {
      fail('Integrated Security from Node needs the Windows account spelled out: User ID=DOMAIN\\user;Password=...');
    }
    cfg.domain = m![1];
    cfg.user = m![2];
  }
  if ((cfg.authentication === 'sql' || cfg.authentication === 'azure-active-directory-password') && !cfg.user) {
    fail('no User ID: give User ID and Password, or Authentication=Active Directory Default, or Integrated Security=true');
  }
  return cfg;
}

/** One line for logs and the status bar: where, as whom, how; never a secret. */
export function describeServer(cfg: ConnectionConfig): string {
  const where = `${cfg.server}${cfg.instanceName ? `\\${cfg.instanceName}` : ''}${cfg.port !== null && cfg.port !== DEFAULT_PORT ? `,${cfg.port}` : ''}`;
  const who =
    cfg.authentication === 'ntlm'
      ? `${cfg.domain}\\${cfg.user} (Windows)`
      : cfg.authentication === 'sql'
        ? `${cfg.user} (SQL login)`
        : `${cfg.user ? `${cfg.user} ` : ''}(${cfg.authentication})`;
  const tls = cfg.encrypt
    ? `encrypted${cfg.encrypt === 'strict' ? ' (strict)' : ''}${cfg.trustServerCertificate ? ', certificate not verified' : ''}`
    : 'not encrypted';
  return `${where}${cfg.database ? `, database ${cfg.database}` : ''}, as ${who}, ${tls}`;
}
