import * as vscode from 'vscode';
import { State, type LanguageClient } from 'vscode-languageclient/node';
import type { ProtocolLocation } from '../../shared/protocol/route-table';
import type { WorkspaceApplication, WorkspaceRoutesResult } from '../../shared/protocol/workspace-routes';
import { visibleControls } from '../../shared/util/escape';
import { buildTree, filterCounts, type Grouping, type RouteNode, type SortOrder, type ViewOptions } from './routes-model';

export const VIEW_ID = 'ciRoutes.routes';
const WORKSPACE_ROUTES = 'ciRoutes/workspaceRoutes';
const ROUTES_CHANGED = 'ciRoutes/routesChanged';
/** A burst of edits (the server notifies once typing pauses) costs one request. */
const REFRESH_DEBOUNCE_MS = 200;
/** While the first scan runs, the view asks again this often. */
const INDEXING_POLL_MS = 1000;

export const SORT_LABELS: Record<SortOrder, string> = { declaration: 'declaration order', uri: 'URI', name: 'name' };

/** Opens a file at a place, selecting the range (a route's declaration). */
export async function openLocation(location: ProtocolLocation, column?: vscode.ViewColumn): Promise<void> {
  const { start, end } = location.range;
  const range = new vscode.Range(start.line, start.character, end.line, end.character);
  await vscode.window.showTextDocument(vscode.Uri.parse(location.uri), { selection: range, preview: true, ...(column !== undefined ? { viewColumn: column } : {}) });
}

/**
 * The routes explorer: every route of every route file of the workspace as the server's index
 * holds it (`ciRoutes/workspaceRoutes`), asked again when the server says the routes changed.
 * The tree itself is routes-model.ts's; this adapts it to a TreeView and keeps the options.
 */
