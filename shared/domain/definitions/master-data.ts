/** Master data: a project's named list of values with labels, for parameter choices. */
import * as z from 'zod';
import { nameSchema } from './parameter.ts';

export const masterDataInputSchema = z.object({
  id: nameSchema,
  name: z.string().min(1).max(200),
  entries: z
    .array(
      z.object({ value: z.union([z.string(), z.number(), z.boolean()]), label: z.string().min(1).max(200) }),
    )
    .min(1)
    .max(10_000),
});
export type MasterDataInput = z.infer<typeof masterDataInputSchema>;
export type MasterDataList = MasterDataInput & { projectId: string; updatedAt: string };
