// src/extension/sqlExtension.ts over a fake `vscode` module: without Microsoft's SQL extension there is nothing to list
// (null, so the panel and the tree show nothing of it) and no exports; with it, its `mssql.connections` setting is
// read, and its exports are asked for without starting it unless a connect needs them.
import assert from 'node:assert/strict';
import Module from 'node:module';
import type { SqlExtensionPort } from '../../src/host/ports';

interface FakeExtension {
  isActive: boolean;
  exports: unknown;
  activate(): Promise<unknown>;
}

function withFakeVscode(ext: FakeExtension | undefined, setting: unknown, fn: (port: SqlExtensionPort, asked: string[]) => Promise<void>) {
  const asked: string[] = [];
  const vscode = {
    extensions: {
      getExtension: (id: string) => {
        asked.push(`getExtension ${id}`);
        return ext;
      },
    },
    workspace: {
      getConfiguration: (section: string) => ({
        get: (key: string) => {
          asked.push(`setting ${section}.${key}`);
          return setting;
        },
      }),
    },
  };
  const m = Module as unknown as { _load: (req: string, ...rest: unknown[]) => unknown };
  const load = m._load;
  m._load = function (req: string, ...rest: unknown[]) {
    return req === 'vscode' ? vscode : load.call(this, req, ...rest);
  };
  const file = require.resolve('../../src/extension/sqlExtension');
  delete require.cache[file];
  return (async () => {
    try {
      // A fresh load with the fake `vscode` in place (an import would be hoisted above it).
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { vscodeSqlExtension } = require(file) as typeof import('../../src/extension/sqlExtension');
      await fn(vscodeSqlExtension(), asked);
    } finally {
      m._load = load;
      delete require.cache[file];
    }
  })();
}

describe('the SQL extension as VS Code shows it (src/extension/sqlExtension.ts)', () => {
  it('not installed: no list (null) and no exports; its setting is not even read', () =>
    withFakeVscode(undefined, [{ server: 'x' }], async (port, asked) => {
      assert.equal(port.savedProfiles(), null);
      assert.equal(await port.exports(true), undefined);
      assert.deepEqual(asked, ['getExtension ms-mssql.mssql', 'getExtension ms-mssql.mssql']);
    }));

  it('installed: its saved connections; its exports only once active, or when a connect activates it', async () => {
    let activated = 0;
    const api = { connect: async () => 'uri', getConnectionString: async () => '' };
    const ext: FakeExtension = {
      isActive: false,
      exports: undefined,
      async activate() {
        activated++;
        this.isActive = true;
        this.exports = api;
        return api;
      },
    };
    await withFakeVscode(ext, [{ server: 'db1' }], async (port, asked) => {
      assert.deepEqual(port.savedProfiles(), [{ server: 'db1' }]);
      assert.ok(asked.includes('setting mssql.connections'));
      assert.equal(await port.exports(false), undefined, 'opening the panel does not start it');
      assert.equal(activated, 0);
      assert.equal(await port.exports(true), api);
      assert.equal(activated, 1);
      assert.equal(await port.exports(false), api, 'active now');
    });
    await withFakeVscode(ext, 'not a list', async (port) => {
      assert.deepEqual(port.savedProfiles(), [], 'a damaged setting lists nothing');
    });
  });
});
