// A connection profile as the panel saves it and sends it: where and how to connect, never a secret (passwords go
// to SecretStorage or the environment). Untrusted when it comes from the webview: the host checks it with this schema.
import { z } from 'zod';
import { labDatabaseProblem } from './labDatabase';

const name = (max: number) => z.string().trim().max(max);
// NUL and ] are the characters a database name must not hold.
// eslint-disable-next-line no-control-regex -- NUL is matched on purpose
const DATABASE_NAME = /^[^\]\u0000]+$/;

export const connectionProfileSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'ids are letters, digits, - and _'),
  /** What the user calls it; defaults to the server. */
  label: name(128),
  server: z
    .string()
    .trim()
    .min(1, 'Enter the server name or address')
    .max(255)
    // A port typed after the host (host:port, or host,port as connection strings write it) would be looked up as a name.
    .refine((v) => !/^[^:,]+[:,]\s*\d{1,5}$/.test(v), 'put the port in the Port field, and the host alone here'),
  /** null: 1433, or the SQL Browser's answer when instanceName is set. */
  port: z.number().int().min(1).max(65535).nullable(),
  instanceName: name(128).nullable(),
  authentication: z.enum(['sql', 'entra', 'ntlm']),
  /** SQL login or Windows user; empty for Entra. */
  user: name(128),
  /** Windows domain for NTLM. */
  domain: name(128),
  encrypt: z.enum(['mandatory', 'optional', 'strict']),
  trustServerCertificate: z.boolean(),
  labDatabase: z
    .string()
    .trim()
    .min(1)
    .max(128)
    .regex(DATABASE_NAME, 'a database name cannot contain ] or NUL')
    .superRefine((v, ctx) => {
      const problem = labDatabaseProblem(v);
      if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
    }),
});
export type ConnectionProfile = z.infer<typeof connectionProfileSchema>;
