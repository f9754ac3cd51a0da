/** The action list's sections: a group's actions in its order, then the views assigned to it (decision 0222). */
import { describe, expect, it } from 'vitest';
import type { ActionDefinition, ActionGroup } from '../../api/types.ts';
import type { ViewSummary } from '../views/view-api.ts';
import { groupActions } from './ActionListScreen.tsx';

const action = (id: string) => ({ id, name: id.toUpperCase(), kind: 'sql' }) as ActionDefinition;
const view = (id: string, groupId?: string) =>
  ({
    id,
    name: id,
    kind: 'visual',
    version: 1,
    updatedAt: '',
    ...(groupId ? { groupId } : {}),
  }) as ViewSummary;

describe('groupActions', () => {
  it("lists each group's views after its actions, a group with only views too, and no ungrouped views", () => {
    const groups = [
      { id: 'ops', name: 'Ops', actionIds: ['b', 'a'] },
      { id: 'empty', name: 'Only views', actionIds: [] },
      { id: 'none', name: 'Nothing', actionIds: [] },
    ] as unknown as ActionGroup[];
    const sections = groupActions([action('a'), action('b'), action('c')], groups, 'Other actions', [
      view('dash', 'ops'),
      view('board', 'empty'),
      view('loose'),
    ]);
    expect(
      sections.map((s) => ({
        id: s.id,
        actions: s.actions.map((a) => a.id),
        views: s.views.map((v) => v.id),
      })),
    ).toEqual([
      { id: 'ops', actions: ['b', 'a'], views: ['dash'] },
      { id: 'empty', actions: [], views: ['board'] },
      { id: '', actions: ['c'], views: [] },
    ]);
  });
});
