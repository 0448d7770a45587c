// The check report from sql/server/check.sql's result sets (pure): unsupported servers told plainly, Azure limits,
// the 2022 permission names, and each missing permission's exact GRANT; every report matches the documented schema.
import assert from 'node:assert/strict';
import Ajv2020 from 'ajv/dist/2020';
import schema from '../../schema/check-report.schema.json';
import { buildReport, FEATURES, parseFeatures, type CheckReport } from '../../src/engine/check';
import { grantFor } from '../../src/engine/errors';
import { featureVersion } from '../../src/shared/serverLevel';

const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
const validate = ajv.compile<CheckReport>(schema);

function server(over: Record<string, unknown> = {}) {
  return {
    major_version: 16,
    product_version: '16.0.4135.4',
    edition: 'Developer Edition (64-bit)',
    engine_edition: 3,
    is_xtp_supported: 1,
    default_data_path: '/var/opt/mssql/data/',
    login_name: 'lab',
    version_banner: 'Microsoft SQL Server 2022',
    host_platform: 'Linux',
    host_distribution: 'Ubuntu',
    container_type_desc: null,
    service_tier: null,
    lab_db_exists: 0,
    ...over,
  };
}
function perms(granted: string[], major = 16, dbExists = false) {
  const all: [string, string, number][] = [
    ['VIEW SERVER STATE', 'SERVER', 13],
    ['VIEW SERVER PERFORMANCE STATE', 'SERVER', 16],
    ['ALTER SETTINGS', 'SERVER', 13],
    ['CREATE ANY DATABASE', 'SERVER', 13],
    ['ALTER ANY DATABASE', 'SERVER', 13],
    ['ALTER ANY EVENT SESSION', 'SERVER', 13],
    ['CREATE ANY EVENT SESSION', 'SERVER', 16],
    ['ALTER ANY EVENT SESSION ENABLE', 'SERVER', 16],
    ['DROP ANY EVENT SESSION', 'SERVER', 16],
    ['VIEW DATABASE STATE', 'DATABASE', 13],
    ['VIEW DATABASE PERFORMANCE STATE', 'DATABASE', 16],
    ['ALTER', 'DATABASE', 13],
    ['CREATE TABLE', 'DATABASE', 13],
    ['CREATE PROCEDURE', 'DATABASE', 13],
  ];
  return all.map(([n, s, min]) => ({
    permission_name: n,
    scope: s,
    has_permission: min > major ? null : s === 'DATABASE' && !dbExists ? null : granted.includes(n) ? 1 : 0,
  }));
}
const all = [...FEATURES];
const feature = (r: CheckReport, id: string) => r.features.find((f) => f.id === id)!;

