// Imported first by main.ts, before any module builds a zod schema: zod compiles fast object parsers with
// new Function unless told not to, and the panel's CSP (no 'unsafe-eval') forbids that; even zod's probe for it
// would be reported as a securitypolicyviolation.
import { z } from 'zod';

z.config({ jitless: true });
