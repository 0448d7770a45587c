// `spinlab check` end to end against the simulator at 2016 (13) and 2025 (17), as sa and as a login without
// ALTER SETTINGS: the text, the exit code, and --json against the documented schema.
import assert from 'node:assert/strict';
import Ajv2020 from 'ajv/dist/2020';
import schema from '../../schema/check-report.schema.json';
import { withSim } from '../helpers/simClient';
import type { CheckReport } from '../../src/engine/check';
import { connString } from '../helpers/simTarget';
import { programCli } from '../helpers/cliInProcess';

const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
const validate = ajv.compile<CheckReport>(schema);
const WEAK = 'Weak-Pw-1!';

/** `spinlab ...` through the program, with what it wrote to stdout and stderr in one text. */
async function cli(args: string[]): Promise<{ code: number; out: string }> {
  const r = await programCli(args);
  return { code: r.code, out: r.out + r.err };
}

for (const version of [13, 17]) {
  describe(`spinlab check against the simulator --version ${version}`, () => {
    it('sa: everything can run, exit 0; --json matches the schema', () =>
      withSim({ version, logins: [{ name: 'weak', password: WEAK, permissions: ['VIEW SERVER STATE'] }] }, async (sim) => {
        const conn = connString(sim);
        const text = await cli(['check', '-c', conn]);
        assert.equal(text.code, 0, text.out);
        assert.match(text.out, new RegExp(`SQL Server ${version} `));
        assert.match(text.out, /Everything asked for can run/);
        const json = await cli(['check', '-c', conn, '--json']);
        const report = JSON.parse(json.out) as CheckReport;
        assert.ok(validate(report), ajv.errorsText(validate.errors));
        assert.equal(report.server.majorVersion, version);
        assert.equal(report.server.platform, 'Windows');
        assert.equal(report.ok, true);
      }));

    it('a login without ALTER SETTINGS: says what works, what does not, and the GRANTs; exit 1', () =>
      withSim({ version, logins: [{ name: 'weak', password: WEAK, permissions: ['VIEW SERVER STATE'] }] }, async (sim) => {
        const conn = connString(sim, { user: 'weak', password: WEAK });
        const r = await cli(['check', '-c', conn]);
        assert.equal(r.code, 1);
        assert.match(r.out, /ok {2}sample/);
        assert.match(r.out, /NO {2}affinity[\s\S]*fix: USE master; GRANT ALTER SETTINGS TO \[weak\];/);
        assert.match(r.out, /fix: USE master; GRANT CREATE ANY DATABASE TO \[weak\];/);
        assert.match(r.out, /fix: USE master; GRANT ALTER ANY EVENT SESSION TO \[weak\];/);
        const only = await cli(['check', '-c', conn, '--feature', 'sample,watch']);
        assert.equal(only.code, 0, 'what was asked for can run');
      }));
  });
}

describe('spinlab check: leftover event sessions', () => {
  it('a 2022 login with VIEW SERVER PERFORMANCE STATE only is told of a leftover session (the XE views need no more)', () =>
    withSim({ version: 16, logins: [{ name: 'perf', password: WEAK, permissions: ['VIEW SERVER PERFORMANCE STATE'] }] }, async (sim) => {
      sim.model.xe.execute(sim.model, 'sa', {
        kind: 'create',
        name: 'SpinlockLab_XDESMGR_left_1',
        events: [],
        targets: [],
        options: {},
      } as never);
      const { out } = await cli(['check', '-c', connString(sim, { user: 'perf', password: WEAK })]);
      assert.match(out, /Spinlock Lab event sessions are left on this server: SpinlockLab_XDESMGR_left_1/, out);
    }));
});
