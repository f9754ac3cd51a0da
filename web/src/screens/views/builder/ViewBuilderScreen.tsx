/**
 * Create or edit a view. Visual views: a palette adds components to the selected grid or tab (or
 * where they are dropped), the layout canvas selects and moves them (drag and drop, keyboard or the
 * up/down buttons), the side panel edits the selected component's properties
 * and the view's queries, and the preview renders the draft live against the development
 * environment. Code views: the source in the script editor, the actions it may call, and a
 * preview of the saved draft in its sandboxed frame (the server compiles the source when saving).
 * Save stores a new version; Publish makes the current environment show it.
 */
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { api } from '../../../api/client.ts';
import { apiPaths } from '../../../api/paths.ts';
import type { ActionDefinition, ActionGroup, ListOf, Parameter, Project } from '../../../api/types.ts';
import { Link, navigate } from '../../../app/router.tsx';
import { useSession } from '../../../app/session.tsx';
import { useWorkspace } from '../../../app/workspace.tsx';
import { Button, ErrorBanner, useAsync } from '../../../components/index.ts';
import { useT } from '../../../i18n/index.tsx';
import { ScriptEditor } from '../../editors/ScriptEditor.tsx';
import { CodeViewFrame } from '../code/CodeViewFrame.tsx';
import { ConfirmRunProvider } from '../runtime/confirm-run.tsx';
import { OutsideHostsProvider } from '../runtime/outside-hosts.tsx';
import { ViewRenderer } from '../runtime/ViewRenderer.tsx';
import type {
  CodeViewDefinition,
  ViewDefinition,
  ViewHead,
  ViewSummary,
  VisualViewDefinition,
} from '../view-api.ts';
import { viewPaths } from '../view-api.ts';
import { BuilderChoicesContext, useBuilderChoices } from './builder-context.ts';
import { ComponentProperties } from './ComponentProperties.tsx';
import {
  addChild,
  emptyVisual,
  findComponent,
  flatten,
  isContainer,
  mapComponent,
  moveComponent,
  newComponent,
  palette,
  parentOf,
  starterCode,
  uniqueId,
} from './draft.ts';
import { historyKey, useHistory } from './history.ts';
import { LayoutCanvas } from './LayoutCanvas.tsx';
import { LayoutDnd, PaletteItem } from './layout-dnd.tsx';
import { QueriesEditor } from './QueriesEditor.tsx';
import { RenameField } from './RenameField.tsx';
import { renameComponent } from './rename-component.ts';
import { StateTimersEditor } from './StateTimersEditor.tsx';

/** The preview's allow-list when neither answer has one (a stable value for the provider). */
const noHosts: string[] = [];

/**
 * The project's allowed hosts as stored now (decision 0155): the project list of the header was
 * read at sign-in and may predate a change in the settings.
 */
function usePreviewHosts(): string[] {
  const workspace = useWorkspace();
  const project = useAsync(
    () => api.get<Project>(`${apiPaths.projects}/${encodeURIComponent(workspace.projectId)}`),
    [workspace.projectId],
  );
  return project.data?.allowedHosts ?? workspace.project?.allowedHosts ?? noHosts;
}

interface Draft {
  id: string;
  name: string;
  description: string;
  /** The action group the view is listed under ('' for none). */
  groupId: string;
  definition: ViewDefinition;
}