describe('spinlab check report', () => {
  it('a sysadmin on SQL Server 2022 on Linux: everything can run, and the report matches the schema', () => {
    const r = buildReport(
      server(),
      perms([
        'VIEW SERVER STATE',
        'VIEW SERVER PERFORMANCE STATE',
        'ALTER SETTINGS',
        'CREATE ANY DATABASE',
        'ALTER ANY DATABASE',
        'ALTER ANY EVENT SESSION',
      ]),
      'SpinlockLab',
      all,
    );
    assert.equal(r.ok, true);
    assert.equal(r.server.platform, 'Linux');
    assert.ok(
      r.notes.some((n) => n.includes('/var/opt/mssql/data/SpinlockLab_xtp')),
      'the container path comes from the default data path',
    );
    assert.ok(validate(r), ajv.errorsText(validate.errors));
  });

  it('2022 without ALTER SETTINGS nor VIEW SERVER PERFORMANCE STATE: exact GRANTs, 2022 names', () => {
    const r = buildReport(server({ login_name: 'we]ak' }), perms(['CREATE ANY DATABASE']), 'SpinlockLab', ['affinity', 'sample']);
    assert.equal(r.ok, false);
    assert.deepEqual(feature(r, 'affinity').grants, [
      'USE master; GRANT ALTER SETTINGS TO [we]]ak];',
      'USE master; GRANT VIEW SERVER PERFORMANCE STATE TO [we]]ak];',
    ]);
    assert.deepEqual(feature(r, 'sample').grants, ['USE master; GRANT VIEW SERVER PERFORMANCE STATE TO [we]]ak];']);
    assert.equal(feature(r, 'deploy').canRun, true);
    assert.ok(validate(r), ajv.errorsText(validate.errors));
  });

  it('2016 asks for VIEW SERVER STATE, not the 2022 name', () => {
    const r = buildReport(server({ major_version: 13, host_platform: 'Windows' }), perms([], 13), 'SpinlockLab', ['sample']);
    assert.deepEqual(feature(r, 'sample').grants, ['USE master; GRANT VIEW SERVER STATE TO [lab];']);
  });

  it('only the asked features decide ok', () => {
    const r = buildReport(server(), perms(['VIEW SERVER STATE', 'VIEW SERVER PERFORMANCE STATE']), 'SpinlockLab', ['sample', 'watch']);
    assert.equal(r.ok, true);
    assert.equal(feature(r, 'affinity').canRun, false);
  });

  it('a server before 2016 and an unknown engine are told plainly; nothing can run', () => {
    const old = buildReport(server({ major_version: 12, product_version: '12.0.6024.0' }), perms([], 12), 'SpinlockLab', all);
    assert.equal(old.supported, false);
    assert.match(old.notes.join(' '), /older than SQL Server 2016/);
    assert.ok(old.features.every((f) => !f.canRun));
    const synapse = buildReport(server({ engine_edition: 6 }), perms([]), 'SpinlockLab', all);
    assert.equal(synapse.supported, false);
    assert.match(synapse.notes.join(' '), /Azure Synapse Analytics.*not one Spinlock Lab supports/);
    const db = buildReport(server({ engine_edition: 5 }), perms([]), 'SpinlockLab', all);
    assert.match(db.notes.join(' '), /Azure SQL Database is not supported/);
  });

  it('Managed Instance: affinity impossible with no GRANT offered; in-memory needs Business Critical', () => {
    const sysadmin = [
      'VIEW SERVER STATE',
      'VIEW SERVER PERFORMANCE STATE',
      'ALTER SETTINGS',
      'CREATE ANY DATABASE',
      'ALTER ANY DATABASE',
      'ALTER ANY EVENT SESSION',
    ];
    const gp = buildReport(server({ engine_edition: 8, service_tier: 'GeneralPurpose' }), perms(sysadmin), 'SpinlockLab', all);
    assert.equal(feature(gp, 'affinity').canRun, false);
    assert.deepEqual(feature(gp, 'affinity').grants, []);
    assert.match(feature(gp, 'in-memory').reasons.join(' '), /Business Critical/);
    const bc = buildReport(server({ engine_edition: 8, service_tier: 'BusinessCritical' }), perms(sysadmin), 'SpinlockLab', all);
    assert.equal(feature(bc, 'in-memory').canRun, true);
  });

  describe('Azure SQL Managed Instance: decided by EngineEdition 8 before its 12.x version', () => {
    const mi = (over: Record<string, unknown> = {}) =>
      server({
        engine_edition: 8,
        major_version: 12,
        product_version: '12.0.2000.8',
        edition: 'SQL Azure',
        host_platform: 'Windows',
        host_distribution: 'Windows Server 2019 Datacenter',
        default_data_path: null,
        service_tier: 'BusinessCritical',
        ...over,
      });
    // check.sql asks the 2022 permission names there (@level 17), as it does on SQL Server 2022+.
    const miPerms = (granted: string[]) => perms(granted, 17);

    it('is supported, not "older than SQL Server 2016"; a sysadmin can run everything that applies; exit 0', () => {
      const r = buildReport(
        mi(),
        miPerms([
          'VIEW SERVER STATE',
          'VIEW SERVER PERFORMANCE STATE',
          'ALTER SETTINGS',
          'CREATE ANY DATABASE',
          'ALTER ANY DATABASE',
          'ALTER ANY EVENT SESSION',
        ]),
        'SpinlockLab',
        parseFeatures(undefined),
      );
      assert.equal(r.supported, true);
      assert.doesNotMatch(r.notes.join(' '), /older than SQL Server 2016/);
      assert.deepEqual(
        r.asked,
        FEATURES.filter((f) => f !== 'affinity'),
      );
      assert.equal(r.ok, true);
      assert.equal(feature(r, 'affinity').canRun, false, 'affinity is reported, not asked');
      assert.deepEqual(
        r.features.map((f) => f.id),
        [...FEATURES],
      );
      assert.equal(validate(r), true, ajv.errorsText(validate.errors));
    });

    it('says what differs there: recovery model, SINGLE_USER, the XTP filegroup, affinity, counter names', () => {
      const notes = buildReport(mi(), miPerms([]), 'SpinlockLab', all).notes.join('\n');
      for (const re of [
        /RECOVERY SIMPLE.*FULL recovery/,
        /SINGLE_USER.*ends the sessions/,
        /creates the memory-optimized filegroup \(XTP\)/,
        /cannot change process affinity/,
        /physical_database_name \(a GUID\)/,
      ])
        assert.match(notes, re);
    });

    it('uses the newest permission names: VIEW SERVER PERFORMANCE STATE and the 2022 event-session permissions', () => {
      const onlyPerf = buildReport(
        mi(),
        miPerms(['VIEW SERVER PERFORMANCE STATE', 'CREATE ANY EVENT SESSION', 'ALTER ANY EVENT SESSION ENABLE', 'DROP ANY EVENT SESSION']),
        'SpinlockLab',
        all,
      );
      assert.equal(feature(onlyPerf, 'sample').canRun, true);
      assert.equal(feature(onlyPerf, 'event-sessions').canRun, true);
      const none = buildReport(mi(), miPerms([]), 'SpinlockLab', all);
      assert.deepEqual(feature(none, 'watch').grants, ['USE master; GRANT VIEW SERVER PERFORMANCE STATE TO [lab];']);
      assert.equal(featureVersion({ majorVersion: 12, engineEdition: 8 }), 17);
      assert.equal(featureVersion({ majorVersion: 15, engineEdition: 3 }), 15);
      assert.match(
        grantFor('VIEW SERVER STATE', 'lab', featureVersion({ majorVersion: 12, engineEdition: 8 })),
        /VIEW SERVER PERFORMANCE STATE/,
      );
    });

    it('VIEW SERVER STATE is enough should a Managed Instance not know the 2022 name (HAS_PERMS_BY_NAME NULL)', () => {
      const unknown = perms(['VIEW SERVER STATE'], 17).map((p) =>
        p.permission_name === 'VIEW SERVER PERFORMANCE STATE' ? { ...p, has_permission: null } : p,
      );
      assert.equal(feature(buildReport(mi(), unknown, 'SpinlockLab', all), 'watch').canRun, true);
      assert.equal(feature(buildReport(mi(), perms([], 17), 'SpinlockLab', all), 'watch').canRun, false);
    });

    it('no data path is needed there (the service places the files)', () => {
      const r = buildReport(mi({ default_data_path: null }), miPerms(['CREATE ANY DATABASE']), 'SpinlockLab', ['in-memory']);
      assert.equal(feature(r, 'in-memory').canRun, true);
    });

    it('on SQL Server the default still asks every feature, affinity included', () => {
      assert.equal(parseFeatures(undefined), undefined);
      const r = buildReport(server(), perms(['VIEW SERVER STATE', 'VIEW SERVER PERFORMANCE STATE']), 'SpinlockLab', undefined);
      assert.deepEqual(r.asked, [...FEATURES]);
    });
  });

  it('an existing lab database: database permissions decide deploy and delayed durability', () => {
    const r = buildReport(
      server({ lab_db_exists: 1 }),
      perms(['VIEW SERVER STATE', 'VIEW SERVER PERFORMANCE STATE', 'VIEW DATABASE PERFORMANCE STATE', 'CREATE TABLE'], 16, true),
      'SpinlockLab',
      all,
    );
    assert.equal(feature(r, 'sample').canRun, true);
    assert.equal(feature(r, 'deploy').canRun, false);
    assert.ok(feature(r, 'delayed-durability').grants.some((g) => g.startsWith('USE [SpinlockLab]; GRANT ALTER')));
  });

  it('event sessions: ALTER ANY EVENT SESSION, or on 2022+ the three finer permissions; server state to read the target; leftovers named', () => {
    const fine = ['CREATE ANY EVENT SESSION', 'ALTER ANY EVENT SESSION ENABLE', 'DROP ANY EVENT SESSION'];
    assert.equal(
      feature(buildReport(server(), perms(['VIEW SERVER PERFORMANCE STATE', ...fine]), 'SpinlockLab', all), 'event-sessions').canRun,
      true,
    );
    const partial = feature(
      buildReport(server(), perms(['VIEW SERVER PERFORMANCE STATE', 'CREATE ANY EVENT SESSION']), 'SpinlockLab', all),
      'event-sessions',
    );
    assert.equal(partial.canRun, false);
    assert.match(partial.reasons[0], /missing: ALTER ANY EVENT SESSION ENABLE, DROP ANY EVENT SESSION/);
    assert.ok(
      partial.grants.includes(
        'USE master; GRANT ALTER ANY EVENT SESSION TO [lab];  -- or: GRANT CREATE ANY EVENT SESSION, ALTER ANY EVENT SESSION ENABLE, DROP ANY EVENT SESSION TO [lab];',
      ),
    );
    // 2019 knows only the one permission; without server state the target cannot be read.
    const old = feature(
      buildReport(server({ major_version: 15 }), perms(['ALTER ANY EVENT SESSION'], 15), 'SpinlockLab', all),
      'event-sessions',
    );
    assert.deepEqual([old.canRun, old.grants], [false, ['USE master; GRANT VIEW SERVER STATE TO [lab];']]);
    const r = buildReport(server(), perms(['VIEW SERVER STATE', 'ALTER ANY EVENT SESSION']), 'SpinlockLab', all, [
      { name: 'SpinlockLab_XDESMGR_x', running: 1 },
    ]);
    assert.ok(r.notes.some((n) => /event sessions are left on this server: SpinlockLab_XDESMGR_x \(running\)/.test(n)));
    assert.equal(validate(r), true);
  });
});
