import { z } from 'zod';

/** An env flag: "1"/"true"/"yes"/"on" → true; "0"/"false"/"no"/"off"/"" → false (env values are strings). */
export const envFlag = z
  .union([z.boolean(), z.string().trim().toLowerCase()])
  .transform((v, ctx) => {
    if (typeof v === 'boolean') return v;
    if (['1', 'true', 'yes', 'on'].includes(v)) return true;
    if (['0', 'false', 'no', 'off', ''].includes(v)) return false;
    ctx.addIssue({ code: 'custom', message: `expected a boolean flag (1/0/true/false), got "${v}"` });
    return z.NEVER;
  });
