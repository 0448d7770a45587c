// Microsoft's SQL extension's connections in the panel (host/sqlExtension.ts, features/connect/sqlExtensionConnect.ts),
// with a stub of that extension standing in for it: its `mssql.connections` setting and its exported API
// (connect -> a URI, getConnectionString(uri, includePassword) -> the ADO.NET string with the password it keeps, as
// microsoft/vscode-mssql's typings/vscode-mssql.d.ts declares them), against the simulator through the real driver.
// A saved connection connects with no password typed and none kept by Spinlock Lab; a SQL extension that no longer
// exports those functions gets the form filled and one password asked; without the SQL extension nothing changes.
import assert from 'node:assert/strict';
import { withSim, SIM_PASSWORD } from '../helpers/simClient';
import type { Simulator } from '../../tools/sim/simulator';
import { LabController } from '../../src/host/labController';
import { buildLabTree } from '../../src/host/labTree';
import type { SqlExtensionPort } from '../../src/host/ports';
import { fakePorts, tmpDir, type FakePorts } from '../unit/host/fakePorts';

const GUID = '6f9619ff-8b86-d011-b42d-00c04fc964ff';

function savedProfile(sim: Simulator): Record<string, unknown> {
  return {
    id: GUID,
    profileName: 'Lab simulator',
    server: `127.0.0.1,${sim.port}`,
    database: 'master',
    authenticationType: 'SqlLogin',
    user: 'sa',
    savePassword: true,
    encrypt: 'Optional',
    trustServerCertificate: true,
  };
}

interface StubSqlExtension {
  port: SqlExtensionPort;
  connectCalls: Record<string, unknown>[];
  connectionStringCalls: [string, boolean | undefined][];
  /** Calls of the API's own prompt (promptForConnection): a password prompt we must never cause. */
  prompts: number;
}

/** The SQL extension as it was up to its 1.45 releases: connect + getConnectionString exported. */
function stubSqlExtension(sim: Simulator, opts: { exportsCredentials: boolean; profiles?: unknown[] }): StubSqlExtension {
  const stub: StubSqlExtension = {
    port: undefined as unknown as SqlExtensionPort,
    connectCalls: [],
    connectionStringCalls: [],
    prompts: 0,
  };
  const api = opts.exportsCredentials
    ? {
        promptForConnection: async () => {
          stub.prompts++;
          return undefined;
        },
        connect: async (info: Record<string, unknown>) => {
          stub.connectCalls.push(info);
          info.password = SIM_PASSWORD; // what the SQL extension does: the password it looked up goes into the object
          return 'untitled:sqlquery-1';
        },
        getConnectionString: async (uri: string, includePassword?: boolean) => {
          stub.connectionStringCalls.push([uri, includePassword]);
          const pw = includePassword ? `Password="${SIM_PASSWORD}";` : '';
          return `Data Source=127.0.0.1,${sim.port};Initial Catalog=master;User ID=sa;${pw}Encrypt=False;Trust Server Certificate=True;Application Intent=ReadWrite`;
        },
      }
    : { uriOwnershipApi: {} }; // its releases after August 2026
  stub.port = {
    savedProfiles: () => opts.profiles ?? [savedProfile(sim)],
    exports: async () => api,
  };
  return stub;
}

/** Everything the fake host kept or said, for a secret search. */
function everythingKept(ports: FakePorts): string {
  return JSON.stringify({
    posted: ports.posted,
    lines: ports.lines,
    memento: [...ports.memento],
    profiles: ports.savedProfiles,
    secrets: [...ports.secretValues],
    toasts: ports.clipboard,
  });
}

async function started(ports: FakePorts): Promise<LabController> {
  const c = new LabController(ports, { editor: 'vscode', stateDir: tmpDir('state') });
  await c.start();
  return c;
}

