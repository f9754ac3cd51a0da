/** How a config file names an environment variable (a `fromEnv` / `…FromEnv` reference). */
import { z } from 'zod';

export const envVarNameSchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name: letters, digits and _');