export function ViewBuilderScreen({ params }: { params: Record<string, string> }) {
  const t = useT();
  const workspace = useWorkspace();
  const existingId = params.viewId;
  const loaded = useAsync(
    () =>
      existingId
        ? api.get<ViewHead>(viewPaths.view(workspace.projectId, existingId))
        : Promise.resolve(undefined as ViewHead | undefined),
    [workspace.projectId, existingId],
  );
  const choices = useAsync(async () => {
    const [actions, views, groups] = await Promise.all([
      api.get<ListOf<ActionDefinition>>(apiPaths.actions(workspace.projectId)),
      api
        .get<ListOf<ViewSummary>>(viewPaths.views(workspace.projectId))
        .catch(() => ({ data: [] as ViewSummary[] })),
      api
        .get<ListOf<ActionGroup>>(apiPaths.actionGroups(workspace.projectId))
        .catch(() => ({ data: [] as ActionGroup[] })),
    ]);
    return {
      actions: actions.data.map((a) => ({ id: a.id, name: a.name })),
      views: views.data.map((v) => ({ id: v.id, name: v.name })),
      groups: groups.data.map((g) => ({ id: g.id, name: g.name })),
    };
  }, [workspace.projectId]);

  if (loaded.error) return <ErrorBanner error={loaded.error} />;
  if (existingId && !loaded.data) return <p className="muted">{t('common.loading')}</p>;
  const head = loaded.data;
  const initial: Draft = head
    ? {
        id: head.id,
        name: head.name,
        description: head.description ?? '',
        groupId: head.groupId ?? '',
        definition: head.definition,
      }
    : {
        id: '',
        name: '',
        description: '',
        groupId: '',
        definition:
          params.kind === 'code'
            ? { kind: 'code', parameters: [], source: starterCode, actionIds: [] }
            : emptyVisual(),
      };
  return (
    <BuilderChoicesContext.Provider value={{ ...(choices.data ?? { actions: [], views: [] }), queries: [] }}>
      <Builder
        key={head ? `${head.id}@${head.version}` : `new-${params.kind}`}
        initial={initial}
        head={head}
      />
    </BuilderChoicesContext.Provider>
  );
}

/**
 * A new view moves to its edit address once saved, which mounts a fresh builder: the message of
 * the save (or publish) is carried over to it.
 */
let carriedNotice: string | undefined;