describe("Microsoft's SQL extension's connections in the panel", function () {
  it('lists its saved connections (no secret) and connects with one: no password prompt, nothing kept by Spinlock Lab', () =>
    withSim({}, async (sim) => {
      const ports = fakePorts();
      const ext = stubSqlExtension(sim, { exportsCredentials: true });
      ports.sqlExtension = ext.port;
      const c = await started(ports);
      try {
        let s = ports.lastState();
        assert.deepEqual(s.sqlExtension?.connections, [
          {
            id: `mssql-${GUID}`,
            label: 'Lab simulator',
            server: `127.0.0.1,${sim.port}`,
            database: 'master',
            authentication: 'sql',
            user: 'sa',
          },
        ]);
        assert.equal(s.sqlExtension?.sharesCredentials, true);
        const tree = buildLabTree({ state: s, journals: [], sqlConnections: s.sqlExtension?.connections });
        const group = tree.find((n) => n.id === 'group:mssql');
        assert.deepEqual(
          group?.children?.map((n) => [n.label, n.command?.command, n.command?.args]),
          [['Lab simulator', 'spinlab.connectSqlExtension', [`mssql-${GUID}`]]],
          'the Activity Bar lists it, a click connects',
        );

        await c.receive({ type: 'sqlExtensionConnect', payload: { id: `mssql-${GUID}` } });
        s = ports.lastState();
        assert.equal(s.connection.status, 'connected', JSON.stringify(s.connection.error ?? s.lastError));
        assert.equal(s.connection.profileId, `mssql-${GUID}`);
        assert.equal(s.server?.identity.simulated, true);
        assert.equal(ext.prompts, 0, "the SQL extension's prompt was never called");
        assert.equal(ext.connectCalls.length, 1);
        assert.equal(ext.connectCalls[0].server, `127.0.0.1,${sim.port}`, 'its own saved profile was handed back to it');
        assert.deepEqual(ext.connectionStringCalls, [['untitled:sqlquery-1', true]]);
        assert.deepEqual(
          ports.secretCalls.filter((x) => x.op !== 'get'),
          [],
          'nothing written to (or deleted from) SecretStorage',
        );
        assert.deepEqual(ports.savedProfiles, [], 'nothing added to our saved profiles');
        assert.deepEqual([...ports.memento.keys()], [], 'nothing written to global state');
        assert.ok(!everythingKept(ports).includes(SIM_PASSWORD), 'the password is nowhere in what the host kept, posted or logged');
      } finally {
        await c.dispose();
      }
    }));

  it("'Open in Spinlock Lab' on its Object Explorer node connects straight away", () =>
    withSim({}, async (sim) => {
      const ports = fakePorts();
      const ext = stubSqlExtension(sim, { exportsCredentials: true, profiles: [] });
      ports.sqlExtension = ext.port;
      const c = await started(ports);
      try {
        const node = { label: 'Lab simulator', context: { type: 'Server' }, connectionProfile: savedProfile(sim) };
        await c.connectSqlExtension({ node });
        const s = ports.lastState();
        assert.equal(s.connection.status, 'connected', JSON.stringify(s.connection.error ?? s.lastError));
        assert.equal(ext.prompts, 0);
        assert.deepEqual(
          ports.secretCalls.filter((x) => x.op !== 'get'),
          [],
        );
        assert.deepEqual(ports.savedProfiles, []);
        assert.ok(!everythingKept(ports).includes(SIM_PASSWORD));
      } finally {
        await c.dispose();
      }
    }));

  it('a SQL extension that no longer exports its credentials: the form is filled and asks for the password once', () =>
    withSim({}, async (sim) => {
      const ports = fakePorts();
      ports.sqlExtension = stubSqlExtension(sim, { exportsCredentials: false }).port;
      const c = await started(ports);
      try {
        await c.receive({ type: 'sqlExtensionConnect', payload: { id: `mssql-${GUID}` } });
        const s = ports.lastState();
        assert.equal(s.connection.status, 'disconnected');
        assert.equal(s.sqlExtension?.sharesCredentials, false);
        assert.equal(s.draft?.server, '127.0.0.1');
        assert.equal(s.draft?.port, sim.port);
        assert.equal(s.draft?.user, 'sa');
        assert.equal(s.connection.error?.control, 'password');
        assert.match(s.connection.error?.message ?? '', /does not share the password/);
        assert.deepEqual(
          ports.secretCalls.filter((x) => x.op !== 'get'),
          [],
        );
      } finally {
        await c.dispose();
      }
    }));

  it('without the SQL extension nothing changes: no list, no tree group, the form connects as before', () =>
    withSim({}, async (sim) => {
      const ports = fakePorts();
      assert.equal(ports.sqlExtension, undefined);
      const c = await started(ports);
      try {
        let s = ports.lastState();
        assert.equal(s.sqlExtension ?? null, null);
        assert.equal(buildLabTree({ state: s, journals: [], sqlConnections: null }).length, 0, 'the welcome view, as before');
        await c.receive({ type: 'sqlExtensionConnect', payload: { id: `mssql-${GUID}` } });
        s = ports.lastState();
        assert.equal(s.connection.status, 'disconnected');
        assert.match(s.lastError?.message ?? '', /has no saved connection/);
        const profile = {
          ...savedProfileAsOurs(sim),
        };
        await c.receive({ type: 'connectionOpen', payload: { profile, password: SIM_PASSWORD, savePassword: false } });
        s = ports.lastState();
        assert.equal(s.connection.status, 'connected', JSON.stringify(s.connection.error));
        assert.deepEqual(
          s.profiles.map((p) => p.id),
          ['ours'],
          'a connection of our own is remembered as before',
        );
      } finally {
        await c.dispose();
      }
    }));
});

function savedProfileAsOurs(sim: Simulator) {
  return {
    id: 'ours',
    label: 'ours',
    server: '127.0.0.1',
    port: sim.port,
    instanceName: null,
    authentication: 'sql' as const,
    user: 'sa',
    domain: '',
    encrypt: 'optional' as const,
    trustServerCertificate: true,
    labDatabase: 'SpinlockLab',
  };
}