export class RoutesExplorer implements vscode.TreeDataProvider<RouteNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<RouteNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly view: vscode.TreeView<RouteNode>;
  private client: LanguageClient | undefined;
  private data: WorkspaceRoutesResult | undefined;
  private roots: RouteNode[] = [];
  private readonly parents = new Map<string, RouteNode>();
  private options: ViewOptions;
  private timer: NodeJS.Timeout | undefined;
  /** Routes changed while the view was hidden: it asks when shown. */
  private stale = false;
  /** How long the last answer took (ms). */
  private lastAnswerMs = 0;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly state: vscode.Memento,
    private readonly log: vscode.LogOutputChannel,
    /** Told whether the server reports an application (the commands' context key). */
    private readonly onApplications: (found: boolean) => void,
  ) {
    this.options = {
      grouping: state.get<Grouping>('ciRoutes.explorer.grouping') === 'prefix' ? 'prefix' : 'file',
      sort: (['declaration', 'uri', 'name'] as const).find((s) => s === state.get('ciRoutes.explorer.sort')) ?? 'declaration',
      filter: '',
    };
    this.view = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: this, showCollapseAll: true });
    this.subscriptions.push(
      this.view,
      this.changed,
      this.view.onDidChangeVisibility((e) => {
        if (e.visible && this.stale) this.refreshSoon(0);
      }),
    );
    this.updateContext();
  }

  /** Follows a (started) client: asks for the routes now, and again whenever the server says they changed. */
  attach(client: LanguageClient): void {
    this.client = client;
    this.subscriptions.push(
      client.onNotification(ROUTES_CHANGED, () => this.refreshSoon()),
      client.onDidChangeState((e) => {
        if (e.newState === State.Running) this.refreshSoon(0);
      }),
    );
    this.refreshSoon(0);
  }

  get current(): WorkspaceRoutesResult | undefined {
    return this.data;
  }

  get applications(): readonly WorkspaceApplication[] {
    return this.data?.applications ?? [];
  }

  get viewOptions(): Readonly<ViewOptions> {
    return this.options;
  }

  /**
   * Asks the server again in `ms` (once for every call made meanwhile); a hidden view waits until
   * shown. By default the delay grows with the last answer's time: in a workspace whose routes
   * take the server long to list (tens of thousands), the explorer asks less often, and the
   * server's other requests keep their turn.
   */
  refreshSoon(ms = Math.max(REFRESH_DEBOUNCE_MS, 3 * this.lastAnswerMs)): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // The first answer is asked for even hidden: it says whether the workspace has an application.
      if (!this.view.visible && this.data !== undefined) {
        this.stale = true;
        return;
      }
      void this.refresh();
    }, ms);
  }

  /** Asks the server for the routes now; the answer (undefined when the server is not running). */
  async refresh(): Promise<WorkspaceRoutesResult | undefined> {
    const client = this.client;
    if (!client || client.state !== State.Running) return undefined;
    this.stale = false;
    try {
      const asked = Date.now();
      const data = (await client.sendRequest(WORKSPACE_ROUTES, {})) as WorkspaceRoutesResult;
      this.lastAnswerMs = Date.now() - asked;
      this.data = data;
      this.rebuild();
      if (data.applications.length) this.onApplications(true);
      if (data.indexing) this.refreshSoon(INDEXING_POLL_MS);
      return data;
    } catch (e) {
      this.log.warn(`the routes explorer could not read the routes: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
  }

  async setFilter(filter: string): Promise<void> {
    this.options = { ...this.options, filter: filter.trim() };
    this.rebuild();
  }

  async setGrouping(grouping: Grouping): Promise<void> {
    this.options = { ...this.options, grouping };
    await this.state.update('ciRoutes.explorer.grouping', grouping);
    this.rebuild();
  }

  async setSort(sort: SortOrder): Promise<void> {
    this.options = { ...this.options, sort };
    await this.state.update('ciRoutes.explorer.sort', sort);
    this.rebuild();
  }

  /** Shows the view (and its container). */
  async reveal(): Promise<void> {
    await vscode.commands.executeCommand(`${VIEW_ID}.focus`);
  }

  private rebuild(): void {
    this.roots = this.data ? buildTree(this.data, this.options) : [];
    this.parents.clear();
    const walk = (nodes: RouteNode[], parent?: RouteNode) => {
      for (const n of nodes) {
        if (parent) this.parents.set(n.id, parent);
        walk(n.children ?? [], n);
      }
    };
    walk(this.roots);
    this.view.description = `by ${this.options.grouping === 'file' ? 'file' : 'URI prefix'} · ${SORT_LABELS[this.options.sort]}`;
    this.view.message = this.message();
    this.updateContext();
    this.changed.fire(undefined);
  }

  private message(): string | undefined {
    const data = this.data;
    if (!data) return undefined;
    if (data.applications.length === 0) return data.indexing ? 'Indexing the route files…' : 'No route file found in the workspace (config/routes.php).';
    const parts: string[] = [];
    if (this.options.filter) {
      const { shown, total } = filterCounts(data, this.options.filter);
      parts.push(`Filter “${visibleControls(this.options.filter)}”: ${shown} of ${total} routes${shown === 0 ? ' (none matches)' : ''}`);
    }
    if (data.indexing) parts.push('Indexing the route files…');
    return parts.length ? parts.join(' · ') : undefined;
  }

  private updateContext(): void {
    void vscode.commands.executeCommand('setContext', 'ciRoutes.explorer.filtered', this.options.filter !== '');
    void vscode.commands.executeCommand('setContext', 'ciRoutes.explorer.grouping', this.options.grouping);
  }

  getTreeItem(node: RouteNode): vscode.TreeItem {
    const filtered = this.options.filter !== '';
    const expanded = vscode.TreeItemCollapsibleState.Expanded;
    const collapsed = vscode.TreeItemCollapsibleState.Collapsed;
    const item = new vscode.TreeItem({ label: node.label, ...(node.highlights?.length ? { highlights: node.highlights } : {}) });
    item.id = node.id;
    item.description = node.description;
    item.tooltip = node.tooltip;
    item.contextValue = node.kind;
    switch (node.kind) {
      case 'application':
        item.iconPath = new vscode.ThemeIcon('root-folder');
        item.collapsibleState = expanded;
        break;
      case 'file':
        item.iconPath = new vscode.ThemeIcon(node.error ? 'error' : 'file-code');
        item.resourceUri = vscode.Uri.parse(node.uri);
        item.collapsibleState = node.children.length ? expanded : vscode.TreeItemCollapsibleState.None;
        break;
      case 'prefix':
        item.iconPath = new vscode.ThemeIcon('folder');
        item.collapsibleState = filtered ? expanded : collapsed;
        break;
      case 'declaration':
        item.iconPath = new vscode.ThemeIcon('symbol-namespace');
        item.collapsibleState = filtered ? expanded : collapsed;
        item.command = { command: 'ciRoutes.explorer.open', title: 'Go to Declaration', arguments: [node] };
        break;
      case 'route':
        item.iconPath = new vscode.ThemeIcon(node.route.unknown !== undefined ? 'question' : 'arrow-right');
        item.collapsibleState = vscode.TreeItemCollapsibleState.None;
        if (node.location) item.command = { command: 'ciRoutes.explorer.open', title: 'Go to Declaration', arguments: [node] };
        break;
    }
    return item;
  }

  getChildren(node?: RouteNode): RouteNode[] {
    return node ? (node.children ?? []) : this.roots;
  }

  getParent(node: RouteNode): RouteNode | undefined {
    return this.parents.get(node.id);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const s of this.subscriptions) s.dispose();
  }
}
