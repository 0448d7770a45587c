-- Purpose: Who and what the server is: name, version, edition, In-Memory OLTP support, default data path, the login, and whether it holds the permissions Spinlock Lab needs.
-- Permission: public (HAS_PERMS_BY_NAME reports what is missing instead of failing)
-- Parameters: none
SELECT
    CAST(@@SERVERNAME AS nvarchar(256))                                AS server_name,
    CAST(SERVERPROPERTY('MachineName') AS nvarchar(256))               AS machine_name,
    CAST(SERVERPROPERTY('ProductVersion') AS nvarchar(64))             AS product_version,
    CAST(SERVERPROPERTY('ProductMajorVersion') AS int)                 AS major_version,
    CAST(SERVERPROPERTY('Edition') AS nvarchar(256))                   AS edition,
    CAST(SERVERPROPERTY('EngineEdition') AS int)                       AS engine_edition,
    CAST(SERVERPROPERTY('IsXTPSupported') AS int)                      AS is_xtp_supported,
    CAST(SERVERPROPERTY('InstanceDefaultDataPath') AS nvarchar(4000))  AS default_data_path,
    CAST(@@VERSION AS nvarchar(4000))                                  AS version_banner,
    @@SPID                                                             AS session_id,
    SUSER_SNAME()                                                      AS login_name,
    HAS_PERMS_BY_NAME(NULL, NULL, N'VIEW SERVER STATE')                AS has_view_server_state,
    -- 2022+ and Managed Instance (EngineEdition 8, whose 12.x version does not compare) split out a narrower permission
    -- that is enough for the DMVs; older versions do not know the name.
    CASE WHEN CAST(SERVERPROPERTY('EngineEdition') AS int) = 8 OR CAST(SERVERPROPERTY('ProductMajorVersion') AS int) >= 16
         THEN HAS_PERMS_BY_NAME(NULL, NULL, N'VIEW SERVER PERFORMANCE STATE') END AS has_view_server_performance_state,
    HAS_PERMS_BY_NAME(NULL, NULL, N'ALTER SETTINGS')                   AS has_alter_settings;