function Builder({ initial, head }: { initial: Draft; head: ViewHead | undefined }) {
  const t = useT();
  const workspace = useWorkspace();
  const history = useHistory<Draft>(initial);
  const draft = history.value;
  const setDraft = history.set;
  const [saved, setSaved] = useState<ViewHead | undefined>(head);
  const [busy, setBusy] = useState<'save' | 'publish'>();
  const [error, setError] = useState<unknown>();
  const [notice, setNotice] = useState<string | undefined>(() => {
    const carried = carriedNotice;
    carriedNotice = undefined;
    return carried;
  });
  const isNew = !head;
  const choices = useBuilderChoices();
  useHistoryKeys(history.undo, history.redo);

  const toEditAddress = (view: ViewHead, message: string) => {
    carriedNotice = message;
    navigate(workspace.href(`/views/${encodeURIComponent(view.id)}/edit`), { replace: true });
  };

  const save = async (moveWhenNew = true): Promise<ViewHead | undefined> => {
    setBusy('save');
    setError(undefined);
    setNotice(undefined);
    try {
      const body = {
        id: draft.id,
        name: draft.name,
        ...(draft.description ? { description: draft.description } : {}),
        ...(draft.groupId ? { groupId: draft.groupId } : {}),
        ...(saved?.permission ? { permission: saved.permission } : {}),
        definition: draft.definition,
      };
      const view = await api.put<ViewHead>(viewPaths.view(workspace.projectId, draft.id), body);
      setSaved(view);
      const message = t('views.builder.saved', { version: view.version });
      setNotice(message);
      if (isNew && moveWhenNew) toEditAddress(view, message);
      return view;
    } catch (e) {
      setError(e);
      return undefined;
    } finally {
      setBusy(undefined);
    }
  };

  const publish = async () => {
    const view = await save(false);
    if (!view) return;
    setBusy('publish');
    try {
      await api.put(viewPaths.publication(workspace.projectId, view.id, workspace.environmentId), {
        version: view.version,
      });
      const message = t('views.builder.published', {
        version: view.version,
        environment: workspace.environment?.name ?? workspace.environmentId,
      });
      setNotice(message);
      if (isNew) toEditAddress(view, message);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <section className="screen view-builder" aria-labelledby="builder-title">
      {' '}
      <Link href={workspace.href('/views')} className="back-link">
        ← {t('views.back')}
      </Link>
      <div className="screen-header">
        <h1 id="builder-title">
          {isNew
            ? t(`views.builder.new.${draft.definition.kind}`)
            : t('views.builder.editTitle', { name: draft.name })}
        </h1>
        <div className="view-list-actions">
          <Button
            className="btn-quiet"
            disabled={!history.canUndo}
            aria-keyshortcuts="Control+Z Meta+Z"
            onClick={history.undo}
          >
            ↶ {t('views.builder.undo')}
          </Button>
          <Button
            className="btn-quiet"
            disabled={!history.canRedo}
            aria-keyshortcuts="Control+Shift+Z Meta+Shift+Z Control+Y"
            onClick={history.redo}
          >
            ↷ {t('views.builder.redo')}
          </Button>
          {saved ? (
            <Link className="btn btn-quiet" href={workspace.href(`/views/${encodeURIComponent(saved.id)}`)}>
              {t('views.builder.open')}
            </Link>
          ) : null}
          <Button busy={busy === 'save'} disabled={busy !== undefined} onClick={() => void save()}>
            {t('views.builder.save')}
          </Button>
          <Button
            variant="primary"
            busy={busy === 'publish'}
            disabled={busy !== undefined}
            onClick={() => void publish()}
          >
            {t('views.builder.publish', {
              environment: workspace.environment?.name ?? workspace.environmentId,
            })}
          </Button>
        </div>
      </div>
      {error ? <ErrorBanner error={error} onDismiss={() => setError(undefined)} /> : null}
      {notice ? (
        <p className="notice notice-info" role="status">
          {notice}
        </p>
      ) : null}
      <div className="builder-meta">
        <label className="builder-field">
          <span>{t('views.builder.id')}</span>
          <input
            aria-label={t('views.builder.id')}
            className="mono"
            value={draft.id}
            readOnly={!isNew}
            onChange={(e) => setDraft({ ...draft, id: e.target.value })}
          />
        </label>
        <label className="builder-field">
          <span>{t('views.builder.name')}</span>
          <input
            aria-label={t('views.builder.name')}
            value={draft.name}
            onChange={(e) => setDraft({ ...draft, name: e.target.value })}
          />
        </label>
        <label className="builder-field builder-wide">
          <span>{t('views.builder.description')}</span>
          <input
            aria-label={t('views.builder.description')}
            value={draft.description}
            onChange={(e) => setDraft({ ...draft, description: e.target.value })}
          />
        </label>
        <label className="builder-field">
          <span>{t('views.builder.group')}</span>
          <select
            aria-label={t('views.builder.group')}
            value={draft.groupId}
            onChange={(e) => setDraft({ ...draft, groupId: e.target.value })}
          >
            <option value="">{t('views.builder.noGroup')}</option>
            {choices.groups?.map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
            {draft.groupId && !choices.groups?.some((g) => g.id === draft.groupId) ? (
              <option value={draft.groupId}>{draft.groupId}</option>
            ) : null}
          </select>
        </label>
        <ParametersField
          key={history.travels}
          parameters={draft.definition.parameters as unknown as Parameter[]}
          onChange={(parameters) =>
            setDraft({ ...draft, definition: { ...draft.definition, parameters } as ViewDefinition })
          }
        />
      </div>
      {draft.definition.kind === 'visual' ? (
        <VisualBuilder
          definition={draft.definition}
          // An undefined step lets the history coalesce by the focused field, as for any other change.
          onChange={(definition, step) => setDraft({ ...draft, definition }, step)}
          viewId={saved ? saved.id : ''}
          travels={history.travels}
        />
      ) : (
        <CodeBuilder
          definition={draft.definition}
          onChange={(definition) => setDraft({ ...draft, definition })}
          saved={saved}
        />
      )}
    </section>
  );
}

/**
 * Ctrl+Z / Cmd+Z and Ctrl+Shift+Z / Cmd+Shift+Z (Ctrl+Y) anywhere on the builder's page: listened to
 * on the window, since an undo re-creates the property editors and focus falls back to the page.
 */
function useHistoryKeys(onUndo: () => void, onRedo: () => void) {
  useEffect(() => {
    const listener = (event: KeyboardEvent) => {
      const wanted = historyKey(event);
      if (!wanted || event.defaultPrevented) return;
      // The draft's history replaces the fields' own: a field's native undo would be lost on re-render.
      event.preventDefault();
      if (wanted === 'undo') onUndo();
      else onRedo();
    };
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, [onUndo, onRedo]);
}

/** `name | kind | label` per line: the view's arguments (`panel.args`). */
function ParametersField({ parameters, onChange }: { parameters: Parameter[]; onChange(p: never[]): void }) {
  const t = useT();
  const [text, setText] = useState(
    parameters.map((p) => `${p.name} | ${p.kind}${p.label ? ` | ${p.label}` : ''}`).join('\n'),
  );
  return (
    <label className="builder-field builder-wide">
      <span>{t('views.builder.parameters')}</span>
      <textarea
        aria-label={t('views.builder.parameters')}
        className="mono"
        rows={2}
        value={text}
        placeholder="orderId | number | Order"
        onChange={(e) => {
          setText(e.target.value);
          const list = e.target.value
            .split('\n')
            .map((l) => l.split('|').map((s) => s.trim()))
            .filter(([name]) => Boolean(name))
            .map(([name, kind, label]) => ({
              name: name!,
              kind: ['text', 'number', 'boolean', 'date', 'json'].includes(kind ?? '') ? kind! : 'text',
              ...(label ? { label } : {}),
            }));
          onChange(list as never[]);
        }}
      />
    </label>
  );
}

function previewEnvironment(workspace: ReturnType<typeof useWorkspace>): string {
  return workspace.environments.some((e) => e.id === 'development') ? 'development' : workspace.environmentId;
}

/**
 * The preview runs as the view would, so a click that runs a data-changing action asks first, in the
 * runtime's dialog (action, environment, arguments), and is sent with `confirm` only if agreed.
 */
function PreviewConfirmations({ environmentId, children }: { environmentId: string; children: ReactNode }) {
  const workspace = useWorkspace();
  const name = workspace.environments.find((e) => e.id === environmentId)?.name ?? environmentId;
  return <ConfirmRunProvider environmentName={name}>{children}</ConfirmRunProvider>;
}

function VisualBuilder({
  definition,
  onChange,
  viewId,
  travels,
}: {
  definition: VisualViewDefinition;
  /** `step`: a history key (a fresh object makes the change an undo step of its own). */
  onChange(d: VisualViewDefinition, step?: unknown): void;
  viewId: string;
  /** Undo/redo count: the property editors keep some text of their own and start again from the draft. */
  travels: number;
}) {
  const t = useT();
  const workspace = useWorkspace();
  const previewHosts = usePreviewHosts();
  const { user } = useSession();
  const [selected, setSelected] = useState(definition.layout.id);
  const [tab, setTab] = useState(0);
  const [renameSkipped, setRenameSkipped] = useState<string[]>([]);
  const root = definition.layout;
  const current = findComponent(root, selected) ?? root;
  const setLayout = (layout: typeof root) => onChange({ ...definition, layout });
  const add = (type: (typeof palette)[number]) => {
    const container = isContainer(current) ? current : (parentOf(root, current.id) ?? root);
    const component = newComponent(type, uniqueId(root, type));
    setLayout(
      addChild(root, container.id, component, container.type === 'tabs' && container === current ? tab : 0),
    );
    setSelected(component.id);
  };
  const previewArgs = useMemo(() => ({}), []);
  const viewer = useMemo(() => ({ id: user.id, email: user.email, name: user.name }), [user]);
  const environmentId = previewEnvironment(workspace);
  const choices = {
    queries: definition.queries.map((q) => q.id),
    modals: flatten(root).flatMap(({ component }) => (component.type === 'modal' ? [component.id] : [])),
  };

  return (
    <BuilderChoicesContext.Consumer>
      {(outer) => (
        <BuilderChoicesContext.Provider value={{ ...outer, ...choices }}>
          <LayoutDnd
            root={root}
            onLayout={(layout, id) => {
              // A drop is a step of its own, whatever field had the focus before.
              onChange({ ...definition, layout }, {});
              setSelected(id);
            }}
          >
            <div className="builder-grid">
              <aside className="builder-panel" aria-label={t('views.builder.palette')}>
                <h2>{t('views.builder.palette')}</h2>
                <div className="builder-palette">
                  {palette.map((type) => (
                    <PaletteItem key={type} type={type} onAdd={() => add(type)} />
                  ))}
                </div>
                <p className="muted small">{t('views.builder.dnd.hint')}</p>
                {current.id !== root.id ? (
                  <div className="builder-row">
                    <Button
                      className="btn-small"
                      onClick={() => setLayout(moveComponent(root, current.id, -1))}
                    >
                      ↑ {t('views.builder.up')}
                    </Button>
                    <Button
                      className="btn-small"
                      onClick={() => setLayout(moveComponent(root, current.id, 1))}
                    >
                      ↓ {t('views.builder.down')}
                    </Button>
                    <Button
                      variant="danger"
                      className="btn-small"
                      onClick={() => {
                        setLayout(mapComponent(root, current.id, () => undefined));
                        setSelected(root.id);
                      }}
                    >
                      {t('views.builder.remove')}
                    </Button>
                  </div>
                ) : null}
                {current.type === 'tabs' ? (
                  <label className="builder-field">
                    <span>{t('views.builder.addToTab')}</span>
                    <select
                      aria-label={t('views.builder.addToTab')}
                      value={tab}
                      onChange={(e) => setTab(Number(e.target.value))}
                    >
                      {current.tabs.map((x, i) => (
                        // biome-ignore lint/suspicious/noArrayIndexKey: tabs are identified by position
                        <option key={i} value={i}>
                          {x.label}
                        </option>
                      ))}
                    </select>
                  </label>
                ) : null}
              </aside>
              <div className="builder-middle">
                <section className="builder-canvas" aria-labelledby="builder-canvas-title">
                  <h2 id="builder-canvas-title">{t('views.builder.outline')}</h2>
                  <LayoutCanvas root={root} selected={current.id} onSelect={setSelected} />
                </section>
                <section className="builder-preview" aria-label={t('views.builder.preview')}>
                  <h2>
                    {t('views.builder.preview')}{' '}
                    <span className="muted small">
                      {t('views.builder.previewEnv', { environment: environmentId })}
                    </span>
                  </h2>
                  <PreviewConfirmations environmentId={environmentId}>
                    <OutsideHostsProvider hosts={previewHosts}>
                      <ViewRenderer
                        viewId={viewId}
                        definition={definition}
                        args={previewArgs}
                        user={viewer}
                        projectId={workspace.projectId}
                        environmentId={environmentId}
                        href={workspace.href}
                      />
                    </OutsideHostsProvider>
                  </PreviewConfirmations>
                </section>
              </div>
              <aside className="builder-panel" aria-label={t('views.builder.properties')}>
                <h2>
                  {t('views.builder.properties')}: <span className="mono">{current.id}</span>
                </h2>
                {current.id !== root.id ? (
                  <RenameField
                    key={`rename:${current.id}@${travels}`}
                    root={root}
                    id={current.id}
                    onRename={(next) => {
                      const renamed = renameComponent(definition, current.id, next);
                      onChange(renamed.definition);
                      setSelected(next);
                      setRenameSkipped(renamed.skipped);
                    }}
                  />
                ) : null}
                {renameSkipped.length > 0 ? (
                  <p className="notice notice-warning" role="status">
                    {t('views.builder.rename.skipped', { fields: renameSkipped.join(', ') })}
                  </p>
                ) : null}
                <ComponentProperties
                  key={`properties:${current.id}@${travels}`}
                  component={current}
                  onChange={(next) => setLayout(mapComponent(root, current.id, () => next))}
                />
                <QueriesEditor
                  key={travels}
                  queries={definition.queries}
                  onChange={(queries) => onChange({ ...definition, queries })}
                />
                <StateTimersEditor definition={definition} onChange={onChange} />
              </aside>
            </div>
          </LayoutDnd>
        </BuilderChoicesContext.Provider>
      )}
    </BuilderChoicesContext.Consumer>
  );
}

function CodeBuilder({
  definition,
  onChange,
  saved,
}: {
  definition: CodeViewDefinition;
  onChange(d: CodeViewDefinition): void;
  saved: ViewHead | undefined;
}) {
  const t = useT();
  const workspace = useWorkspace();
  const previewHosts = usePreviewHosts();
  const { user } = useSession();
  const viewer = useMemo(() => ({ id: user.id, email: user.email, name: user.name }), [user]);
  const previewArgs = useMemo(() => ({}), []);
  const environmentId = previewEnvironment(workspace);
  return (
    <BuilderChoicesContext.Consumer>
      {(choices) => (
        <div className="code-builder">
          <div className="code-builder-editor">
            <fieldset className="builder-events">
              <legend>{t('views.builder.actionIds')}</legend>
              <div className="builder-action-ids">
                {choices.actions.map((a) => (
                  <label key={a.id} className="builder-check">
                    <input
                      type="checkbox"
                      checked={definition.actionIds.includes(a.id)}
                      onChange={(e) =>
                        onChange({
                          ...definition,
                          actionIds: e.target.checked
                            ? [...definition.actionIds, a.id]
                            : definition.actionIds.filter((id) => id !== a.id),
                        })
                      }
                    />{' '}
                    {a.name} <span className="mono muted">{a.id}</span>
                  </label>
                ))}
              </div>
            </fieldset>
            <label className="builder-field" htmlFor="code-view-source">
              <span>{t('views.builder.source')}</span>
            </label>
            <ScriptEditor
              value={definition.source}
              onChange={(source) => onChange({ ...definition, source })}
              control={{ id: 'code-view-source', 'aria-label': t('views.builder.source') } as never}
              rows={18}
            />
            <p className="muted small">{t('views.builder.sdkHint')}</p>
          </div>
          <section className="builder-preview" aria-label={t('views.builder.preview')}>
            <h2>
              {t('views.builder.preview')}{' '}
              <span className="muted small">
                {t('views.builder.previewEnv', { environment: environmentId })}
              </span>
            </h2>
            {saved?.compiled && saved.definition.kind === 'code' ? (
              <>
                {saved.definition.source !== definition.source ? (
                  <p className="muted small">{t('views.builder.previewStale')}</p>
                ) : null}
                <PreviewConfirmations environmentId={environmentId}>
                  <OutsideHostsProvider hosts={previewHosts}>
                    <CodeViewFrame
                      viewId={saved.id}
                      code={saved.compiled.code}
                      actionIds={saved.definition.actionIds}
                      args={previewArgs}
                      user={viewer}
                      projectId={workspace.projectId}
                      environmentId={environmentId}
                      href={workspace.href}
                    />
                  </OutsideHostsProvider>
                </PreviewConfirmations>
              </>
            ) : (
              <p className="muted">{t('views.builder.previewAfterSave')}</p>
            )}
          </section>
        </div>
      )}
    </BuilderChoicesContext.Consumer>
  );
}
