-- Purpose: Global trace flags in force (reported read-only; Spinlock Lab never turns a flag on or off).
-- Permission: public
-- Parameters: none
DBCC TRACESTATUS(-1) WITH NO_INFOMSGS;
