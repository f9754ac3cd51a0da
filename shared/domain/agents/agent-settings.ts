/**
 * A project's settings for AI agents over MCP (docs/agents.md, decision 0195). Agents act less than
 * people: by default they see every action they could run, and a data-changing one waits for review.
 */
import * as z from 'zod';
import { resourceIdSchema } from '../definitions/data-source.ts';

export const agentSettingsSchema = z
  .object({
    /** `all`: every action the caller may run; `listed`: only these actions and action groups. */
    visible: z.enum(['all', 'listed']).default('all'),
    actionIds: z.array(resourceIdSchema).max(500).default([]),
    actionGroupIds: z.array(resourceIdSchema).max(100).default([]),
    /** Off by default: a data-changing action an agent calls becomes a review request. */
    changesWithoutReview: z.boolean().default(false),
  })
  .meta({ id: 'AgentSettings' });

export type AgentSettings = z.infer<typeof agentSettingsSchema>;

export const defaultAgentSettings: AgentSettings = {
  visible: 'all',
  actionIds: [],
  actionGroupIds: [],
  changesWithoutReview: false,
};
