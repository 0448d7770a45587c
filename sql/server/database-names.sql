-- Purpose: Each database whose physical_database_name differs from its name, with both: Azure SQL Managed Instance names a database's performance counters (instance_name of the *:Databases object) by its physical name, a GUID, instead of its name ("Known issues" of Managed Instance: GUID identifiers shown instead of database names; the workaround joins sys.databases.physical_database_name), so the engine maps the GUID back to the name. No rows where the two agree or the column does not exist.
-- Permission: public (sys.databases shows every database to logins with VIEW ANY DATABASE, which public has by default; a login without it sees its own databases only)
-- Parameters: none
-- physical_database_name is in sys.databases from SQL Server 2019 and on Azure SQL (sys.databases page): read through
-- sp_executesql behind COL_LENGTH so 2016 and 2017 still compile the batch.
DECLARE @names TABLE (name sysname NOT NULL, physical_database_name nvarchar(128) NOT NULL);
IF COL_LENGTH(N'sys.databases', N'physical_database_name') IS NOT NULL
    INSERT INTO @names (name, physical_database_name)
    EXEC sys.sp_executesql N'SELECT d.name, d.physical_database_name FROM sys.databases AS d WHERE d.physical_database_name IS NOT NULL AND d.physical_database_name <> d.name;';
SELECT n.name, n.physical_database_name FROM @names AS n;
