-- Purpose: Preflight for `spinlab check`: what this server is (version and engine edition by number, Windows or Linux, Azure SQL Managed Instance tier, In-Memory OLTP support, default data path) and which permissions this login holds, server-wide and on the lab database, so the engine can say what will work and print the exact GRANT for what will not. Reads nothing it may not: parts a login cannot see come back NULL.
-- Permission: public (HAS_PERMS_BY_NAME reports what is missing instead of failing; sys.dm_os_host_info is public before 2022, and needs VIEW SERVER PERFORMANCE STATE from 2022)
-- Parameters: @db sysname
-- Third result set: Spinlock Lab's event sessions left on the server (names starting SpinlockLab_), read only when the login may see sys.server_event_sessions (VIEW SERVER STATE, per its docs page); otherwise empty.
-- Version guards: sys.dm_os_host_info exists from 2017 (2016 runs on Windows only); the 2022 permission names are only asked from 2022 and on Managed Instance (HAS_PERMS_BY_NAME returns NULL
-- for a permission name the server does not know). Dynamic SQL keeps an older server from failing to compile the batch.
DECLARE @major int = CAST(SERVERPROPERTY('ProductMajorVersion') AS int);
IF @major IS NULL
    SET @major = TRY_CAST(PARSENAME(CAST(SERVERPROPERTY('ProductVersion') AS nvarchar(128)), 4) AS int);
DECLARE @engine int = CAST(SERVERPROPERTY('EngineEdition') AS int);
-- Azure SQL Managed Instance (EngineEdition 8) reports 12.x, which does not compare with SQL Server's versions
-- (SERVERPROPERTY remarks); it runs the newest engine, so the permission names of the newest SQL Server apply there.
DECLARE @level int = CASE WHEN @engine = 8 THEN 17 ELSE @major END;
DECLARE @platform nvarchar(256) = NULL, @distribution nvarchar(256) = NULL, @container nvarchar(60) = NULL, @tier nvarchar(128) = NULL;
IF OBJECT_ID(N'sys.dm_os_host_info') IS NOT NULL
BEGIN
    BEGIN TRY
        EXEC sys.sp_executesql N'SELECT @p = h.host_platform, @d = h.host_distribution FROM sys.dm_os_host_info AS h;',
            N'@p nvarchar(256) OUTPUT, @d nvarchar(256) OUTPUT', @p = @platform OUTPUT, @d = @distribution OUTPUT;
    END TRY
    BEGIN CATCH
        SET @platform = NULL;
    END CATCH;
END
ELSE IF @major < 14
    SET @platform = N'Windows';
-- A container is not reported by any documented DMV column in 2016-2025: container_type_desc stays NULL (unknown).
-- Azure SQL Managed Instance: its service tier (In-Memory OLTP needs Business Critical).
IF @engine = 8
BEGIN
    BEGIN TRY
        EXEC sys.sp_executesql N'SELECT TOP (1) @t = CAST(s.sku AS nvarchar(128)) FROM master.sys.server_resource_stats AS s ORDER BY s.end_time DESC;',
            N'@t nvarchar(128) OUTPUT', @t = @tier OUTPUT;
    END TRY
    BEGIN CATCH
        SET @tier = NULL;
    END CATCH;
END;

SELECT @major                                                         AS major_version,
       CAST(SERVERPROPERTY('ProductVersion') AS nvarchar(128))        AS product_version,
       CAST(SERVERPROPERTY('Edition') AS nvarchar(256))               AS edition,
       @engine                                                        AS engine_edition,
       CAST(SERVERPROPERTY('IsXTPSupported') AS int)                  AS is_xtp_supported,
       CAST(SERVERPROPERTY('InstanceDefaultDataPath') AS nvarchar(4000)) AS default_data_path,
       SUSER_SNAME()                                                  AS login_name,
       CAST(@@VERSION AS nvarchar(4000))                              AS version_banner,
       @platform                                                      AS host_platform,
       @distribution                                                  AS host_distribution,
       @container                                                     AS container_type_desc,
       @tier                                                          AS service_tier,
       CASE WHEN DB_ID(@db) IS NULL THEN 0 ELSE 1 END                 AS lab_db_exists;

-- Effective permissions (granted, implied by a higher one, or through a role). NULL: not asked on this version, or the
-- lab database does not exist yet (whoever creates it owns it).
SELECT p.permission_name, p.scope,
       CASE WHEN p.min_major > ISNULL(@level, 0) THEN NULL
            WHEN p.scope = N'SERVER' THEN HAS_PERMS_BY_NAME(NULL, NULL, p.permission_name)
            WHEN DB_ID(@db) IS NULL THEN NULL
            ELSE HAS_PERMS_BY_NAME(@db, N'DATABASE', p.permission_name) END AS has_permission
FROM (VALUES (N'VIEW SERVER STATE', N'SERVER', 13), (N'VIEW SERVER PERFORMANCE STATE', N'SERVER', 16),
             (N'ALTER SETTINGS', N'SERVER', 13), (N'CREATE ANY DATABASE', N'SERVER', 13),
             (N'ALTER ANY DATABASE', N'SERVER', 13), (N'ALTER ANY EVENT SESSION', N'SERVER', 13),
             (N'CREATE ANY EVENT SESSION', N'SERVER', 16), (N'ALTER ANY EVENT SESSION ENABLE', N'SERVER', 16),
             (N'DROP ANY EVENT SESSION', N'SERVER', 16),
             (N'VIEW DATABASE STATE', N'DATABASE', 13), (N'VIEW DATABASE PERFORMANCE STATE', N'DATABASE', 16),
             (N'ALTER', N'DATABASE', 13), (N'CREATE TABLE', N'DATABASE', 13), (N'CREATE PROCEDURE', N'DATABASE', 13))
     AS p(permission_name, scope, min_major);

-- Spinlock Lab's event sessions still defined (a stack capture that was killed and not yet restored). Dynamic SQL keeps
-- a login that may not read the XE views from failing the batch: it gets an empty set. From 2022 VIEW SERVER
-- PERFORMANCE STATE is enough for them (HAS_PERMS_BY_NAME is NULL for that name before 2022).
DECLARE @leftover TABLE (name sysname NOT NULL, running int NOT NULL);
IF HAS_PERMS_BY_NAME(NULL, NULL, N'VIEW SERVER STATE') = 1 OR HAS_PERMS_BY_NAME(NULL, NULL, N'VIEW SERVER PERFORMANCE STATE') = 1
    INSERT INTO @leftover (name, running)
    EXEC sys.sp_executesql N'SELECT es.name, CASE WHEN xs.name IS NULL THEN 0 ELSE 1 END FROM sys.server_event_sessions AS es LEFT JOIN sys.dm_xe_sessions AS xs ON xs.name = es.name WHERE es.name LIKE N''SpinlockLab[_]%'';';
SELECT l.name, l.running FROM @leftover AS l ORDER BY l.name;
